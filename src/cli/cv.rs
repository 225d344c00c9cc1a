//! `bowline cv`: stratified k-fold cross-validation of a classifier on a labelled corpus.
//!
//! The work is [`Builder::cross_validate`]'s.

use std::path::PathBuf;

use clap::Args;

use super::log::ReadLog;
use super::train::ClassifierArgs;
use super::tune::TuneArgs;
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs, VocabularyArgs};
use bowline::classifier::CvReport;
use bowline::model::Kind;
use bowline::{Result, Source};

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
    #[cfg(feature = "cluster")]
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// Runs the command.
pub fn run(args: CvArgs) -> Result<Outcome> {
    let kind = args.model.choice(Kind::Svm);
    let svm_seed = (kind == Kind::Svm).then_some(args.seed).flatten();
    let analysis = args.analysis.config_over(&kind.default_analysis())?;
    let config = args.weighting.config_over(&kind.default_vectorizer())?;
    let builder = args.model.builder(kind, analysis, config, svm_seed)?;
    let read = args.input.labelled_options()?;
    let pipeline = args.runtime.start()?;
    let seed = args.seed.unwrap_or(1);
    #[cfg(feature = "cluster")]
    if let Some(cluster) = args.cluster.cluster()? {
        if args.tune.tune {
            return Err(bowline::Error::Config(
                "cluster mode cross-validates given settings; --tune runs in one process".into(),
            ));
        }
        let (corpus, runs) = (&args.corpus, (&read, &pipeline));
        let folds = (args.folds, seed);
        return super::cluster::run_logged(
            &cluster,
            (read.max_doc_bytes, args.runtime.quiet),
            |note| bowline::cluster::cross_validate(&cluster, &builder, corpus, runs, folds, note),
            |report| print(&report, &args, kind),
        );
    }
    let mut log = ReadLog::new(read.max_doc_bytes);
    let source = Source::open(&args.corpus, &read)?;
    let mut reading = super::reading(pipeline, &mut log);
    if args.tune.tune {
        let progress = super::tune::progress_bar();
        let outcome = builder.tune(
            source,
            &mut reading,
            &args.tune.options(seed),
            |done, planned| {
                progress.set_length(planned as u64);
                progress.set_position(done as u64);
            },
        )?;
        progress.finish_and_clear();
        drop(reading);
        super::print_or_quiet(&super::tune::render(&outcome, args.json)?)?;
        if !args.runtime.quiet {
            eprintln!("bowline: {}", log.summary());
        }
        return Ok(log.outcome());
    }
    let report = builder.cross_validate(source, &mut reading, args.folds, seed)?;
    drop(reading);
    print(&report, &args, kind)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
    }
    Ok(log.outcome())
}

/// Prints the report as a table or JSON.
fn print(report: &CvReport, args: &CvArgs, kind: Kind) -> Result<()> {
    let text = if args.json {
        let json = serde_json::json!({
            "classifier": kind.name(),
            "folds": report.folds,
            "accuracy": report.accuracy,
            "macro_f1": report.macro_f1,
        });
        super::json_text(&json)?
    } else {
        table(report, args.folds)
    };
    super::print_or_quiet(&text)
}

/// The folds' figures as a table, with their mean and spread.
fn table(report: &CvReport, folds: usize) -> String {
    let mut out = format!(
        "{:>5}  {:>6}  {:>8}  {:>8}\n",
        "fold", "docs", "accuracy", "macro-F1"
    );
    for r in &report.folds {
        out += &format!(
            "{:>5}  {:>6}  {:>8.4}  {:>8.4}\n",
            r.fold, r.docs, r.accuracy, r.macro_f1
        );
    }
    let (accuracy, macro_f1) = (report.accuracy, report.macro_f1);
    out + &format!(
        "\naccuracy {:.4} ± {:.4}, macro-F1 {:.4} ± {:.4} (mean ± standard deviation over {} folds)\n",
        accuracy.mean, accuracy.std, macro_f1.mean, macro_f1.std, folds
    )
}
