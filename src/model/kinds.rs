//! The classifier kinds, and the one place that knows them: their names and defaults, how
//! each is trained ([`Trainer`]) and the trained classifier ([`Classifier`]) that scores
//! documents.

use serde::{Deserialize, Serialize};

use super::explain::Attribution;
use super::multilabel::{BinaryNb, LabelSets, MultiLabel, MultiLabelClassifier, PerLabel};
use super::naive_bayes::loo::sampled;
use super::{
    normalize_log_probabilities, normalize_votes, ColumnChange, Knn, KnnParams, LinearSvm,
    NaiveBayes, NbKind, Priors, Smoothing, SvmParams,
};
use crate::analyze::AnalyzerConfig;
use crate::error::{Error, Result};
use crate::vectorize::{
    count_part, weigh_part, DfBound, FittedCorpus, FittedPart, FittedVectorizer, Matrix, Norm,
    VectorizerConfig, Weighting,
};

/// The kinds of classifier: the one list of them. Every other place that depends on the kind
/// asks one of the methods here, or matches [`Classifier`] or [`Trainer`] in this file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Multinomial naive Bayes.
    Mnb,
    /// Complement naive Bayes (Rennie et al. 2003, normalized weights).
    Cnb,
    /// Bernoulli naive Bayes.
    Bnb,
    /// Linear SVM, one-vs-rest.
    Svm,
    /// k-nearest neighbours, similarity-weighted vote.
    Knn,
}

impl Kind {
    /// The short name: mnb, cnb, bnb, svm or knn.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Mnb => "mnb",
            Kind::Cnb => "cnb",
            Kind::Bnb => "bnb",
            Kind::Svm => "svm",
            Kind::Knn => "knn",
        }
    }

    /// The kind's trainer with its default parameters; `weighting` is the vectorizer's, which
    /// k-NN applies to its training counts itself.
    pub fn default_trainer(self, weighting: Weighting) -> Trainer {
        self.build(&Params::default(), weighting)
    }

    /// The kind's trainer with `params` (each kind reads its own), validated; `weighting` is the
    /// vectorizer's, which k-NN applies to its training counts itself.
    pub fn trainer(self, params: &Params, weighting: Weighting) -> Result<Trainer> {
        let trainer = self.build(params, weighting);
        match &trainer {
            Trainer::NaiveBayes(kind, smoothing, priors) => {
                if *smoothing == Smoothing::Auto && *kind != NbKind::Multinomial {
                    return Err(Error::Config(
                        "--alpha auto is for mnb; give cnb and bnb a number".into(),
                    ));
                }
                NaiveBayes::new(*kind, smoothing.value(), priors.clone(), 1, 0)?;
            }
            Trainer::Svm(svm, _) => svm.validate()?,
            Trainer::Knn(knn, _) => knn.validate()?,
        }
        Ok(trainer)
    }

    fn build(self, params: &Params, weighting: Weighting) -> Trainer {
        match self.naive_bayes() {
            Some(nb) => {
                let alpha = params.alpha.unwrap_or(self.default_alpha());
                Trainer::NaiveBayes(nb, alpha, params.priors.clone())
            }
            None if self == Kind::Knn => Trainer::Knn(params.knn, weighting),
            None => Trainer::Svm(params.svm, params.calibrate),
        }
    }

    /// Each classifier's default analysis. The defaults were chosen by 5-fold cross-validation
    /// on the training data of five corpora of different kinds (topics, short messages, news,
    /// two sets of short opinions), each candidate ranked per corpus and the best mean rank
    /// taken (`benches/defaults.py`; the table is in `benches/defaults.md`); no test split was
    /// read. Every kind but Bernoulli NB came out best with the library's default analysis
    /// (no stop words, English stemming, words and word pairs); Bernoulli NB ranks best without
    /// stemming.
    pub fn default_analysis(self) -> AnalyzerConfig {
        match self {
            Kind::Bnb => AnalyzerConfig {
                stemmer: None,
                ..AnalyzerConfig::default()
            },
            _ => AnalyzerConfig::default(),
        }
    }

    /// Each classifier's default weighting and pruning, chosen likewise: sublinear TF-IDF with
    /// L2 rows and every term kept, but for Bernoulli NB, which ranks best without the terms
    /// seen in one document (it looks only at presence, where rare terms are noise). The SVM
    /// weighs word pairs half their TF-IDF: at 1 they outweighed the words of long documents
    /// (Reuters), and of 1, 0.7, 0.5 and 0.3, 0.5 ranks best over the five corpora.
    pub fn default_vectorizer(self) -> VectorizerConfig {
        let min_df = match self {
            Kind::Bnb => 2,
            Kind::Mnb | Kind::Cnb | Kind::Svm | Kind::Knn => 1,
        };
        let ngram_weight = match self {
            Kind::Svm => 0.5,
            Kind::Mnb | Kind::Cnb | Kind::Bnb | Kind::Knn => 1.0,
        };
        VectorizerConfig {
            min_df: DfBound::Count(min_df),
            ngram_weight,
            ..VectorizerConfig::default()
        }
    }

    /// Whether hashed terms (`--hash-bits`) carry their hash's sign, as scikit-learn's
    /// `HashingVectorizer(alternate_sign=True)`: for the SVM, whose weights may be negative and
    /// which gains from collisions cancelling out. Naive Bayes needs counts that are not
    /// negative, and k-NN's BM25 weights assume them, so they count every occurrence as +1.
    pub fn hashes_signed(self) -> bool {
        matches!(self, Kind::Svm)
    }

    /// Default naive Bayes smoothing, chosen likewise: multinomial NB chooses its own by
    /// leave-one-out on the training documents; 0 for the kinds that are not naive Bayes.
    pub fn default_alpha(self) -> Smoothing {
        match self {
            Kind::Mnb => Smoothing::Auto,
            Kind::Cnb => Smoothing::Fixed(0.1),
            Kind::Bnb => Smoothing::Fixed(0.001),
            Kind::Svm | Kind::Knn => Smoothing::Fixed(0.0),
        }
    }

    /// The naive Bayes event model of a naive Bayes kind.
    pub fn naive_bayes(self) -> Option<NbKind> {
        match self {
            Kind::Mnb => Some(NbKind::Multinomial),
            Kind::Cnb => Some(NbKind::Complement),
            Kind::Bnb => Some(NbKind::Bernoulli),
            Kind::Svm | Kind::Knn => None,
        }
    }
}

