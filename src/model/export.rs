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

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use super::kinds::OuterColumns;
use super::Model;

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
        // Hashed terms are written over all 2^bits columns, as when the arrays had them all: a
        // column no document reached has df 0 and the idf of df 0.
        let outer = OuterColumns::of(v);
        let (df, idf) = (v.df(), v.idf());
        let unseen_idf = v.config().weighting.idf(0, v.n_docs());
        s.serialize_field("df", &Dense(|| outer.dense(|j| df[j], 0)))?;
        s.serialize_field("idf", &Dense(|| outer.dense(|j| idf[j], unseen_idf)))?;
        s.serialize_field("classifier", &m.classifier.exported(outer))?;
        s.serialize_field("training", &m.info)?;
        s.end()
    }
}

/// Values produced as they are written, not held: `.0()` gives them.
struct Dense<F>(F);

impl<T: Serialize, I: Iterator<Item = T>, F: Fn() -> I> Serialize for Dense<F> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

/// The terms as a list of strings, in any format.
struct Strings<'a>(&'a crate::vectorize::TermList);

impl Serialize for Strings<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter())
    }
}
