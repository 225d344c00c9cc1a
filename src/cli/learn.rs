//! `bowline learn`: a naive Bayes model learns labelled documents from a stream on stdin, one at
//! a time, creating the model when it does not exist yet.
//!
//! Every document is counted exactly, so the counts equal those of training on the whole stream.
//! A stream cannot prune rare terms (a term's first occurrence must be counted before anyone
//! knows it will recur), so a model created here keeps every term: min-df 1. With an idf
//! weighting each document is weighted with the idf of the documents learned so far, itself
//! included, as `update` does. The model is saved atomically every `--checkpoint-every`
//! documents and at the end, so an interrupted run keeps what it learned up to its last
//! checkpoint; SIGINT or SIGTERM ends the stream, and the documents read so far are learned and
//! saved.

use std::path::{Path, PathBuf};

use clap::Args;

use super::log::ReadLog;
use super::stream;
use super::train::ClassifierChoice;
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs, VocabularyArgs};
use crate::analyze::{Analyzed, Analyzer};
use crate::corpus::InputFormat;
use crate::error::{Error, Result};
use crate::eval::Prequential;
use crate::model::decision::argmax;
use crate::model::{file::utc_now, Classifier, Model, NaiveBayes, OnlineNb, Priors, TrainingInfo};
use crate::vectorize::{Counted, DfBound, GrowingVocabulary, VectorizerConfig};

/// Flags of `bowline learn`.
#[derive(Debug, Args)]
pub struct LearnArgs {
    /// The model to update, or to create when the file does not exist.
    pub model: PathBuf,
    /// The classifier of a new model: mnb, cnb or bnb [default: mnb].
    #[arg(long, value_enum)]
    pub classifier: Option<ClassifierChoice>,
    /// Smoothing of a new model, > 0 [default: the classifier's, as for train].
    #[arg(long)]
    pub alpha: Option<f64>,
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

/// What is being learned: the growing vocabulary and counts, and the model's other parts.
struct Learner {
    vocabulary: GrowingVocabulary,
    nb: OnlineNb,
    labels: Vec<String>,
    info: TrainingInfo,
}

impl Learner {
    /// Continues the model at `path`, or starts a new one as the flags say.
    fn open(args: &LearnArgs) -> Result<(Self, bool)> {
        if !args.model.exists() {
            return Ok((Self::create(args)?, false));
        }
        let mut model = Model::load(&args.model)?;
        let Classifier::NaiveBayes(nb) = &model.classifier else {
            return Err(Error::input(
                &args.model,
                "learn works on naive Bayes models; teach an SVM more documents with `update`",
            ));
        };
        let analyzer = model.vectorizer.analyzer();
        let config = model.vectorizer.config();
        let unchanged = args.classifier.is_none()
            && args.alpha.is_none()
            && args.analysis.config_over(analyzer)? == *analyzer
            && args.weighting.config_over(config)? == *config;
        if !unchanged {
            return Err(Error::input(
                &args.model,
                "the model exists, so its classifier, analysis and weighting are fixed; drop \
                 those flags or learn into a new file",
            ));
        }
        let learner = Learner {
            vocabulary: GrowingVocabulary::from_fitted(&model.vectorizer)?,
            nb: OnlineNb::from_batch(nb),
            labels: std::mem::take(&mut model.labels),
            info: model.info,
        };
        Ok((learner, true))
    }

    fn create(args: &LearnArgs) -> Result<Self> {
        let choice = args.classifier.unwrap_or(ClassifierChoice::Mnb);
        let kind = choice.kind().ok_or_else(|| {
            Error::Config(
                "learn trains naive Bayes (mnb, cnb, bnb); train an SVM or k-NN with `train`"
                    .into(),
            )
        })?;
        let analyzer = args.analysis.config_over(&choice.analysis())?;
        let defaults = VectorizerConfig {
            min_df: DfBound::Count(1),
            ..choice.vectorizer()
        };
        let config = args.weighting.config_over(&defaults)?;
        if config.min_df != DfBound::Count(1)
            || config.max_df != DfBound::Fraction(1.0)
            || config.max_features.is_some()
        {
            return Err(Error::Config(
                "a stream keeps every term: --min-df, --max-df and --max-features are for train"
                    .into(),
            ));
        }
        let alpha = args.alpha.unwrap_or(choice.alpha());
        let nb = NaiveBayes::new(kind, alpha, Priors::Learned, 0, 0)?;
        Ok(Learner {
            vocabulary: GrowingVocabulary::new(analyzer, config)?,
            nb: OnlineNb::from_batch(&nb),
            labels: Vec::new(),
            info: TrainingInfo::now(Vec::new(), Vec::new()),
        })
    }

