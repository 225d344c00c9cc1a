//! A model as JSON, for other tools (`bowline export`): the vocabulary, its document
//! frequencies and idf, and the classifier's weights (SVM) or counts (naive Bayes, k-NN).
//!
//! # Schema
//!
//! The object's fields (the program adds `schema_version` first):
//!
//! - `kind`: `mnb`, `cnb`, `bnb`, `svm` or `knn`; `labels`: the class names, class `c` being
//!   `labels[c]`.
//! - `analysis`: how text becomes terms (tokens, lowercasing, stop words, stemmer, word and
//!   character n-grams); `vectorizer`: pruning (`min_df`, `max_df`, `max_features`) and
//!   `weighting` (`tf`, `idf`, `norm`).
//! - `documents`: the number of training documents `N`; `vocabulary`: the terms, column `j`
//!   being `vocabulary[j]`; `df[j]`: documents containing term `j`; `idf[j]`: its idf under the
//!   weighting. A document's row is `x_j = tf(count_j) · idf[j]` for each vocabulary term it
//!   contains, then scaled to unit length when `norm` is `l2`, with tf `count`: `count_j`,
//!   `binary`: 1, `sublinear`: `1 + ln count_j`, `frequency`: `count_j` over the document's
//!   number of terms, in the vocabulary or not.
//! - `hashing`, instead of `vocabulary`, for a model whose terms are hashed (`--hash-bits`):
//!   `bits` and `signed`. Term `t`'s column is `|h| mod 2^bits`, `h` being MurmurHash3 (x86, 32
//!   bits, seed 0) of its UTF-8 bytes as a signed integer; when `signed`, each occurrence counts
//!   -1 where `h < 0`, as scikit-learn's `HashingVectorizer(alternate_sign=True)`. `count_j` is
//!   the column's signed sum, and tf applies to its magnitude, keeping its sign.
//! - `classifier`, by its `type`:
//!   - `svm`: `weights[c][j]` and `intercepts[c]`; class `c`'s decision value is
//!     `Σ_j weights[c][j] · x_j + intercepts[c]`, the highest wins. `calibration`, when present,
//!     holds each class's Platt sigmoid `{a, b}`: `1 / (1 + exp(a · f + b))` of its decision
//!     value `f`, normalized over the classes.
//!   - `naive_bayes`: `event_model` (`multinomial`, `complement`, `bernoulli`), `alpha`,
//!     `priors` (`learned`, `uniform`, or one weight per class), `class_documents[c]`,
//!     `features` (`n`), and `sums[c]`, sparse (`indices`, `values`): the sum of each term's
//!     values over class `c`'s training rows `s_cj` (for Bernoulli, the documents containing
//!     it). The log prior is `ln(class_documents[c] / Σ_k class_documents[k])` when learned,
//!     `−ln C` (C classes) when uniform, `ln(p_c / Σ p)` when given. Scores, the highest
//!     winning:
//!     - multinomial: `log prior + Σ_j x_j · ln((s_cj + α) / (Σ_j s_cj + α n))`;
//!     - complement: `Σ_j x_j · w_cj / Σ_j w_cj` with `w_cj = ln((S_j − s_cj + α) /
//!       (Σ_j (S_j − s_cj) + α n))` and `S_j = Σ_c s_cj` (no prior);
//!     - Bernoulli: `log prior + Σ_j [x_j > 0] ln p_cj + [x_j = 0] ln(1 − p_cj)` with
//!       `p_cj = (s_cj + α) / (class_documents[c] + 2α)`.
//!   - `knn`: `k`, `similarity` (`cosine`, or `bm25` with `k1` and `b`), the `weighting` it
//!     gives its training counts under cosine, and `documents`: each training document's
//!     `class` and raw `indices` and `counts`.
//!   - `selected` (a model from `bowline select`): `columns`, the vocabulary columns it keeps,
//!     and `inner`, the classifier over them: its column `i` is vocabulary column `columns[i]`.
//! - `training`: the corpora, documents per class, the bowline version, what `train --tune`
//!   chose, and when the model was written.

use super::multilabel::PerLabel;
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use super::{Classifier, Knn, LinearSvm, Model, NaiveBayes, NbKind, Priors, Similarity};

/// A model, ready to be written as JSON (see the [module](self) documentation).
#[derive(Debug, Clone, Copy)]
pub struct Export<'a> {
    model: &'a Model,
}

impl<'a> Export<'a> {
    /// The export of `model`.
    pub fn new(model: &'a Model) -> Self {
        Export { model }
    }
}

impl Serialize for Export<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let m = self.model;
        let v = &m.vectorizer;
        let mut s = serializer.serialize_struct("Export", 10)?;
        s.serialize_field("kind", m.classifier.name())?;
        s.serialize_field("labels", &m.labels)?;
        s.serialize_field("analysis", v.analyzer())?;
        s.serialize_field("vectorizer", v.config())?;
        s.serialize_field("documents", &v.n_docs())?;
        // Hashed terms have no vocabulary: the export says how they are hashed instead.
        match v.hashing() {
            Some(hashing) => s.serialize_field("hashing", &hashing)?,
            None => s.serialize_field("vocabulary", &Strings(v.terms()))?,
        }
        s.serialize_field("df", v.df())?;
        s.serialize_field("idf", v.idf())?;
        s.serialize_field("classifier", &Exported(&m.classifier))?;
        s.serialize_field("training", &m.info)?;
        s.end()
    }
}

/// The terms as a list of strings, in any format.
struct Strings<'a>(&'a crate::vectorize::TermList);

impl Serialize for Strings<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter())
    }
}

/// A classifier's parameters, tagged by `type`.
struct Exported<'a>(&'a Classifier);