/// Every kind's parameters, each at its default until set; a kind reads only its own.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Params {
    /// Naive Bayes smoothing; `None` takes the kind's default.
    pub alpha: Option<Smoothing>,
    /// Naive Bayes class priors.
    pub priors: Priors,
    /// The SVM's parameters.
    pub svm: SvmParams,
    /// The SVM: fit Platt scaling on a held-out fifth of the training data, so that its
    /// probabilities are calibrated (trains twice).
    pub calibrate: bool,
    /// k-NN's parameters.
    pub knn: KnnParams,
}

/// How to train, validated.
#[derive(Debug, Clone, PartialEq)]
pub enum Trainer {
    /// Naive Bayes of a kind, with smoothing and priors.
    NaiveBayes(NbKind, Smoothing, Priors),
    /// A linear SVM, calibrated or not.
    Svm(SvmParams, bool),
    /// k-nearest neighbours, with the vectorizer's weighting, which it applies itself.
    Knn(KnnParams, Weighting),
}

impl Trainer {
    /// Trains on the rows of `x` with class ids `ids` out of `classes`.
    pub fn fit(&self, x: &Matrix, ids: &[u32], classes: usize) -> Result<Classifier> {
        Ok(match self {
            Trainer::NaiveBayes(kind, smoothing, priors) => {
                let alpha = smoothing.value();
                let mut nb = NaiveBayes::new(*kind, alpha, priors.clone(), classes, x.cols())?;
                nb.add(x, ids);
                if *smoothing == Smoothing::Auto {
                    let rows: Vec<usize> = sampled(ids.len()).collect();
                    nb.set_alpha(nb.choose_alpha(x, ids, &rows)?.alpha);
                }
                Classifier::NaiveBayes(nb)
            }
            Trainer::Svm(params, calibrate) => {
                let train = if *calibrate {
                    LinearSvm::train_calibrated
                } else {
                    LinearSvm::train
                };
                Classifier::Svm(train(x, ids, classes, *params)?)
            }
            Trainer::Knn(params, weighting) => {
                Classifier::Knn(Knn::train(x, ids, classes, *weighting, *params)?)
            }
        })
    }

