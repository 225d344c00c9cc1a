//! `bowline update`: teach a saved model more labelled documents (see
//! [`TextClassifier::update_source`](bowline::TextClassifier::update_source) for what an update
//! means for each classifier).

use std::path::PathBuf;

use clap::Args;

use super::log::Logged;
use super::train::report_unconverged;
use super::{InputArgs, Outcome, RuntimeArgs};
use bowline::jobs::update::Update;
use bowline::Result;

/// Flags of `bowline update`.
#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// A model written by `bowline train`.
    pub model: PathBuf,
    /// A labelled corpus of new documents.
    pub corpus: PathBuf,
    /// Write the updated model here instead of replacing MODEL (which is replaced atomically).
    #[arg(short, long, value_name = "NEW_MODEL")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// Runs the command.
pub fn run(args: UpdateArgs) -> Result<Outcome> {
    let update = Update::new(args.model, args.corpus, args.output)?;
    let placement = args.cluster.placement()?;
    let opened = update.open(&placement)?;
    let read = args.input.flags().labelled_options()?;
    let pipeline = args.runtime.start()?;
    // Before the documents are read, as `train` does in either placement: counting n-grams
    // outgrows and replaces large tables, whose freed pages should go back at once.
    crate::memory::prepare_for(opened.analysis());
    let quiet = args.runtime.quiet;
    let logged = Logged::new(read.max_doc_bytes, indicatif::ProgressBar::hidden());
    if let Some(updated) = opened.run(&read, pipeline, &placement, logged.note())? {
        let model = updated.model();
        report_unconverged(model);
        updated.save()?;
        if !quiet {
            let summary =
                bowline::render::model::updated(updated.documents(), model, updated.target());
            eprintln!("bowline: {summary}");
        }
    }
    logged.finish(quiet, &placement)
}