    /// The class id of `label`, adding it when new.
    fn class_of(&mut self, label: &str) -> u32 {
        let id = match self.labels.iter().position(|l| l == label) {
            Some(id) => id,
            None => {
                self.labels.push(label.to_string());
                self.info.docs_per_class.push(0);
                self.labels.len() - 1
            }
        };
        id as u32
    }

    /// The class the model predicts for a document before learning it, if it knows any class.
    fn predict(&mut self, item: &Analyzed, counted: &mut Counted) -> Option<u32> {
        if self.nb.classes() == 0 {
            return None;
        }
        self.vocabulary.transform(&item.terms, counted);
        let mut scores = vec![0.0; self.nb.classes()];
        self.nb
            .scores(&counted.row.indices, &counted.row.values, &mut scores);
        Some(argmax(scores.into_iter()) as u32)
    }

    fn learn(&mut self, item: &Analyzed, class: u32, counted: &mut Counted) -> Result<()> {
        self.vocabulary.learn(&item.terms, counted)?;
        self.nb.grow(self.vocabulary.len(), self.labels.len());
        self.nb
            .add(&counted.row.indices, &counted.row.values, class);
        self.info.docs_per_class[class as usize] += 1;
        Ok(())
    }

    /// Saves the model as it stands, atomically.
    fn save(&mut self, path: &Path) -> Result<()> {
        let (vectorizer, columns) = self.vocabulary.to_fitted()?;
        self.info.written = utc_now();
        let model = Model {
            vectorizer,
            labels: self.labels.clone(),
            classifier: Classifier::NaiveBayes(self.nb.to_batch(&columns)),
            info: self.info.clone(),
        };
        model.save(path)
    }
}

/// Runs the command.
pub fn run(args: LearnArgs) -> Result<Outcome> {
    if args.checkpoint_every == 0 || args.window == 0 {
        return Err(Error::Config(
            "--checkpoint-every and --window must be at least 1".into(),
        ));
    }
    let (mut learner, existed) = Learner::open(&args)?;
    learner.info.corpora.push("stdin".into());
    let mut read = args.input.options()?;
    read.format = Some(read.format.unwrap_or(InputFormat::Tsv));
    let pipeline = args.runtime.start()?;
    let analyzer = Analyzer::new(learner.vocabulary.analyzer().clone())?;
    let stages = analyzer.stages(read.max_doc_bytes, pipeline.is_fused());
    let mut log = ReadLog::new(read.max_doc_bytes);
    let mut record = Prequential::new(args.window);
    let (mut learned, mut unlabeled) = (0u64, 0u64);
    let mut counted = Counted::default();
    let stream = stream::stdin(&read, pipeline.batch_size)?;
    crate::pipeline::run_channel(&pipeline, stream.items.clone(), stages, |batch| {
        for item in batch {
            log.note(&item.entry);
            if !item.entry.is_document() {
                continue;
            }
            let Some(label) = item.entry.doc.label.as_deref() else {
                eprintln!(
                    "bowline: error: -:{}: no label; not learned",
                    item.entry.doc.id
                );
                unlabeled += 1;
                continue;
            };
            let predicted = args
                .prequential
                .then(|| learner.predict(&item, &mut counted));
            let class = learner.class_of(label);
            if let Some(predicted) = predicted {
                record.add(class, predicted);
                if record.seen() % args.window as u64 == 0 {
                    report(&record, &learner.labels);
                }
            }
            learner.learn(&item, class, &mut counted)?;
            learned += 1;
            if learned % args.checkpoint_every == 0 {
                learner.save(&args.model)?;
            }
        }
        Ok(())
    })?;
    if learned > 0 || existed {
        learner.save(&args.model)?;
    }
    if args.prequential && record.seen() % args.window as u64 != 0 {
        report(&record, &learner.labels);
    }
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
        eprintln!(
            "bowline: learned {learned} documents: {} classes, {} terms -> {}",
            learner.labels.len(),
            learner.vocabulary.len(),
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