impl Serialize for Exported<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Classifier::Svm(svm) => svm_fields(svm, serializer),
            Classifier::NaiveBayes(nb) => naive_bayes_fields(nb, serializer),
            Classifier::Knn(knn) => knn_fields(knn, serializer),
            Classifier::MultiLabel(multi) => {
                let mut s = serializer.serialize_struct("MultiLabel", 4)?;
                s.serialize_field("type", "multi_label")?;
                s.serialize_field("thresholds", &multi.decision.thresholds)?;
                s.serialize_field("min_labels", &multi.decision.min_labels)?;
                s.serialize_field("per_label", &PerLabelExported(&multi.scorer))?;
                s.end()
            }
            Classifier::Selected(selected) => {
                let mut s = serializer.serialize_struct("Selected", 3)?;
                s.serialize_field("type", "selected")?;
                let mut columns = vec![0u32; selected.columns.len()];
                let mut kept = 0;
                for (j, &c) in selected.columns.iter().enumerate() {
                    if let Some(slot) = columns.get_mut(c as usize) {
                        *slot = j as u32;
                        kept = kept.max(c as usize + 1);
                    }
                }
                columns.truncate(kept);
                s.serialize_field("columns", &columns)?;
                s.serialize_field("inner", &Exported(&selected.inner))?;
                s.end()
            }
        }
    }
}

/// A multi-label model's binary problems: an SVM whose classes are the labels, or naive Bayes
/// with each label's counts (`positives`) and the counts over all documents (`all`).
struct PerLabelExported<'a>(&'a PerLabel);

impl Serialize for PerLabelExported<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            PerLabel::Svm(svm) => svm_fields(svm, serializer),
            PerLabel::NaiveBayes(nb) => {
                let (positives, all) = nb.counts();
                let mut s = serializer.serialize_struct("BinaryNb", 3)?;
                s.serialize_field("type", "binary_naive_bayes")?;
                s.serialize_field("positives", &NaiveBayesExported(positives))?;
                s.serialize_field("all", &NaiveBayesExported(all))?;
                s.end()
            }
        }
    }
}

/// Naive Bayes counts as `naive_bayes_fields` writes them.
struct NaiveBayesExported<'a>(&'a NaiveBayes);

impl Serialize for NaiveBayesExported<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        naive_bayes_fields(self.0, serializer)
    }
}

fn svm_fields<S: Serializer>(svm: &LinearSvm, serializer: S) -> Result<S::Ok, S::Error> {
    let classes = svm.intercepts().len();
    let weights: Vec<ClassWeights> = (0..classes)
        .map(|class| ClassWeights { svm, class })
        .collect();
    let mut s = serializer.serialize_struct("Svm", 4)?;
    s.serialize_field("type", "svm")?;
    s.serialize_field("weights", &weights)?;
    s.serialize_field("intercepts", svm.intercepts())?;
    s.serialize_field("calibration", &svm.sigmoids())?;
    s.end()
}

/// One class's SVM weights, written without copying them.
struct ClassWeights<'a> {
    svm: &'a LinearSvm,
    class: usize,
}

impl Serialize for ClassWeights<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (svm, class) = (self.svm, self.class);
        serializer.collect_seq((0..svm.features()).filter_map(|j| svm.weight(j, class)))
    }
}

fn naive_bayes_fields<S: Serializer>(nb: &NaiveBayes, serializer: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Sums<'a> {
        indices: &'a [u32],
        values: &'a [f64],
    }
    #[derive(Serialize)]
    #[serde(untagged)]
    enum PriorsOut<'a> {
        Named(&'static str),
        Given(&'a [f64]),
    }
    let event_model = match nb.kind() {
        NbKind::Multinomial => "multinomial",
        NbKind::Complement => "complement",
        NbKind::Bernoulli => "bernoulli",
    };
    let priors = match nb.priors() {
        Priors::Learned => PriorsOut::Named("learned"),
        Priors::Uniform => PriorsOut::Named("uniform"),
        Priors::Given(p) => PriorsOut::Given(p),
    };
    let sums: Vec<Sums> = nb
        .class_sums()
        .map(|(indices, values)| Sums { indices, values })
        .collect();
    let mut s = serializer.serialize_struct("NaiveBayes", 7)?;
    s.serialize_field("type", "naive_bayes")?;
    s.serialize_field("event_model", event_model)?;
    s.serialize_field("alpha", &nb.alpha())?;
    s.serialize_field("priors", &priors)?;
    s.serialize_field("class_documents", nb.class_docs())?;
    s.serialize_field("features", &nb.features())?;
    s.serialize_field("sums", &sums)?;
    s.end()
}

fn knn_fields<S: Serializer>(knn: &Knn, serializer: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Document {
        class: u32,
        indices: Vec<u32>,
        counts: Vec<f32>,
    }
    let documents: Vec<Document> = knn
        .documents()
        .into_iter()
        .map(|(class, terms)| {
            let (indices, counts) = terms.into_iter().unzip();
            Document {
                class,
                indices,
                counts,
            }
        })
        .collect();
    let params = knn.params();
    let mut s = serializer.serialize_struct("Knn", 7)?;
    s.serialize_field("type", "knn")?;
    s.serialize_field("k", &params.k)?;
    match params.similarity {
        Similarity::Cosine => s.serialize_field("similarity", "cosine")?,
        Similarity::Bm25 { k1, b } => {
            s.serialize_field("similarity", "bm25")?;
            s.serialize_field("k1", &k1)?;
            s.serialize_field("b", &b)?;
        }
    }
    s.serialize_field("weighting", &knn.weighting())?;
    s.serialize_field("documents", &documents)?;
    s.end()
}
