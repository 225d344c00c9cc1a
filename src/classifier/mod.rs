//! The facade: a text classifier that is fitted, asked for predictions, updated, saved and
//! loaded, as one value.
//!
//! [`TextClassifier`] wraps a [`Model`] (vectorizer, labels, classifier, provenance) with the
//! analyzer its documents go through. A [`Builder`] holds what is chosen before training (the
//! [`Kind`], analysis, weighting and the trainer's parameters) and does the work that trains:
//! [`Builder::fit`], [`Builder::cross_validate`] and [`Builder::select`]. Each of the command
//! line's commands is one of these calls; the other modules are the parts they are made of.
//!
//! ```
//! use bowline::{Kind, TextClassifier};
//!
//! let pairs = [
//!     ("spam", "WIN a free prize now"),
//!     ("spam", "free prize, call now"),
//!     ("ham", "lunch at noon?"),
//!     ("ham", "see you at lunch"),
//! ];
//! let model = TextClassifier::builder(Kind::Mnb).fit(pairs)?;
//! assert_eq!(model.predict("a free prize")?.label, "spam");
//! # Ok::<(), bowline::Error>(())
//! ```

mod cv;
mod evaluate;
mod explain;
mod fit;
mod labelled;
mod merge;
mod multilabel;
mod online;
mod predict;
mod rank;
mod select;
#[cfg(feature = "cluster")]
mod shards;
mod tune;
mod twice;
mod update;

use std::path::Path;

pub use cv::{CvReport, FoldResult, Spread};
pub use evaluate::Evaluation;
#[cfg(feature = "cluster")]
pub(crate) use evaluate::Tally;
pub use explain::{Explanation, TermContribution};
pub use fit::Fitted;
pub(crate) use labelled::Labelled;
pub use multilabel::{MultiLabelOptions, ScoredLabel};
pub use online::OnlineLearner;
pub use predict::{Prediction, Predictor};
pub(crate) use rank::{rank_terms, RankOptions};
pub use rank::{Listing, Ranked};
pub use select::{SelectOptions, SelectionOutcome};
pub(crate) use tune::SIGNIFICANT;
pub use tune::{RoundTime, Setting, Trial, TuneOptions, TuneOutcome};
pub use update::Updated;

use crate::analyze::{Analyzer, AnalyzerConfig};
use crate::corpus::Entry;
use crate::error::{Error, Result};
use crate::model::{ApproxParams, KernelSvmParams, Kind, Model, Trainer};
use crate::pipeline::PipelineConfig;
use crate::vectorize::{Hashing, VectorizerConfig};

/// How a corpus is run through the pipeline: its threads and batches, and who hears of each
/// entry read (to report warnings and count), in input order.
pub struct Reading<'a> {
    /// Threads, layout and batch size.
    pub pipeline: PipelineConfig,
    on_entry: Box<dyn FnMut(&Entry) + 'a>,
}

impl<'a> Reading<'a> {
    /// Reading with `pipeline`, telling no one of the entries.
    pub fn new(pipeline: PipelineConfig) -> Self {
        Reading {
            pipeline,
            on_entry: Box::new(|_| {}),
        }
    }

    /// The same reading, with `on_entry` called for every entry read.
    pub fn on_entry(mut self, on_entry: impl FnMut(&Entry) + 'a) -> Self {
        self.on_entry = Box::new(on_entry);
        self
    }

    /// Tells of one entry.
    pub(crate) fn note(&mut self, entry: &Entry) {
        (self.on_entry)(entry);
    }

    /// The pipeline settings and the callback apart, for a run that reads the one while it
    /// calls the other.
    pub(crate) fn parts(&mut self) -> (&PipelineConfig, &mut dyn FnMut(&Entry)) {
        (&self.pipeline, &mut *self.on_entry)
    }
}

impl Default for Reading<'_> {
    /// The default pipeline (fused analysis on every core), telling no one of the entries.
    fn default() -> Self {
        Reading::new(PipelineConfig::default())
    }
}

/// A trained text classifier: a model and the analyzer its documents go through.
#[derive(Debug, Clone)]
pub struct TextClassifier {
    model: Model,
    analyzer: Analyzer,
}

impl TextClassifier {
    /// A builder for a classifier of `kind`, with the kind's default analysis, weighting and
    /// parameters.
    pub fn builder(kind: Kind) -> Builder {
        Builder::new(kind)
    }

    /// Wraps a model, checking its analysis.
    pub fn from_model(model: Model) -> Result<Self> {
        let analyzer = Analyzer::new(model.vectorizer.analyzer().clone())?;
        Ok(TextClassifier { model, analyzer })
    }

    /// Reads a model file written by [`TextClassifier::save`] or by `bowline train`.
    pub fn load(path: impl AsRef<Path>) -> Result<Self> {
        Self::from_model(Model::load(path.as_ref())?)
    }