    /// Trains a binary problem per label on rows with label sets `sets` out of `labels`
    /// labels (binary relevance), with every threshold at the natural boundary and at least
    /// `min_labels` labels per document. k-NN and complement naive Bayes have no such form.
    pub fn fit_sets(
        &self,
        x: &Matrix,
        sets: &LabelSets,
        labels: usize,
        min_labels: u32,
    ) -> Result<Classifier> {
        Ok(Classifier::MultiLabel(Box::new(MultiLabelClassifier {
            scorer: self.fit_per_label(x, sets, labels)?,
            decision: MultiLabel::untuned(labels, min_labels),
        })))
    }

    /// The binary scorers of [`Trainer::fit_sets`], without a decision on their scores.
    pub fn fit_per_label(&self, x: &Matrix, sets: &LabelSets, labels: usize) -> Result<PerLabel> {
        Ok(match self {
            Trainer::NaiveBayes(kind, smoothing, _) => {
                let mut nb = BinaryNb::new(*kind, smoothing.value(), labels, x.cols())?;
                nb.add(x, sets);
                PerLabel::NaiveBayes(Box::new(nb))
            }
            Trainer::Svm(params, _) => {
                PerLabel::Svm(LinearSvm::train_sets(x, sets, labels, *params)?)
            }
            Trainer::Knn(..) => {
                return Err(Error::Config(
                    "k-NN has no multi-label form; use svm, mnb, cnb or bnb".into(),
                ))
            }
        })
    }

    /// The kind this trainer trains.
    pub fn kind(&self) -> Kind {
        match self {
            Trainer::NaiveBayes(NbKind::Multinomial, ..) => Kind::Mnb,
            Trainer::NaiveBayes(NbKind::Complement, ..) => Kind::Cnb,
            Trainer::NaiveBayes(NbKind::Bernoulli, ..) => Kind::Bnb,
            Trainer::Svm(..) => Kind::Svm,
            Trainer::Knn(..) => Kind::Knn,
        }
    }

    /// The same trainer, with k-NN applying `weighting` to its training counts (the other kinds
    /// are trained on rows already weighted).
    pub fn with_weighting(self, weighting: Weighting) -> Self {
        match self {
            Trainer::Knn(params, _) => Trainer::Knn(params, weighting),
            other => other,
        }
    }

    /// The same trainer, with multinomial NB's smoothing fixed at [`Smoothing::FALLBACK`] if it
    /// was to be chosen: for a caller that needs one smoothing throughout.
    pub fn with_fixed_smoothing(self) -> Self {
        match self {
            Trainer::NaiveBayes(kind, Smoothing::Auto, priors) => {
                Trainer::NaiveBayes(kind, Smoothing::Fixed(Smoothing::FALLBACK), priors)
            }
            other => other,
        }
    }

    /// The naive Bayes event model and smoothing of a naive Bayes trainer.
    pub fn naive_bayes(&self) -> Option<(NbKind, Smoothing)> {
        match self {
            Trainer::NaiveBayes(kind, alpha, _) => Some((*kind, *alpha)),
            _ => None,
        }
    }

    /// Whether [`Trainer::fit`] takes raw counts rather than weighted rows: k-NN keeps its
    /// training documents as counts and weighs them itself, so that an update can weigh them
    /// again with the new document frequencies.
    pub fn learns_counts(&self) -> bool {
        matches!(self, Trainer::Knn(..))
    }

    /// Rows `rows` of `counted` in `part`'s columns, as [`Trainer::fit`] takes them.
    pub(crate) fn rows(
        &self,
        counted: &FittedCorpus,
        part: &FittedPart,
        rows: &[usize],
    ) -> Result<Matrix> {
        if self.learns_counts() {
            count_part(counted, part, rows)
        } else {
            weigh_part(counted, part, rows)
        }
    }
}

/// A trained classifier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Classifier {
    /// One of the naive Bayes models, as counts.
    NaiveBayes(NaiveBayes),
    /// A one-vs-rest linear SVM.
    Svm(LinearSvm),
    /// A classifier trained on some of the vectorizer's columns (by `bowline select`): rows are
    /// weighted over the whole vocabulary, as during selection, then cut to those columns.
    Selected(Selected),
    /// k-nearest neighbours over the training documents.
    Knn(Knn),
    /// Binary relevance for multi-label data: a score and a threshold per label. (Last, so that
    /// the variants before it keep their numbers in the model file.)
    MultiLabel(Box<MultiLabelClassifier>),
}

