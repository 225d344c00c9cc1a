//! `bowline cv`: stratified k-fold cross-validation of a classifier on a labelled corpus.
//!
//! The work is [`Cv`]'s (or, with `--tune`, the search's), the rendering `render::cv`'s.

use std::path::PathBuf;

use clap::Args;

use super::log::Logged;
use super::train::ClassifierArgs;
use super::tune::TuneArgs;
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs, VocabularyArgs};
use bowline::jobs::cv::{CrossValidated, Cv};
use bowline::render::cv::{cv_json, cv_text};
use bowline::{Kind, Result};

/// Flags of `bowline cv`.
#[derive(Debug, Args)]
pub struct CvArgs {
    /// A labelled corpus: class folders, a .tsv or a .jsonl file.
    pub corpus: PathBuf,
    /// Number of folds, at least 2.
    #[arg(long, default_value_t = 5, value_name = "K")]
    pub folds: usize,
    /// Seed of the fold assignment (a hash of each document's id) and of the SVM [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub model: ClassifierArgs,
    #[command(flatten)]
    pub tune: TuneArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub weighting: VocabularyArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// Runs the command.
pub fn run(args: CvArgs) -> Result<Outcome> {
    let kind = args.model.choice(Kind::Svm);
    let svm_seed = (kind == Kind::Svm).then_some(args.seed).flatten();
    let seed = args.seed.unwrap_or(1);
    let flags = (&args.analysis, &kind.default_analysis());
    let job = Cv {
        builder: args
            .model
            .builder(kind, flags, args.weighting.flags(), svm_seed)?,
        corpus: args.corpus.clone(),
        read: args.input.flags().labelled_options()?,
        pipeline: args.runtime.start()?,
        folds: args.folds,
        seed,
        tune: args.tune.tune.then(|| args.tune.options(seed)),
    };
    let placement = args.cluster.placement()?;
    let logged = Logged::new(job.read.max_doc_bytes, indicatif::ProgressBar::hidden());
    let progress = match args.tune.tune {
        true => super::tune::progress_bar(),
        false => indicatif::ProgressBar::hidden(),
    };
    let found = job.run(&placement, logged.note(), |done, planned| {
        progress.set_length(planned as u64);
        progress.set_position(done as u64);
    })?;
    progress.finish_and_clear();
    let shown = match found {
        Some(CrossValidated::Folds(report)) if args.json => Some(cv_json(&report, kind)?),
        Some(CrossValidated::Folds(report)) => Some(cv_text(&report, args.folds)),
        Some(CrossValidated::Tuned(outcome)) => Some(super::tune::render(&outcome, args.json)?),
        None => None,
    };
    if let Some(shown) = shown {
        super::print_or_quiet(&shown)?;
    }
    logged.finish(args.runtime.quiet, &placement)
}
