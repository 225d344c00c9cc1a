//! `bowline select`: greedy forward feature selection against a dev split, then a model trained
//! on the selected features.
//!
//! The work is `bowline::jobs::select`'s; this command turns flags into that job and writes
//! what it found.

use std::path::PathBuf;

use clap::Args;

use super::log::Logged;
use super::train::{report_unconverged, ClassifierArgs};
use super::{choice, AnalysisArgs, InputArgs, Outcome, RuntimeArgs, WeightingArgs};
use bowline::jobs::select::Select;
use bowline::jobs::settings::{Greedy, Metric, RankBy};
use bowline::jobs::Placement;
use bowline::render::{left_out, SelectionReport};
use bowline::{Kind, Result};

/// Flags of `bowline select`.
#[derive(Debug, Args)]
pub struct SelectArgs {
    /// A labelled corpus: class folders, a .tsv or a .jsonl file.
    pub corpus: PathBuf,
    /// Where to write the model trained on the selected features.
    #[arg(short, long, value_name = "MODEL")]
    pub output: PathBuf,
    /// Share of each class held out as the dev set, in (0, 1).
    #[arg(
        long,
        default_value_t = 0.2,
        value_name = "FRACTION",
        conflicts_with = "dev"
    )]
    pub dev_split: f64,
    /// A separate labelled dev corpus instead of a split.
    #[arg(long, value_name = "DEV_CORPUS")]
    pub dev: Option<PathBuf>,
    /// Seed of the dev split (a hash of each document's id) and of the SVM [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// What the dev set is judged by.
    #[arg(long, value_parser = choice::<Metric>(), default_value = "accuracy")]
    pub metric: Metric,
    /// Features at most.
    #[arg(long, default_value_t = 10_000, value_name = "K")]
    pub max_features: usize,
    /// Candidates: the top N terms of the ranking on the training part.
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    pub candidates: usize,
    /// The ranking that picks the candidates (and breaks ties between them).
    #[arg(long, value_parser = choice::<RankBy>(), default_value = "chi2")]
    pub rank_by: RankBy,
    /// A step improves when it betters the best dev metric so far by more than this.
    #[arg(long, default_value_t = 0.0, value_name = "T")]
    pub tol: f64,
    /// Stop after this many steps without improvement.
    #[arg(long, default_value_t = 500, value_name = "P")]
    pub patience: usize,
    /// Write the selected features, in order, with the dev metric after each, as JSON.
    #[arg(long, value_name = "SELECTION.json")]
    pub report: Option<PathBuf>,
    /// Write the selection curve (dev metric against number of features) as an SVG chart.
    #[arg(long, value_name = "CURVE.svg")]
    pub plot: Option<PathBuf>,
    /// Train the final model on train + dev instead of train alone.
    #[arg(long)]
    pub refit: bool,
    /// A labelled test corpus, only reported at the end.
    #[arg(long, value_name = "TEST_CORPUS")]
    pub test: Option<PathBuf>,
    #[command(flatten)]
    pub model: ClassifierArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub weighting: WeightingArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

/// Runs the command.
pub fn run(args: SelectArgs) -> Result<Outcome> {
    let mut inputs = vec![args.corpus.as_path()];
    inputs.extend(args.dev.iter().chain(&args.test).map(|p| p.as_path()));
    bowline::jobs::check_output(&args.output, &inputs)?;
    let kind = args.model.choice(Kind::Mnb);
    let svm_seed = (kind == Kind::Svm).then_some(args.seed).flatten();
    let greedy = Greedy {
        metric: args.metric,
        max_features: args.max_features,
        tol: args.tol,
        patience: args.patience,
    };
    let flags = (&args.analysis, &kind.default_analysis());
    let job = Select {
        corpus: args.corpus.clone(),
        dev: args.dev.clone(),
        test: args.test.clone(),
        builder: args
            .model
            .builder(kind, flags, args.weighting.flags().into(), svm_seed)?,
        greedy,
        candidates: args.candidates,
        rank_by: args.rank_by,
        dev_split: args.dev_split,
        seed: args.seed.unwrap_or(1),
        refit: args.refit,
        read: args.input.flags().labelled_options()?,
        pipeline: args.runtime.start()?,
    };
    let logged = Logged::new(job.read.max_doc_bytes, indicatif::ProgressBar::hidden());
    let progress = progress_bar(args.max_features.min(args.candidates) as u64);
    let outcome = job.run(logged.note(), |step, metric| {
        progress.set_position(step as u64);
        progress.set_message(format!("dev {metric:.4}"));
    })?;
    progress.finish_and_clear();
    for (path, unknown) in &outcome.left_out {
        super::log::warn(&left_out(path, *unknown));
    }
    report_unconverged(outcome.model.model());
    outcome.model.save(&args.output)?;
    let report = SelectionReport::new(&outcome, args.metric, args.rank_by);
    if let Some(path) = &args.report {
        bowline::jobs::write_file(path, &report.json()?)?;
    }
    if let Some(path) = &args.plot {
        bowline::jobs::write_file(path, &report.curve())?;
    }
    let finished = logged.finish(args.runtime.quiet, &Placement::Local)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", report.summary(&args.output));
    }
    Ok(finished)
}

/// Steps done on stderr when it is a terminal, hidden otherwise.
fn progress_bar(steps: u64) -> indicatif::ProgressBar {
    let template = "{bar:40} {pos}/{len} features, {msg}, {elapsed}";
    super::on_terminal(indicatif::ProgressBar::new(steps), template)
}
