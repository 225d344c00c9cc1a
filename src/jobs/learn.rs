//! `learn`: a naive Bayes model learns labelled documents from a stream, one at a time,
//! creating the model when its file does not exist yet; and the rule by which a learner writes
//! its model file, which `learn` and `serve` share.
//!
//! The model is saved atomically at each checkpoint and at the end, so an interrupted run keeps
//! what it learned up to its last checkpoint. With prequential evaluation, each document is
//! classified before it is learned.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;

use super::settings::{AnalysisFlags, VocabularyFlags};
use super::Note;
use crate::analyze::Analyzer;
use crate::classifier::OnlineLearner;
use crate::error::{Error, Result};
use crate::eval::Prequential;
use crate::flow::{analysis_stages, Analyzed};
use crate::model::{Kind, Model, ModelLock};
use crate::pipeline::PipelineConfig;
use crate::vectorize::{DfBound, VectorizerConfig};

/// When a learner writes its model file: once `every` documents were learned since it last
/// did, or at the first learn once `interval` has passed since then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checkpoints {
    /// After this many learned documents.
    pub every: u64,
    /// Or once this long has passed since the last checkpoint, at the next learn.
    pub interval: Duration,
}

impl Checkpoints {
    /// A checkpoint every `documents` learned documents, and none for the time passed.
    pub fn every(documents: u64) -> Self {
        Checkpoints {
            every: documents,
            // No run lasts this long, so time alone never calls for a checkpoint.
            interval: Duration::MAX,
        }
    }

    /// Whether a checkpoint is due, with `unsaved` documents learned since the last one,
    /// `since` ago.
    pub fn due(&self, unsaved: u64, since: Duration) -> bool {
        unsaved >= self.every || since >= self.interval
    }
}

/// The settings a `learn` run was given, each `None` or `false` when not: a new model takes
/// them over its kind's defaults, and an existing model must already have them.
pub struct Given {
    /// The classifier of a new model: mnb, cnb or bnb [default: mnb].
    pub kind: Option<Kind>,
    /// Smoothing of a new model [default: the kind's, or 0.01 for mnb].
    pub alpha: Option<f64>,
    /// Start a multi-label model, every threshold at 0.
    pub multi_label: bool,
    /// A new multi-label model gives every document at least this many labels [default: 1].
    pub min_labels: Option<u32>,
    /// The analysis given.
    pub analysis: AnalysisFlags,
    /// The weighting and vocabulary given.
    pub vocabulary: VocabularyFlags,
}

/// A `learn` run.
pub struct Learn {
    /// The model to continue, or to create when the file does not exist.
    pub model: PathBuf,
    /// What the stream is called in the model's record of its corpora.
    pub corpus: String,
    /// The settings given.
    pub given: Given,
    /// When the model file is written before the end.
    pub checkpoints: Checkpoints,
    /// Classify each document before learning it.
    pub prequential: bool,
    /// Prequential figures cover the latest this many documents, and are told every this many.
    pub window: usize,
}

/// What a learn tells as it goes.
#[derive(Debug)]
pub enum Heard<'a> {
    /// A document without a label, by its id (a line number): it was not learned.
    Unlabeled(&'a str),
    /// The prequential figures so far, at the end of a window and at the end of the stream.
    Figures(&'a Prequential, &'a [String]),
}

/// What a learn did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Learned {
    /// Documents learned.
    pub learned: u64,
    /// Documents without a label, not learned.
    pub unlabeled: u64,
    /// The model's classes.
    pub classes: usize,
    /// The model's terms.
    pub terms: usize,
}

impl Learned {
    /// What was learned into the model at `path`, as the program reports it.
    pub fn summary(&self, path: &std::path::Path) -> String {
        crate::render::training::learned(self.learned, self.classes, self.terms, path)
    }
}

impl Learn {
    /// Takes the model's lock, held until the learn ends (a second writer waits), and opens the
    /// model, or starts one as the settings say.
    pub fn open(self) -> Result<Opened> {
        if self.checkpoints.every == 0 || self.window == 0 {
            return Err(Error::Config(
                "--checkpoint-every and --window must be at least 1".into(),
            ));
        }
        let lock = ModelLock::acquire(&self.model)?;
        let (mut learner, existed) = match self.model.exists() {
            true => (self.resume()?, true),
            false => (self.create()?, false),
        };
        learner.add_corpus(&self.corpus);
        Ok(Opened {
            learner,
            lock,
            existed,
            model: self.model.clone(),
            checkpoints: self.checkpoints,
            record: self.prequential.then(|| Prequential::new(self.window)),
        })
    }