/// A classifier over a subset of the columns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Selected {
    /// For each vectorizer column, its column in `inner`, or `u32::MAX` when not selected.
    pub columns: crate::packed::Table<u32>,
    /// The classifier on the selected columns.
    pub inner: Box<Classifier>,
}

impl Classifier {
    /// Computes the parts derived from the others that a model file stores, so that loading
    /// need not compute them: naive Bayes' scoring weights and k-NN's posting weights.
    pub(crate) fn derive_stored_parts(&self) {
        match self {
            Classifier::NaiveBayes(nb) => {
                nb.scorer();
            }
            Classifier::Knn(knn) => knn.derive_weights(),
            Classifier::Selected(selected) => selected.inner.derive_stored_parts(),
            Classifier::Svm(_) | Classifier::MultiLabel(_) => {}
        }
    }

    /// Fills `out` (one slot per class) with the scores of one weighted row, whose highest is
    /// the predicted class. Columns beyond the model's features (terms it never saw) are ignored.
    pub fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        match self {
            Classifier::NaiveBayes(nb) => nb.scorer().scores(indices, values, out),
            Classifier::Svm(svm) => svm.scores(indices, values, out),
            Classifier::Knn(knn) => knn.scores(indices, values, out),
            Classifier::MultiLabel(multi) => multi.scores(indices, values, out),
            Classifier::Selected(selected) => {
                // Selected columns are numbered in vocabulary order, so the row stays sorted.
                let (kept, weights): (Vec<u32>, Vec<f64>) = indices
                    .iter()
                    .zip(values)
                    .filter_map(|(&j, &v)| match selected.columns.get(j as usize) {
                        Some(&c) if c != u32::MAX => Some((c, v)),
                        _ => None,
                    })
                    .unzip();
                selected.inner.scores(&kept, &weights, out);
            }
        }
    }

    /// Whether [`probabilities`](Classifier::probabilities) are probabilities in earnest: false
    /// for an uncalibrated SVM, whose values are a softmax of decision values that ranks the
    /// classes but is not calibrated, and should be called scores.
    pub fn gives_probabilities(&self) -> bool {
        self.multi_label().is_none() && self.svm().is_none_or(LinearSvm::is_calibrated)
    }

    /// Fills `out` (one slot per class) with one weighted row's class probabilities: its
    /// [`scores`](Classifier::scores) turned into [`probabilities`](Classifier::probabilities).
    pub fn probabilities_of(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        self.scores(indices, values, out);
        self.probabilities(out);
    }

    /// Turns one document's scores into class probabilities, in place: naive Bayes posteriors; a
    /// calibrated SVM's Platt probabilities; for an uncalibrated SVM, a softmax of the decision
    /// values, which ranks classes but is not a calibrated probability; for k-NN, each class's
    /// share of the neighbours' votes; for a multi-label model, its per-label scores unchanged.
    pub fn probabilities(&self, scores: &mut [f64]) {
        let calibrated = match self {
            Classifier::Svm(svm) => svm.calibrate_scores(scores),
            Classifier::NaiveBayes(_) => false,
            Classifier::Selected(selected) => return selected.inner.probabilities(scores),
            Classifier::Knn(_) => return normalize_votes(scores),
            // A multi-label model's scores stay as they are: its thresholds are on them, and a
            // document may have several labels, so they are not normalized over labels.
            Classifier::MultiLabel(_) => return,
        };
        if !calibrated {
            normalize_log_probabilities(scores);
        }
    }

    /// Takes class `class`'s score of one weighted row apart (see the [`explain`](super::explain)
    /// module's documentation). Columns beyond the model's features are left out, as scoring
    /// ignores them. `class` must be one of the classifier's classes (it panics otherwise, as
    /// indexing does).
    pub fn attribute(&self, indices: &[u32], values: &[f64], class: usize) -> Attribution {
        match self {
            Classifier::NaiveBayes(nb) => nb.attribute(indices, values, class),
            Classifier::Svm(svm) => svm.attribute(indices, values, class),
            Classifier::Knn(knn) => knn.attribute(indices, values, class),
            Classifier::MultiLabel(multi) => match &multi.scorer {
                PerLabel::Svm(svm) => svm.attribute(indices, values, class),
                PerLabel::NaiveBayes(nb) => nb.attribute(indices, values, class),
            },
            Classifier::Selected(selected) => {
                // Selected columns are numbered in vocabulary order, so `kept` is sorted by both.
                let kept: Vec<(u32, u32, f64)> = indices
                    .iter()
                    .zip(values)
                    .filter_map(|(&j, &v)| match selected.columns.get(j as usize) {
                        Some(&c) if c != u32::MAX => Some((c, j, v)),
                        _ => None,
                    })
                    .collect();
                let columns: Vec<u32> = kept.iter().map(|t| t.0).collect();
                let weights: Vec<f64> = kept.iter().map(|t| t.2).collect();
                let mut inner = selected.inner.attribute(&columns, &weights, class);
                for term in &mut inner.terms {
                    if let Ok(at) = columns.binary_search(&term.0) {
                        term.0 = kept[at].1;
                    }
                }
                inner
            }
        }
    }

    /// Number of classes it scores.
    pub fn classes(&self) -> usize {
        match self {
            Classifier::NaiveBayes(nb) => nb.classes(),
            Classifier::Svm(svm) => svm.classes(),
            Classifier::Selected(selected) => selected.inner.classes(),
            Classifier::Knn(knn) => knn.classes(),
            Classifier::MultiLabel(multi) => multi.labels(),
        }
    }

    /// Number of features (vectorizer columns) it scores.
    pub fn features(&self) -> usize {
        match self {
            Classifier::NaiveBayes(nb) => nb.features(),
            Classifier::Svm(svm) => svm.features(),
            Classifier::Selected(selected) => selected.columns.len(),
            Classifier::Knn(knn) => knn.features(),
            Classifier::MultiLabel(multi) => match &multi.scorer {
                PerLabel::Svm(svm) => svm.features(),
                PerLabel::NaiveBayes(nb) => nb.counts().1.features(),
            },
        }
    }

    /// Checks the parts a damaged file could make inconsistent, where decoding alone does not.
    pub(crate) fn check(&self) -> Result<()> {
        match self {
            Classifier::NaiveBayes(nb) => nb.check(),
            Classifier::Selected(selected) => {
                // The inner classifier has one feature per selected column; a larger count,
                // which naive Bayes stores as a bare number, would size its scorer's tables.
                let chosen = selected.columns.iter().filter(|&&c| c != u32::MAX).count();
                if selected.inner.features() != chosen {
                    return Err(Error::Config(
                        "selected columns do not match the classifier's features".into(),
                    ));
                }
                selected.inner.check()
            }
            Classifier::Svm(svm) => svm.check(),
            Classifier::MultiLabel(multi) => multi.check(),
            // k-NN checks its parts as it is decoded.
            Classifier::Knn(_) => Ok(()),
        }
    }

    /// Whether the classifier learns raw counts rather than weighted rows (k-NN weighs its
    /// training documents itself, so that an update can weigh them again).
    pub fn learns_counts(&self) -> bool {
        matches!(self, Classifier::Knn(_))
    }

    /// Learns more rows: `rows` (weighted by `merged`, or raw counts when
    /// [`learns_counts`](Classifier::learns_counts)) of classes `ids` out of `classes`. `merged`
    /// is `old` extended by the new documents; `columns` gives each of `old`'s columns its place
    /// in `merged`.
    ///
    /// Naive Bayes adds the rows to its counts: with a weighting that depends on the document
    /// alone (no idf) and no pruning, the result equals training on all documents at once; with
    /// idf, earlier documents keep the weights they had. k-NN adds the counts and derives its
    /// weights again from the merged document frequencies: with no pruning the result is the
    /// model trained on all documents at once. The SVM continues its dual problem over its
    /// reservoir of earlier rows, re-weighted with the new idf, plus the new rows (see
    /// [`LinearSvm::update`]).
    pub fn update(
        &mut self,
        rows: &Matrix,
        ids: &[u32],
        classes: usize,
        old: &FittedVectorizer,
        merged: &FittedVectorizer,
        columns: &[u32],
    ) -> Result<()> {
        let features = merged.n_features();
        match self {
            Classifier::NaiveBayes(nb) => {
                nb.check_sums()?;
                nb.remap(columns, features, classes);
                nb.add(rows, ids);
            }
            Classifier::Svm(svm) => {
                let change = ColumnChange {
                    columns,
                    rescale: &rescale(old, merged, columns),
                    l2: merged.config().weighting.norm == Norm::L2,
                };
                svm.update(rows, ids, classes, change)?;
            }
            Classifier::Knn(knn) => {
                knn.check_postings()?;
                knn.remap(columns, features, classes);
                knn.add(rows, ids)?;
            }
            Classifier::Selected(_) => return Err(not_updatable()),
            Classifier::MultiLabel(_) => {
                // Documents with one label each are label sets of one.
                let mut sets = LabelSets::new();
                ids.iter().for_each(|&id| sets.push([id]));
                return self.update_sets(rows, &sets, classes, old, merged, columns);
            }
        }
        Ok(())
    }

    /// Learns more multi-label rows: `rows` (weighted by `merged`) with label sets `sets` out of
    /// `labels` labels, as [`Classifier::update`] does for single-label rows. Only a
    /// multi-label classifier takes label sets.
    pub fn update_sets(
        &mut self,
        rows: &Matrix,
        sets: &LabelSets,
        labels: usize,
        old: &FittedVectorizer,
        merged: &FittedVectorizer,
        columns: &[u32],
    ) -> Result<()> {
        let Classifier::MultiLabel(multi) = self else {
            return Err(Error::Config(
                "documents with several labels can only update a multi-label model".into(),
            ));
        };
        let change = ColumnChange {
            columns,
            rescale: &rescale(old, merged, columns),
            l2: merged.config().weighting.norm == Norm::L2,
        };
        multi.update(rows, sets, labels, columns, change)
    }

    /// The multi-label classifier this is, if it is one.
    pub fn multi_label(&self) -> Option<&MultiLabelClassifier> {
        match self {
            Classifier::MultiLabel(multi) => Some(multi),
            _ => None,
        }
    }

    /// The SVM this classifier is, or is trained on selected columns of.
    pub fn svm(&self) -> Option<&LinearSvm> {
        match self {
            Classifier::Svm(svm) => Some(svm),
            Classifier::Selected(selected) => selected.inner.svm(),
            Classifier::MultiLabel(multi) => match &multi.scorer {
                PerLabel::Svm(svm) => Some(svm),
                PerLabel::NaiveBayes(_) => None,
            },
            _ => None,
        }
    }

    /// The kind of classifier this is.
    pub fn kind(&self) -> Kind {
        let of_nb = |kind: NbKind| match kind {
            NbKind::Multinomial => Kind::Mnb,
            NbKind::Complement => Kind::Cnb,
            NbKind::Bernoulli => Kind::Bnb,
        };
        match self {
            Classifier::NaiveBayes(nb) => of_nb(nb.kind()),
            Classifier::Svm(_) => Kind::Svm,
            Classifier::Selected(selected) => selected.inner.kind(),
            Classifier::Knn(_) => Kind::Knn,
            Classifier::MultiLabel(multi) => match &multi.scorer {
                PerLabel::Svm(_) => Kind::Svm,
                PerLabel::NaiveBayes(nb) => of_nb(nb.kind()),
            },
        }
    }

    /// A short name: mnb, cnb, bnb, svm or knn.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }
}

/// Per merged column, its new idf over its old one: how the values of earlier rows change. A
/// column the model did not have, or whose old idf was zero (a term in every document under plain
/// idf, whose values were all zero), keeps factor 1.
fn rescale(old: &FittedVectorizer, merged: &FittedVectorizer, columns: &[u32]) -> Vec<f64> {
    let mut factors = vec![1.0; merged.n_features()];
    for (&new, &before) in columns.iter().zip(old.idf()) {
        if before > 0.0 {
            factors[new as usize] = merged.idf()[new as usize] / before;
        }
    }
    factors
}

/// Why a model from `select` cannot learn more documents.
pub(crate) fn not_updatable() -> Error {
    Error::Config(
        "a model from `select` keeps only its selected features and cannot be updated; select \
         again on all the documents"
            .into(),
    )
}
