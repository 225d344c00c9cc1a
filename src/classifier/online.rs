//! Online learning: a naive Bayes model learns labelled documents one at a time, as a stream
//! brings them.
//!
//! Every document is counted exactly, so the counts equal those of training on the whole stream.
//! A stream cannot prune rare terms (a term's first occurrence must be counted before anyone
//! knows it will recur), so a learner keeps every term: min-df 1. With an idf weighting each
//! document is weighted with the idf of the documents learned so far, itself included, as
//! [`TextClassifier::update`](super::TextClassifier::update) does.

use std::path::Path;

use super::class_id;
use crate::analyze::{Analyzer, AnalyzerConfig, Terms};
use crate::error::{Error, Result};
use crate::model::decision::argmax;
use crate::model::multilabel::{BinaryNb, MultiLabel, MultiLabelClassifier, PerLabel};
use crate::model::{utc_now, Classifier, Kind, Model, NaiveBayes, OnlineNb, Priors, TrainingInfo};
use crate::vectorize::{Counted, DfBound, GrowingVocabulary, VectorizerConfig, WeighTable};

/// A naive Bayes model that learns one document at a time: its growing vocabulary and counts,
/// and the model's other parts.
#[derive(Debug)]
pub struct OnlineLearner {
    vocabulary: GrowingVocabulary,
    /// Per class; for a multi-label model, per label: the documents that have it.
    nb: OnlineNb,
    /// A multi-label model's counts over every document and its decision.
    multi: Option<(OnlineNb, MultiLabel)>,
    labels: Vec<String>,
    info: TrainingInfo,
    analyzer: Analyzer,
    counted: Counted,
}

impl OnlineLearner {
    /// A new, empty model of naive Bayes `kind` with smoothing `alpha`. The vectorizer must keep
    /// every term (min-df 1, max-df 1.0, no limit on features): a stream cannot prune.
    pub fn new(
        kind: Kind,
        analysis: AnalyzerConfig,
        vectorizer: VectorizerConfig,
        alpha: f64,
    ) -> Result<Self> {
        Self::start(kind, analysis, vectorizer, alpha, None)
    }

    /// A new, empty multi-label model (binary relevance, as
    /// [`Builder::fit_multi_source`](super::Builder::fit_multi_source) trains naive Bayes),
    /// giving each document at least `min_labels` labels. Its thresholds stay at the natural
    /// boundary, 0, since a stream holds no documents out to choose them: the model equals
    /// training on the documents seen so far with no threshold folds.
    pub(crate) fn new_multi_label(
        kind: Kind,
        analysis: AnalyzerConfig,
        vectorizer: VectorizerConfig,
        alpha: f64,
        min_labels: u32,
    ) -> Result<Self> {
        Self::start(kind, analysis, vectorizer, alpha, Some(min_labels))
    }

    fn start(
        kind: Kind,
        analysis: AnalyzerConfig,
        mut vectorizer: VectorizerConfig,
        alpha: f64,
        multi_label: Option<u32>,
    ) -> Result<Self> {
        // Naive Bayes counts every hashed occurrence as +1 (see `Kind::hashes_signed`).
        let signed = kind.hashes_signed();
        vectorizer.hashing = vectorizer.hashing.map(|h| h.with_sign(signed));
        let nb_kind = kind.naive_bayes().ok_or_else(|| {
            Error::Config(
                "learn trains naive Bayes (mnb, cnb, bnb); train an SVM or k-NN with `train`"
                    .into(),
            )
        })?;
        if vectorizer.min_df != DfBound::Count(1)
            || vectorizer.max_df != DfBound::Fraction(1.0)
            || vectorizer.max_features.is_some()
        {
            return Err(Error::Config(
                "a stream keeps every term: --min-df, --max-df and --max-features are for train"
                    .into(),
            ));
        }
        let mut nb = NaiveBayes::new(nb_kind, alpha, Priors::Learned, 0, 0)?;
        // A multi-label model also counts every document as one class (see `BinaryNb`).
        let mut all = NaiveBayes::new(nb_kind, alpha, Priors::Learned, 1, 0)?;
        // Hashed terms fall in 2^bits columns, which smoothing counts all along.
        let space = vectorizer.hashing.map_or(0, |hashing| hashing.columns());
        nb.set_space(space);
        all.set_space(space);
        let multi =
            multi_label.map(|least| (OnlineNb::from_batch(&all), MultiLabel::untuned(0, least)));
        Ok(OnlineLearner {
            analyzer: Analyzer::new(analysis.clone())?,
            vocabulary: GrowingVocabulary::new(analysis, vectorizer)?,
            nb: OnlineNb::from_batch(&nb),
            multi,
            labels: Vec::new(),
            info: TrainingInfo::now(Vec::new(), Vec::new()),
            counted: Counted::default(),
        })
    }