    /// Writes the model file atomically: a crash never leaves a broken file under `path`.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        self.model.save(path.as_ref())
    }

    /// The model: vectorizer, labels, classifier and provenance.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The model, for changing or saving it elsewhere.
    pub fn into_model(self) -> Model {
        self.model
    }

    /// The analyzer documents go through before the vectorizer.
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// The class names; class `c` of the classifier's scores is `labels()[c]`.
    pub fn labels(&self) -> &[String] {
        &self.model.labels
    }
}

/// What is chosen before training: the kind, analysis, weighting and the trainer's parameters.
/// Every setting starts at the kind's default.
#[derive(Debug, Clone)]
pub struct Builder {
    analysis: AnalyzerConfig,
    vectorizer: VectorizerConfig,
    trainer: Trainer,
}

impl Builder {
    /// The defaults of `kind`.
    pub fn new(kind: Kind) -> Self {
        let vectorizer = kind.default_vectorizer();
        Builder {
            analysis: kind.default_analysis(),
            trainer: kind.default_trainer(vectorizer.weighting),
            vectorizer,
        }
    }

    /// Analyzes documents with `analysis` instead of the kind's default.
    pub fn analysis(mut self, analysis: AnalyzerConfig) -> Self {
        self.analysis = analysis;
        self
    }

    /// Prunes and weighs terms with `vectorizer` instead of the kind's default. Hashed terms
    /// carry a sign or not as the kind needs (the SVM's do, naive Bayes' and k-NN's count +1),
    /// whatever `vectorizer` says; k-NN, which weighs its rows itself, keeps n-gram weight 1.
    pub fn vectorizer(mut self, vectorizer: VectorizerConfig) -> Self {
        self.trainer = self.trainer.with_weighting(vectorizer.weighting);
        self.vectorizer = vectorizer;
        self.fitted_to_kind()
    }

    /// Trains with `trainer` (a kind and its parameters) instead of the kind's defaults.
    pub fn trainer(mut self, trainer: Trainer) -> Self {
        self.trainer = trainer.with_weighting(self.vectorizer.weighting);
        self.fitted_to_kind()
    }

    /// Trains an exact kernel SVM with `params` (kernel, C, tolerance, cache) instead of the
    /// linear SVM, calibrated if the SVM was to be: the rows are weighed as for the linear SVM.
    /// Only the SVM has a kernel; another kind is refused, as are parameters out of range.
    pub fn kernel(mut self, params: KernelSvmParams) -> Result<Self> {
        params.validate()?;
        self.trainer = self
            .trainer
            .with_kernel(params)
            .ok_or_else(|| Error::Config("a kernel is for the SVM (--classifier svm)".into()))?;
        Ok(self)
    }

    /// Trains the linear SVM over an approximation of the RBF kernel (`--approx`): a feature
    /// map fitted on the weighted training rows with the SVM's seed, saved in the model. Only
    /// the linear SVM takes one; another kind is refused, as are parameters out of range.
    pub fn approx(mut self, params: ApproxParams) -> Result<Self> {
        params.validate()?;
        self.trainer = self.trainer.with_approx(params).ok_or_else(|| {
            Error::Config("--approx is for the linear SVM (--classifier svm)".into())
        })?;
        Ok(self)
    }

    /// Hashes terms into 2^`bits` columns instead of learning a vocabulary (`--hash-bits`):
    /// the feature space then has a fixed size whatever the corpus. `bits` must lie in 4..=28,
    /// and `max_features` must be unset. The n-gram weight becomes 1.
    pub fn hash_bits(mut self, bits: u32) -> Result<Self> {
        self.vectorizer.hashing = Some(Hashing::new(bits, self.kind().hashes_signed())?);
        // A hashed column mixes words and n-grams, so they are weighed alike.
        self.vectorizer.ngram_weight = 1.0;
        self.vectorizer.validate()?;
        Ok(self)
    }

    /// The vectorizer as the kind needs it: the hash's sign, and for k-NN n-gram weight 1.
    fn fitted_to_kind(mut self) -> Self {
        let signed = self.kind().hashes_signed();
        self.vectorizer.hashing = self.vectorizer.hashing.map(|h| h.with_sign(signed));
        // k-NN weighs its rows itself, from their counts.
        if self.kind() == Kind::Knn {
            self.vectorizer.ngram_weight = 1.0;
        }
        self
    }

    /// The kind it builds.
    pub fn kind(&self) -> Kind {
        self.trainer.kind()
    }

    /// The analysis it will use.
    pub fn analysis_config(&self) -> &AnalyzerConfig {
        &self.analysis
    }

    /// The weighting and pruning it will use.
    pub fn vectorizer_config(&self) -> &VectorizerConfig {
        &self.vectorizer
    }
}

/// The class id of `label` among `labels`, adding it at the end when new: how a model that
/// learns more documents meets a class it has not seen.
pub(crate) fn class_id(labels: &mut Vec<String>, label: &str) -> u32 {
    let id = match labels.iter().position(|l| l == label) {
        Some(id) => id,
        None => {
            labels.push(label.to_string());
            labels.len() - 1
        }
    };
    id as u32
}
