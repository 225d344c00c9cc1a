//! `bowline learn`: a naive Bayes model learns labelled documents from a stream on stdin, one at
//! a time, creating the model when it does not exist yet.
//!
//! The learning itself is [`OnlineLearner`]'s. The model is saved atomically every `--checkpoint-every`
//! documents and at the end, so an interrupted run keeps what it learned up to its last
//! checkpoint; SIGINT or SIGTERM ends the stream, and the documents read so far are learned and
//! saved.

use std::path::PathBuf;

use clap::Args;

use super::log::ReadLog;
use super::stream;
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs, VocabularyArgs};
use bowline::analyze::Analyzer;
use bowline::classifier::OnlineLearner;
use bowline::eval::Prequential;
use bowline::flow::analysis_stages;
use bowline::model::{Kind, Model, ModelLock};
use bowline::vectorize::{DfBound, VectorizerConfig};
use bowline::{Error, Result};

/// Flags of `bowline learn`.
#[derive(Debug, Args)]
pub struct LearnArgs {
    /// The model to update, or to create when the file does not exist.
    pub model: PathBuf,
    /// The classifier of a new model: mnb, cnb or bnb [default: mnb].
    #[arg(long, value_enum)]
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

/// Continues the model at `args.model`, or starts a new one as the flags say; true when the
/// model existed.
fn open(args: &LearnArgs) -> Result<(OnlineLearner, bool)> {
    if !args.model.exists() {
        return Ok((create(args)?, false));
    }
    let model = Model::load(&args.model)?;
    let analyzer = model.vectorizer.analyzer();
    let config = model.vectorizer.config();
    let unchanged = args.classifier.is_none()
        && args.alpha.is_none()
        && args.min_labels.is_none()
        && (!args.multi_label || model.classifier.multi_label().is_some())
        && args.analysis.config_over(analyzer)? == *analyzer
        && args.weighting.config_over(config)? == *config;
    let learner = OnlineLearner::resume(model, &args.model)?;
    if !unchanged {
        return Err(Error::input(
            &args.model,
            "the model exists, so its classifier, analysis and weighting are fixed; drop \
             those flags or learn into a new file",
        ));
    }
    Ok((learner, true))
}

/// A new learner as the flags say.
fn create(args: &LearnArgs) -> Result<OnlineLearner> {
    let kind = args.classifier.unwrap_or(Kind::Mnb);
    let analysis = args.analysis.config_over(&kind.default_analysis())?;
    let defaults = VectorizerConfig {
        min_df: DfBound::Count(1),
        ..kind.default_vectorizer()
    };
    let config = args.weighting.config_over(&defaults)?;
    let alpha = args.alpha.unwrap_or(kind.default_alpha().value());
    match args.multi_label {
        true => {
            let least = args.min_labels.unwrap_or(1);
            OnlineLearner::new_multi_label(kind, analysis, config, alpha, least)
        }
        false => OnlineLearner::new(kind, analysis, config, alpha),
    }
}

/// Runs the command.
pub fn run(args: LearnArgs) -> Result<Outcome> {
    if args.checkpoint_every == 0 || args.window == 0 {
        return Err(Error::Config(
            "--checkpoint-every and --window must be at least 1".into(),
        ));
    }
    // Held for the whole stream: a second writer of this model waits until it ends.
    let lock = ModelLock::acquire(&args.model)?;
    let (mut learner, existed) = open(&args)?;
    learner.add_corpus("stdin");
    let read = args.input.labelled_options()?;
    let pipeline = args.runtime.start()?;
    let analyzer = Analyzer::new(learner.analysis().clone())?;
    let stages = analysis_stages(&analyzer, read.max_doc_bytes, pipeline.is_fused());
    let mut log = ReadLog::new(read.max_doc_bytes);
    let mut record = Prequential::new(args.window);
    let (mut learned, mut unlabeled) = (0u64, 0u64);
    let stream = stream::stdin(&read, pipeline.batch_size)?;
    bowline::pipeline::run_channel(&pipeline, stream.items.clone(), stages, |batch| {
        for item in batch {
            log.note(&item.entry);
            if !item.entry.is_document() {
                continue;
            }
            let Some(label) = item.entry.doc.label.as_deref() else {
                let line = &item.entry.doc.id;
                super::log::warn(&format!("error: -:{line}: no label; not learned"));
                unlabeled += 1;
                continue;
            };
            let predicted = args.prequential.then(|| learner.predict_terms(&item.terms));
            let class = learner.class_of(label);
            if let Some(predicted) = predicted {
                record.add(class, predicted);
                if record.seen().is_multiple_of(args.window as u64) {
                    report(&record, learner.labels());
                }
            }
            // A document with several labels (JSONL `labels`, --label-sep) needs a multi-label
            // model; the prequential record above scores its first label.
            let labels = &item.entry.doc.labels;
            if labels.is_empty() {
                learner.learn_terms(&item.terms, class)?;
            } else {
                let classes: Vec<u32> = labels.iter().map(|l| learner.class_of(l)).collect();
                learner.learn_labels(&item.terms, &classes)?;
            }
            learned += 1;
            if learned % args.checkpoint_every == 0 {
                learner.to_model()?.save_locked(&lock)?;
            }
        }
        Ok(())
    })?;
    if learned > 0 || existed {
        learner.to_model()?.save_locked(&lock)?;
    }
    if args.prequential && !record.seen().is_multiple_of(args.window as u64) {
        report(&record, learner.labels());
    }
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
        eprintln!(
            "bowline: learned {learned} documents: {} classes, {} terms -> {}",
            learner.labels().len(),
            learner.terms(),
            args.model.display()
        );
    }
    Ok(match (stream.interrupted_by(), log.outcome()) {
        (Some(signal), _) => Outcome::Interrupted(signal),
        (None, Outcome::Clean) if unlabeled > 0 => Outcome::Partial(unlabeled),
        (None, outcome) => outcome,
    })
}

/// One line of prequential figures on stderr.
fn report(record: &Prequential, labels: &[String]) {
    let f1: Vec<String> = record
        .window_f1(labels.len())
        .iter()
        .zip(labels)
        .map(|(f, label)| format!("{label} {f:.4}"))
        .collect();
    eprintln!(
        "bowline: prequential: {} documents: accuracy {:.4} over the last {}, {:.4} since the \
         start; F1 {}",
        record.seen(),
        record.window_accuracy(),
        record.seen().min(record.window() as u64),
        record.accuracy(),
        f1.join(", ")
    );
}