    /// Continues a naive Bayes model; `path` names it in errors.
    pub fn resume(mut model: Model, path: &Path) -> Result<Self> {
        let Some((positives, multi)) = model.classifier.online_counts() else {
            return Err(not_learnable(&model, path));
        };
        let nb = OnlineNb::from_batch(positives);
        let multi = multi.map(|(all, decision)| (OnlineNb::from_batch(all), decision.clone()));
        Ok(OnlineLearner {
            analyzer: Analyzer::new(model.vectorizer.analyzer().clone())?,
            vocabulary: GrowingVocabulary::from_fitted(&model.vectorizer)?,
            nb,
            multi,
            labels: std::mem::take(&mut model.labels),
            info: model.info,
            counted: Counted::default(),
        })
    }

    /// Whether the model is multi-label: a document may have several labels.
    pub fn is_multi_label(&self) -> bool {
        self.multi.is_some()
    }

    /// The analysis documents go through before they are learned.
    pub fn analysis(&self) -> &AnalyzerConfig {
        self.vocabulary.analyzer()
    }

    /// The classes seen so far.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// The terms seen so far; for hashed terms, the columns they reached.
    pub fn terms(&self) -> usize {
        self.vocabulary.len()
    }

    /// Records that the documents to come are from `corpus` (a path, or `stdin`).
    pub(crate) fn add_corpus(&mut self, corpus: &str) {
        self.info.corpora.push(corpus.to_string());
    }

    /// The class id of `label`, adding the class when new.
    pub(crate) fn class_of(&mut self, label: &str) -> u32 {
        let id = class_id(&mut self.labels, label);
        self.info.docs_per_class.resize(self.labels.len(), 0);
        id
    }

    /// The class the model predicts for an analyzed document before learning it, if it knows
    /// any class yet. For a multi-label model, the label whose documents' counts score the
    /// document highest: its top label, for the prequential record.
    pub(crate) fn predict_terms(&mut self, terms: &Terms) -> Option<u32> {
        if self.nb.classes() == 0 {
            return None;
        }
        self.vocabulary.transform(terms, &mut self.counted);
        let mut scores = vec![0.0; self.nb.classes()];
        let row = &self.counted.row;
        self.nb.scores(&row.indices, &row.values, &mut scores);
        Some(argmax(scores.into_iter()) as u32)
    }

    /// Fills `out` with the class probabilities of an analyzed document (in the order of
    /// [`labels`](OnlineLearner::labels)): the scores, as [`predict_terms`](Self::predict_terms)
    /// ranks them, turned into probabilities by a softmax. Empty when no class is known yet.
    pub(crate) fn probabilities_terms(&mut self, terms: &Terms, out: &mut Vec<f64>) {
        out.clear();
        if self.nb.classes() == 0 {
            return;
        }
        self.vocabulary.transform(terms, &mut self.counted);
        self.probabilities_of(&self.counted, out);
    }

    /// The id of `term` in the model's vocabulary, when the model knows it and its terms are
    /// not hashed: a document counted in these ids is what
    /// [`probabilities_counted`](Self::probabilities_counted) takes.
    pub(crate) fn term_id(&self, term: &str) -> Option<u32> {
        self.vocabulary.term_id(term)
    }

    /// Whether the model hashes its terms, so that [`term_id`](Self::term_id) knows none.
    pub(crate) fn hashes_terms(&self) -> bool {
        self.vocabulary.is_hashed()
    }

    /// The model's weighting as it stands, for
    /// [`probabilities_counted`](Self::probabilities_counted) to score documents with until the
    /// model learns again.
    pub(crate) fn weigh_table(&self) -> WeighTable {
        self.vocabulary.weigh_table()
    }

