//! `bowline learn`: a naive Bayes model learns labelled documents from a stream on stdin, one at
//! a time, creating the model when it does not exist yet.
//!
//! The learning is [`bowline::jobs::learn`]'s. The model is saved atomically every
//! `--checkpoint-every` documents and at the end, so an interrupted run keeps what it learned up
//! to its last checkpoint; SIGINT or SIGTERM ends the stream, and the documents read so far are
//! learned and saved.

use std::path::PathBuf;

use clap::Args;
use indicatif::ProgressBar;

use super::log::Logged;
use super::stream;
use super::{choice, AnalysisArgs, InputArgs, Outcome, RuntimeArgs, VocabularyArgs};
use bowline::jobs::learn::{Checkpoints, Given, Heard, Learn};
use bowline::jobs::Placement;
use bowline::{Kind, Result};

/// Flags of `bowline learn`.
#[derive(Debug, Args)]
pub struct LearnArgs {
    /// The model to update, or to create when the file does not exist.
    pub model: PathBuf,
    /// The classifier of a new model: mnb, cnb or bnb [default: mnb].
    #[arg(long, value_parser = choice::<Kind>())]
    pub classifier: Option<Kind>,
    /// Smoothing of a new model, > 0 [default: cnb 0.1, bnb 0.001, mnb 0.01: a stream has no
    /// training documents at hand to choose it from, as train does].
    #[arg(long)]
    pub alpha: Option<f64>,
    /// Start a multi-label model (when the file does not exist): one binary naive Bayes per
    /// label, as `train --multi-label` trains on the documents seen so far, with every
    /// threshold at 0 (a stream holds no documents out to choose them; `train
    /// --threshold-folds 0` is the same model). A document's labels are JSONL `labels` or TSV
    /// labels split by --label-sep.
    #[arg(long)]
    pub multi_label: bool,
    /// A new multi-label model gives every document at least this many labels, the
    /// highest-scoring [default: 1].
    #[arg(long, value_name = "N", requires = "multi_label")]
    pub min_labels: Option<u32>,
    /// Save the model after every N documents (and at the end).
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub checkpoint_every: u64,
    /// Classify each document before learning it, and report accuracy and per-class F1 on stderr.
    #[arg(long)]
    pub prequential: bool,
    /// Prequential figures cover the latest N documents, and are printed every N documents.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub window: usize,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub weighting: VocabularyArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

/// Runs the command.
pub fn run(args: LearnArgs) -> Result<Outcome> {
    let job = Learn {
        model: args.model.clone(),
        corpus: "stdin".into(),
        given: Given {
            kind: args.classifier,
            alpha: args.alpha,
            multi_label: args.multi_label,
            min_labels: args.min_labels,
            analysis: args.analysis.flags(),
            vocabulary: args.weighting.flags(),
        },
        checkpoints: Checkpoints::every(args.checkpoint_every),
        prequential: args.prequential,
        window: args.window,
    };
    let opened = job.open()?;
    let read = args.input.flags().labelled_options()?;
    let pipeline = args.runtime.start()?;
    let stream = stream::stdin(&read, pipeline.batch_size)?;
    let logged = Logged::new(read.max_doc_bytes, ProgressBar::hidden());
    let learned = opened.learn(
        stream.items.clone(),
        (&pipeline, read.max_doc_bytes),
        logged.note(),
        &mut |heard| match heard {
            Heard::Unlabeled(line) => {
                super::log::warn(&format!("error: -:{line}: no label; not learned"));
            }
            Heard::Figures(record, labels) => {
                eprintln!(
                    "bowline: {}",
                    bowline::render::prequential_line(record, labels)
                );
            }
        },
    )?;
    let outcome = logged.finish(args.runtime.quiet, &Placement::Local)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", learned.summary(&args.model));
    }
    Ok(match (stream.interrupted_by(), outcome) {
        (Some(signal), _) => Outcome::Interrupted(signal),
        (None, Outcome::Clean) if learned.unlabeled > 0 => Outcome::Partial(learned.unlabeled),
        (None, outcome) => outcome,
    })
}