    /// Continues the model in the file, whose classifier, analysis and weighting the settings
    /// must leave as they are.
    fn resume(&self) -> Result<OnlineLearner> {
        let model = Model::load(&self.model)?;
        let given = &self.given;
        let analyzer = model.vectorizer.analyzer();
        let config = model.vectorizer.config();
        let unchanged = given.kind.is_none()
            && given.alpha.is_none()
            && given.min_labels.is_none()
            && (!given.multi_label || model.classifier.multi_label().is_some())
            && given.analysis.config_over(analyzer)? == *analyzer
            && given.vocabulary.config_over(config)? == *config;
        let learner = OnlineLearner::resume(model, &self.model)?;
        if !unchanged {
            return Err(Error::input(
                &self.model,
                "the model exists, so its classifier, analysis and weighting are fixed; drop \
                 those flags or learn into a new file",
            ));
        }
        Ok(learner)
    }

    /// A new learner as the settings say.
    fn create(&self) -> Result<OnlineLearner> {
        let given = &self.given;
        let kind = given.kind.unwrap_or(Kind::Mnb);
        let analysis = given.analysis.config_over(&kind.default_analysis())?;
        // A stream has no corpus to prune by: every term seen is kept.
        let defaults = VectorizerConfig {
            min_df: DfBound::Count(1),
            ..kind.default_vectorizer()
        };
        let config = given.vocabulary.config_over(&defaults)?;
        let alpha = given.alpha.unwrap_or(kind.default_alpha().value());
        match given.multi_label {
            true => {
                let least = given.min_labels.unwrap_or(1);
                OnlineLearner::new_multi_label(kind, analysis, config, alpha, least)
            }
            false => OnlineLearner::new(kind, analysis, config, alpha),
        }
    }
}

/// A model opened to learn, under its lock.
pub struct Opened {
    learner: OnlineLearner,
    lock: ModelLock,
    /// Whether the model file existed: it is written at the end even if nothing was learned.
    existed: bool,
    /// The model file's path, for the error when a new model learned nothing.
    model: PathBuf,
    checkpoints: Checkpoints,
    /// With prequential evaluation, its record.
    record: Option<Prequential>,
}

impl Opened {
    /// Learns every labelled document of `items` (`None` or a closed channel ends them), read
    /// as `pipeline` says with documents truncated past `max_doc_bytes`; tells `note` of every
    /// entry and `heard` of documents not learned and of prequential figures. Writes the model
    /// at each checkpoint and at the end.
    pub fn learn(
        mut self,
        items: Receiver<Option<Analyzed>>,
        (pipeline, max_doc_bytes): (&PipelineConfig, u64),
        note: Note,
        heard: &mut dyn FnMut(Heard),
    ) -> Result<Learned> {
        let analyzer = Analyzer::new(self.learner.analysis().clone())?;
        let stages = analysis_stages(&analyzer, max_doc_bytes, pipeline.is_fused());
        let (mut learned, mut unlabeled) = (0u64, 0u64);
        let (mut unsaved, mut saved_at) = (0u64, Instant::now());
        crate::pipeline::run_channel(pipeline, items, stages, |batch| {
            for item in batch {
                note(&item.entry);
                if !item.entry.is_document() {
                    continue;
                }
                if !self.learn_one(&item, heard)? {
                    unlabeled += 1;
                    continue;
                }
                learned += 1;
                unsaved += 1;
                if self.checkpoints.due(unsaved, saved_at.elapsed()) {
                    self.learner.to_model()?.save_locked(&self.lock)?;
                    (unsaved, saved_at) = (0, Instant::now());
                }
            }
            Ok(())
        })?;
        if let Some(record) = &self.record {
            if !record.seen().is_multiple_of(record.window() as u64) {
                heard(Heard::Figures(record, self.learner.labels()));
            }
        }
        if learned == 0 && !self.existed {
            return Err(Error::Config(format!(
                "{}: no labelled document was learned, so no model was created",
                self.model.display()
            )));
        }
        self.learner.to_model()?.save_locked(&self.lock)?;
        Ok(Learned {
            learned,
            unlabeled,
            classes: self.learner.labels().len(),
            terms: self.learner.terms(),
        })
    }

    /// Tests (with prequential evaluation) and learns one document; false when it has no label.
    fn learn_one(&mut self, item: &Analyzed, heard: &mut dyn FnMut(Heard)) -> Result<bool> {
        let learner = &mut self.learner;
        let Some(label) = item.entry.doc.label.as_deref() else {
            heard(Heard::Unlabeled(&item.entry.doc.id));
            return Ok(false);
        };
        let predicted = self
            .record
            .is_some()
            .then(|| learner.predict_terms(&item.terms));
        let class = learner.class_of(label);
        if let (Some(record), Some(predicted)) = (&mut self.record, predicted) {
            record.add(class, predicted);
            if record.seen().is_multiple_of(record.window() as u64) {
                heard(Heard::Figures(record, learner.labels()));
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
        Ok(true)
    }
}
