//! `bowline index`: keep a corpus in a tantivy index, analyzed by bowline's analyzer.

use std::path::PathBuf;

use clap::Args;

use super::{log::Logged, AnalysisArgs, InputArgs, Outcome, RuntimeArgs};
use bowline::jobs::index::Index;
use bowline::jobs::Placement;
use bowline::Result;

/// Flags of `bowline index`.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// The documents: class folders, a .tsv or .jsonl file, unlabeled files.
    pub corpus: PathBuf,
    /// The index folder, created if needed; without --append an index already there is replaced.
    #[arg(long, value_name = "DIR")]
    pub index: PathBuf,
    /// Add to the index instead of replacing it; a document whose id is already indexed is
    /// replaced. The index keeps the analysis it was created with.
    #[arg(long)]
    pub append: bool,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

/// Runs the command.
pub fn run(args: IndexArgs) -> Result<Outcome> {
    let started = std::time::Instant::now();
    let read = args.input.flags().options()?;
    let pipeline = args.runtime.start()?;
    let analysis = args
        .analysis
        .flags()
        .any_set()
        .then(|| args.analysis.flags().config());
    let job = Index {
        corpus: args.corpus,
        index: args.index.clone(),
        append: args.append,
        analysis: analysis.transpose()?,
        read,
        pipeline,
    };
    let logged = Logged::new(job.read.max_doc_bytes, indicatif::ProgressBar::hidden());
    let added = job.run(logged.note())?;
    let outcome = logged.finish(args.runtime.quiet, &Placement::Local)?;
    if !args.runtime.quiet {
        let seconds = started.elapsed().as_secs_f64();
        eprintln!(
            "bowline: {}",
            bowline::render::indexed(added, seconds, &args.index)
        );
    }
    Ok(outcome)
}
