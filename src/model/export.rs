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
//!   - `kernel_svm`: `kernel` (`linear`, `poly`, `rbf`, `cosine`), `gamma`, `degree`,
//!     `coef0`, `support_vectors` (each with the sparse `indices` and `values` of a training
//!     row and its `coefficients[c]`, y·α in class `c`'s problem) and `intercepts[c]`; class
//!     `c`'s decision value is `Σ_s coefficients[c] · K(s, x) + intercepts[c]`, with `K` the
//!     kernel: `x·z`, `(gamma · x·z + coef0)^degree`, `exp(−gamma · ‖x − z‖²)` or
//!     `x·z / (‖x‖ · ‖z‖)`. `calibration` as for `svm`.
//!   - `selected` (a model from `bowline select`): `columns`, the vocabulary columns it keeps,
//!     and `inner`, the classifier over them: its column `i` is vocabulary column `columns[i]`.
//! - `training`: the corpora, documents per class, the bowline version, what `train --tune`
//!   chose, and when the model was written.

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use super::kinds::OuterColumns;
use super::Model;

/// The schema as `bowline export --help` shows it; this module's documentation says the same.
pub const SCHEMA: &str = "\
Write a model as one line of JSON, for other tools to read.

Fields: schema_version; kind (mnb, cnb, bnb, svm, knn); labels (class c is labels[c]); analysis
and vectorizer (the settings that turn text into a row); documents (N, the training documents);
vocabulary (column j is vocabulary[j]); df[j]; idf[j]; classifier; training (corpora, documents
per class, bowline version, what train --tune chose, date).

A model trained with --hash-bits has hashing {bits, signed} instead of vocabulary: term t's
column is |h| mod 2^bits, h being MurmurHash3 (x86, 32 bits, seed 0) of its UTF-8 bytes as a
signed integer; when signed, each occurrence counts -1 if h < 0 (scikit-learn's
HashingVectorizer). count_j is then the column's signed sum, and tf applies to its magnitude.

A document's row: x_j = tf(count_j) * idf[j] for each vocabulary term it contains (tf count:
count; binary: 1; sublinear: 1 + ln count; frequency: count over the document's number of
terms, in the vocabulary or not), scaled to unit length when vectorizer.weighting.norm is l2.

classifier.type, and how it scores class c (the highest wins):
  svm          weights[c][j], intercepts[c]: sum_j weights[c][j] x_j + intercepts[c];
               calibration, if not null, is each class's Platt sigmoid {a, b}:
               1 / (1 + exp(a f + b)) of its decision value f, normalized over the classes.
  naive_bayes  event_model, alpha, priors (learned, uniform or one per class),
               class_documents[c], features (n), sums[c] = {indices, values}: s_cj, the sum of
               term j's values over class c's rows (bernoulli: documents containing it).
               Log prior: learned ln(class_documents[c] / sum of class_documents);
               uniform -ln C (C classes); given ln(p_c / sum p).
               multinomial: log prior + sum_j x_j ln((s_cj + alpha) / (sum_j s_cj + alpha n))
               complement:  sum_j x_j w_cj / sum_j w_cj, where S_j = sum_c s_cj and
                            w_cj = ln((S_j - s_cj + alpha) / (sum_j (S_j - s_cj) + alpha n))
               bernoulli:   log prior + sum_j ln p_cj if x_j > 0, else ln(1 - p_cj),
                            where p_cj = (s_cj + alpha) / (class_documents[c] + 2 alpha)
  knn          k, similarity (cosine; or bm25 with k1, b), weighting, and documents: each
               training document's class and raw indices and counts.
  kernel_svm   kernel (linear, poly, rbf, cosine), gamma, degree, coef0, support_vectors: each
               {indices, values, coefficients[c]}, and intercepts[c]: the decision value is
               sum_s coefficients[c] K(s, x) + intercepts[c], K linear x.z, poly
               (gamma x.z + coef0)^degree, rbf exp(-gamma |x - z|^2), cosine x.z / (|x| |z|);
               calibration as for svm.
  selected     columns (the vocabulary columns kept) and inner, a classifier whose column i
               is vocabulary column columns[i].";

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
