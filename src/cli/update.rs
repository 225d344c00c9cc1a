//! `bowline update`: teach a saved model more labelled documents (see
//! [`TextClassifier::update_source`](bowline::TextClassifier::update_source) for what an update
//! means for each classifier).

use std::path::PathBuf;

use clap::Args;

use super::log::ReadLog;
use super::train::report_unconverged;
use super::{InputArgs, Outcome, RuntimeArgs};
use bowline::classifier::Updated;
use bowline::model::ModelLock;
use bowline::{Result, Source, TextClassifier};

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
    #[cfg(feature = "cluster")]
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// Runs the command.
pub fn run(args: UpdateArgs) -> Result<Outcome> {
    let target = args.output.as_ref().unwrap_or(&args.model);
    bowline::io::refuse_overwriting_inputs(target, &[&args.corpus])?;
    #[cfg(feature = "cluster")]
    if let Some(cluster) = args.cluster.cluster()? {
        return update_in_cluster(&cluster, &args);
    }
    // Held from the read to the write, so that two updates of one model take turns.
    let lock = ModelLock::acquire(&args.model)?;
    let mut classifier = TextClassifier::load(&args.model)?;
    let read = args.input.labelled_options()?;
    let pipeline = args.runtime.start()?;
    super::memory::prepare_for(classifier.analyzer().config());
    let mut log = ReadLog::new(read.max_doc_bytes);
    let source = Source::open(&args.corpus, &read)?;
    let updated = classifier.update_source(source, &mut super::reading(pipeline, &mut log))?;
    save(&classifier, &args, &lock, updated)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
    }
    Ok(log.outcome())
}

/// `update` in cluster mode: every process reads the corpus, each worker counts the documents
/// it owns, and process 0 alone (holding the model's lock) updates and writes the model.
#[cfg(feature = "cluster")]
fn update_in_cluster(cluster: &bowline::cluster::Cluster, args: &UpdateArgs) -> Result<Outcome> {
    let lock = (cluster.process == 0)
        .then(|| ModelLock::acquire(&args.model))
        .transpose()?;
    let mut classifier = TextClassifier::load(&args.model)?;
    let read = args.input.labelled_options()?;
    let pipeline = args.runtime.start()?;
    let update = |note| {
        let corpus = &args.corpus;
        let updated =
            bowline::cluster::update(cluster, &mut classifier, corpus, &read, &pipeline, note)?;
        Ok(updated.map(|updated| (classifier, updated)))
    };
    let logging = (read.max_doc_bytes, args.runtime.quiet);
    super::cluster::run_logged(
        cluster,
        logging,
        update,
        |(classifier, updated)| match &lock {
            Some(lock) => save(&classifier, args, lock, updated),
            None => Ok(()),
        },
    )
}

/// Writes the updated model (to -o, or in place under `lock`) and says what it learned.
fn save(
    classifier: &TextClassifier,
    args: &UpdateArgs,
    lock: &ModelLock,
    updated: Updated,
) -> Result<()> {
    let target = args.output.as_ref().unwrap_or(&args.model);
    let model = classifier.model();
    report_unconverged(&model.classifier, &model.labels);
    match &args.output {
        Some(other) => classifier.save(other)?,
        None => model.save_locked(lock)?,
    }
    if !args.runtime.quiet {
        eprintln!(
            "bowline: updated with {} documents: {} classes, {} -> {}",
            updated.documents,
            model.labels.len(),
            super::features(&model.vectorizer),
            target.display()
        );
    }
    Ok(())
}