    /// [`probabilities_terms`](Self::probabilities_terms) of a document already counted:
    /// `counted` holds the counts of its known terms by [`term_id`](Self::term_id) (ids
    /// increasing) and its length the number of terms it has in all; it is weighted in place
    /// with `table`, the model's [`weigh_table`](Self::weigh_table) since it last learned.
    /// The probabilities are the same, without looking a term up by its text, and documents
    /// may be scored so on several threads at once.
    pub(crate) fn probabilities_counted(
        &self,
        table: &WeighTable,
        counted: &mut Counted,
        out: &mut Vec<f64>,
    ) {
        out.clear();
        if self.nb.classes() == 0 {
            return;
        }
        self.vocabulary.weigh_tabled(counted, table);
        self.probabilities_of(counted, out);
    }

    /// The probabilities of the weighted row `counted` into `out` (empty).
    fn probabilities_of(&self, counted: &Counted, out: &mut Vec<f64>) {
        out.resize(self.nb.classes(), 0.0);
        let row = &counted.row;
        self.nb.scores(&row.indices, &row.values, out);
        let top = out.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        out.iter_mut().for_each(|s| *s = (*s - top).exp());
        let sum: f64 = out.iter().sum();
        out.iter_mut().for_each(|p| *p /= sum);
    }

    /// Learns an analyzed document of class `class` (from [`OnlineLearner::class_of`]).
    pub(crate) fn learn_terms(&mut self, terms: &Terms, class: u32) -> Result<()> {
        if self.multi.is_some() {
            return self.learn_labels(terms, &[class]);
        }
        self.vocabulary.learn(terms, &mut self.counted)?;
        self.nb.grow(self.vocabulary.columns(), self.labels.len());
        let row = &self.counted.row;
        self.nb.add(&row.indices, &row.values, class);
        self.info.docs_per_class[class as usize] += 1;
        Ok(())
    }

    /// Learns an analyzed document with labels `classes` (from [`OnlineLearner::class_of`]),
    /// into a multi-label model: it counts in each of its labels and in the total, as
    /// [`BinaryNb::add`](crate::model::multilabel::BinaryNb::add) counts it.
    pub(crate) fn learn_labels(&mut self, terms: &Terms, classes: &[u32]) -> Result<()> {
        let Some((all, _)) = &mut self.multi else {
            return Err(Error::Config(
                "a document with several labels needs a multi-label model; start one with \
                 `learn --multi-label` or `train --multi-label`"
                    .into(),
            ));
        };
        self.vocabulary.learn(terms, &mut self.counted)?;
        self.nb.grow(self.vocabulary.columns(), self.labels.len());
        all.grow(self.vocabulary.columns(), 1);
        let row = &self.counted.row;
        let mut distinct = classes.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        for &class in &distinct {
            self.nb.add(&row.indices, &row.values, class);
            self.info.docs_per_class[class as usize] += 1;
        }
        all.add(&row.indices, &row.values, 0);
        Ok(())
    }

    /// Analyzes `text` and learns it as class `label`.
    pub fn learn(&mut self, label: &str, text: &str) -> Result<()> {
        let mut terms = Terms::new();
        self.analyzer.worker().analyze(text, &mut terms);
        let class = self.class_of(label);
        self.learn_terms(&terms, class)
    }

    /// The model as it stands.
    pub fn to_model(&mut self) -> Result<Model> {
        let (vectorizer, columns) = self.vocabulary.build_fitted()?;
        self.info.written = utc_now();
        let positives = self.nb.to_batch(&columns);
        let classifier = match &self.multi {
            None => Classifier::NaiveBayes(positives),
            Some((all, decision)) => {
                let scorer = BinaryNb::from_counts(positives, all.to_batch(&columns))?;
                let mut decision = decision.clone();
                decision.thresholds.resize(self.labels.len(), 0.0);
                Classifier::MultiLabel(Box::new(MultiLabelClassifier {
                    scorer: PerLabel::NaiveBayes(Box::new(scorer)),
                    decision,
                }))
            }
        };
        Ok(Model {
            vectorizer,
            labels: self.labels.clone(),
            classifier,
            info: self.info.clone(),
        })
    }

    /// Saves the model as it stands, atomically.
    pub fn save(&mut self, path: &Path) -> Result<()> {
        self.to_model()?.save(path)
    }
}

/// Why `learn` cannot continue the model at `path`.
fn not_learnable(model: &Model, path: &Path) -> Error {
    let name = model.classifier.name();
    let kind = if model.classifier.multi_label().is_some() {
        format!("multi-label {name}")
    } else {
        name.to_string()
    };
    let message = format!(
        "learn works on naive Bayes models, and this is a {kind} model; teach it more \
         documents with `update`"
    );
    Error::input(path, message)
}
