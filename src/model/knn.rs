//! k-nearest neighbours: a document takes the classes of the training documents most similar to
//! it, each neighbour voting with its similarity.
//!
//! The training documents are kept as raw counts, term-major: for every feature, the rows that
//! contain it and how often. Scoring a query walks only the postings of the query's terms, so it
//! costs the sum of their document frequencies, not the size of the training set. The weights
//! the similarity needs (TF-IDF for cosine, BM25's saturated term frequencies) depend on the
//! document frequencies, which change when documents are added; they are derived from the counts
//! on first use, so a model that learned more documents with `update` weighs every training row
//! exactly as a model trained on all of them at once.

use std::cell::RefCell;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::packed::Table;

use crate::error::{Error, Result};
use crate::vectorize::{matrix_row, Matrix, Weighting};

/// How a query's similarity to a training document is measured.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Similarity {
    /// The cosine of the two documents' vectors under the vectorizer's weighting: training rows
    /// are weighted as queries are, then scaled to unit length.
    Cosine,
    /// Okapi BM25 as Lucene and tantivy score it: the sum over the query's distinct terms of
    /// idf · tf · (k1 + 1) / (tf + k1 · (1 − b + b · dl / avgdl)), with
    /// idf = ln(1 + (N − df + 0.5) / (df + 0.5)) and dl a document's length in vocabulary terms.
    Bm25 {
        /// Term-frequency saturation, >= 0; default 1.2 (Lucene's).
        k1: f64,
        /// Length normalization, in [0, 1]; default 0.75 (Lucene's).
        b: f64,
    },
}

impl crate::choice::Choice for Similarity {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        ("cosine", "Cosine of the TF-IDF vectors", Similarity::Cosine),
        (
            "bm25",
            "Okapi BM25 (k1 1.2, b 0.75)",
            Similarity::Bm25 { k1: 1.2, b: 0.75 },
        ),
    ];
}

impl Similarity {
    /// BM25 with Lucene's parameters.
    pub fn bm25() -> Self {
        Similarity::Bm25 { k1: 1.2, b: 0.75 }
    }
}

/// Parameters, validated by [`KnnParams::validate`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct KnnParams {
    /// Neighbours that vote, >= 1; default 30, which ranked above 10 by cross-validation on the
    /// training data of five corpora (`benches/defaults.py`).
    pub k: usize,
    /// Similarity; default cosine (BM25 suits some short-text corpora better: try both).
    pub similarity: Similarity,
}

impl Default for KnnParams {
    fn default() -> Self {
        KnnParams {
            k: 30,
            similarity: Similarity::Cosine,
        }
    }
}

impl KnnParams {
    /// Checks every parameter; the only place they are checked.
    pub fn validate(&self) -> Result<()> {
        if self.k == 0 {
            return Err(Error::Config("k-NN needs k >= 1 neighbours".into()));
        }
        if let Similarity::Bm25 { k1, b } = self.similarity {
            if !(k1 >= 0.0 && k1.is_finite() && (0.0..=1.0).contains(&b)) {
                return Err(Error::Config(format!(
                    "BM25 needs k1 >= 0 and b in [0, 1], got k1 {k1} and b {b}"
                )));
            }
        }
        Ok(())
    }
}

/// What a k-NN model saves: its parameters and its training documents' counts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename = "StoredKnn")]
struct Stored {
    params: KnnParams,
    /// The vectorizer's weighting, which cosine applies to the training counts as the vectorizer
    /// applies it to queries.
    weighting: Weighting,
    /// Feature j's postings are positions `starts[j]..starts[j + 1]` of `rows` and `counts`,
    /// in increasing row order.
    starts: Table<u32>,
    rows: Table<u32>,
    counts: Table<f32>,
    /// Each training row's class.
    labels: Table<u32>,
    /// Training documents per class: the fallback for a query with no neighbour.
    class_docs: Vec<u64>,
    /// The posting weights, stored only in a model file (see [`Knn::weights`]); while the
    /// model is in use they are `Knn::weights`.
    #[serde(default, with = "crate::packed::derived")]
    weights: OnceLock<Table<f32>>,
}

/// A k-nearest-neighbour classifier over its training documents' counts.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "Stored", into = "Stored")]
pub struct Knn {
    stored: Stored,
    /// Per posting, its weight under the similarity, derived from the counts on first use or
    /// stored in the model file.
    weights: OnceLock<Table<f32>>,
}

/// Two models are equal when their saved parts are; the weights are derived.
impl PartialEq for Knn {
    fn eq(&self, other: &Self) -> bool {
        self.stored == other.stored
    }
}

impl TryFrom<Stored> for Knn {
    type Error = String;

    /// Checks a decoded model, so that no index in it can point outside its arrays. A model
    /// file of format 6 stores the weights, and its postings are used in place: checking every
    /// posting would read all of them, more than the rest of loading, so scoring checks the
    /// spans and rows it uses instead.
    fn try_from(mut stored: Stored) -> std::result::Result<Self, String> {
        let weights = std::mem::take(&mut stored.weights);
        let s = &stored;
        let postings = s.rows.len();
        let in_place = weights.get().is_some();
        let consistent = s.params.validate().is_ok()
            && s.starts.first() == Some(&0)
            && s.starts.last().map(|&end| end as usize) == Some(postings)
            && s.counts.len() == postings
            && weights.get().is_none_or(|w| w.len() == postings);
        if !consistent {
            return Err("k-NN: inconsistent postings".into());
        }
        let knn = Knn { stored, weights };
        if !in_place {
            knn.check_postings().map_err(|e| e.to_string())?;
        }
        Ok(knn)
    }
}

impl From<Knn> for Stored {
    fn from(knn: Knn) -> Self {
        Stored {
            weights: knn.weights,
            ..knn.stored
        }
    }
}

/// The buffers of one scoring thread: a similarity per training row, the rows touched, and the
/// neighbours found. Kept between calls so that scoring allocates nothing after the first
/// document.
#[derive(Default)]
struct Scratch {
    similarity: Vec<f32>,
    touched: Vec<u32>,
    neighbours: Vec<(f32, u32)>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// A floor on every class's probability, so that a class no neighbour voted for has a small
/// probability rather than none: log-loss stays finite, and no ranking changes.
const PROBABILITY_FLOOR: f64 = 1e-6;

impl Knn {
    /// A model trained on raw counts `counts` (one row per document, as read with
    /// `counting_config` and pruned to the vocabulary) with
    /// class ids `labels` out of `classes`; `weighting` is the vectorizer's.
    pub fn train(
        counts: &Matrix,
        labels: &[u32],
        classes: usize,
        weighting: Weighting,
        params: KnnParams,
    ) -> Result<Self> {
        params.validate()?;
        let mut knn = Knn {
            stored: Stored {
                params,
                weighting,
                starts: vec![0; counts.cols() + 1].into(),
                rows: Table::default(),
                counts: Table::default(),
                labels: Table::default(),
                class_docs: vec![0; classes],
                weights: OnceLock::new(),
            },
            weights: OnceLock::new(),
        };
        knn.add(counts, labels)?;
        Ok(knn)
    }

    /// The parameters.
    pub(crate) fn params(&self) -> KnnParams {
        self.stored.params
    }

    /// Number of features.
    pub(crate) fn features(&self) -> usize {
        self.stored.starts.len() - 1
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.stored.class_docs.len()
    }

    /// Training documents per class.
    pub(crate) fn class_docs(&self) -> &[u64] {
        &self.stored.class_docs
    }

    /// Adds documents: raw counts over this model's features, with their class ids.
    pub fn add(&mut self, counts: &Matrix, labels: &[u32]) -> Result<()> {
        let (features, classes) = (self.features(), self.classes());
        if counts.cols() != features || counts.rows() != labels.len() {
            return Err(Error::Config(format!(
                "k-NN: {} rows over {} features for {} labels and {features} features",
                counts.rows(),
                counts.cols(),
                labels.len()
            )));
        }
        if let Some(&c) = labels.iter().find(|&&c| c as usize >= classes) {
            return Err(Error::Config(format!("k-NN: class {c} of {classes}")));
        }
        let first = self.stored.labels.len();
        let total_rows = first + labels.len();
        let total_postings = self.stored.rows.len() + counts.nnz();
        if u32::try_from(total_rows).is_err() || u32::try_from(total_postings).is_err() {
            return Err(Error::Config(
                "k-NN holds at most 4 billion documents and term occurrences".into(),
            ));
        }
        let added = (0..labels.len()).flat_map(|i| {
            let (indices, values) = matrix_row(counts, i);
            let row = (first + i) as u32;
            indices
                .iter()
                .zip(values)
                .filter(|&(_, &count)| count > 0.0)
                .map(move |(&j, &count)| (j, row, count as f32))
        });
        self.rebuild(features, |j| j, added);
        for &c in labels {
            self.stored.class_docs[c as usize] += 1;
        }
        self.stored.labels.to_mut().extend_from_slice(labels);
        Ok(())
    }

    /// Renumbers features and adds classes, for an update whose vocabulary grew: `new_of_old[j]`
    /// is old feature `j`'s new column, out of `features`; new classes start with no documents.
    pub(crate) fn remap(&mut self, new_of_old: &[u32], features: usize, classes: usize) {
        self.rebuild(features, |j| new_of_old[j as usize], std::iter::empty());
        self.stored.class_docs.resize(classes, 0);
    }

    /// Lays the postings out again over `features` features: the current ones, their features
    /// renamed by `column`, followed by `added` (feature, row, count) triples, whose rows come
    /// after all current rows and in increasing order. A stable counting sort by feature keeps
    /// every feature's postings in row order.
    fn rebuild(
        &mut self,
        features: usize,
        column: impl Fn(u32) -> u32,
        added: impl Iterator<Item = (u32, u32, f32)> + Clone,
    ) {
        let s = &self.stored;
        let current = (0..s.starts.len() - 1).flat_map(|j| {
            let span = s.starts[j] as usize..s.starts[j + 1] as usize;
            let feature = column(j as u32);
            s.rows[span.clone()]
                .iter()
                .zip(&s.counts[span])
                .map(move |(&row, &count)| (feature, row, count))
        });
        let all = current.chain(added);
        let mut starts = vec![0u32; features + 1];
        for (j, _, _) in all.clone() {
            starts[j as usize + 1] += 1;
        }
        for j in 0..features {
            starts[j + 1] += starts[j];
        }
        let postings = starts[features] as usize;
        let (mut rows, mut counts) = (vec![0u32; postings], vec![0f32; postings]);
        let mut next = starts.clone();
        for (j, row, count) in all {
            let slot = &mut next[j as usize];
            rows[*slot as usize] = row;
            counts[*slot as usize] = count;
            *slot += 1;
        }
        self.stored.starts = starts.into();
        self.stored.rows = rows.into();
        self.stored.counts = counts.into();
        self.weights = OnceLock::new();
    }

    /// Each training row's length: the sum of its counts over the vocabulary.
    fn row_lengths(&self) -> Vec<f64> {
        let mut lengths = vec![0.0; self.stored.labels.len()];
        for (&row, &count) in self.stored.rows.iter().zip(&self.stored.counts) {
            lengths[row as usize] += f64::from(count);
        }
        lengths
    }

    /// Feature j's document frequency and its postings' positions.
    fn postings(&self) -> impl Iterator<Item = (u32, std::ops::Range<usize>)> + '_ {
        self.stored.starts.windows(2).map(|pair| {
            let span = pair[0] as usize..pair[1] as usize;
            (span.len() as u32, span)
        })
    }

    /// The posting weights, derived from the counts once (or stored in the model file).
    fn weights(&self) -> &[f32] {
        self.weights.get_or_init(|| {
            let weights = match self.stored.params.similarity {
                Similarity::Cosine => self.cosine_weights(),
                Similarity::Bm25 { k1, b } => self.bm25_weights(k1, b),
            };
            weights.into()
        })
    }

    /// Checks that every posting span is in order and every row and class within the model:
    /// what rebuilding the postings for an update relies on.
    pub(crate) fn check_postings(&self) -> Result<()> {
        let s = &self.stored;
        let consistent = s.starts.windows(2).all(|pair| pair[0] <= pair[1])
            && s.rows.iter().all(|&row| (row as usize) < s.labels.len())
            && s.labels.iter().all(|&c| (c as usize) < s.class_docs.len());
        match consistent {
            true => Ok(()),
            false => Err(Error::Config("k-NN: inconsistent postings".into())),
        }
    }

    /// Derives the posting weights now, so that the model file stores them.
    pub(crate) fn derive_weights(&self) {
        self.weights();
    }

    /// The training rows weighted as the vectorizer weighs, with idf from the current document
    /// frequencies, then scaled to unit length. A row's length in the term-frequency factor is
    /// its length in vocabulary terms; it only matters under `--tf frequency`, where the unit
    /// scaling cancels it.
    fn cosine_weights(&self) -> Vec<f32> {
        let s = &self.stored;
        let (weighting, n) = (s.weighting, s.labels.len() as u32);
        let lengths = self.row_lengths();
        let mut weights = vec![0.0f64; s.rows.len()];
        let mut squares = vec![0.0f64; s.labels.len()];
        for (df, span) in self.postings() {
            let idf = weighting.idf(df, n);
            for p in span {
                let row = s.rows[p] as usize;
                let tf = weighting.tf(f64::from(s.counts[p]), lengths[row] as u32);
                weights[p] = tf * idf;
                squares[row] += weights[p] * weights[p];
            }
        }
        let norm = |row: u32| squares[row as usize].sqrt();
        let unit = weights
            .iter()
            .zip(&s.rows)
            .map(|(&w, &row)| match norm(row) {
                length if length > 0.0 => (w / length) as f32,
                _ => 0.0,
            });
        unit.collect()
    }

    /// Each posting's BM25 term weight, Lucene's formula with its idf.
    fn bm25_weights(&self, k1: f64, b: f64) -> Vec<f32> {
        let s = &self.stored;
        let n = s.labels.len() as f64;
        let lengths = self.row_lengths();
        let average = lengths.iter().sum::<f64>() / n.max(1.0);
        let mut weights = vec![0.0f32; s.rows.len()];
        for (df, span) in self.postings() {
            let df = f64::from(df);
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for p in span {
                let (tf, length) = (f64::from(s.counts[p]), lengths[s.rows[p] as usize]);
                // A positive count makes the average positive: the row counts towards it.
                let saturation = k1 * (1.0 - b + b * length / average);
                weights[p] = (idf * tf * (k1 + 1.0) / (tf + saturation)) as f32;
            }
        }
        weights
    }

    /// Fills `out` (one slot per class) with the similarity-weighted votes of the query's k
    /// nearest neighbours; a query with no neighbour (no known term) gets the class priors from
    /// the training documents instead. `values` are the query's weights from the model's
    /// vectorizer; BM25 counts each of the query's terms once. Columns beyond the model's
    /// features are ignored.
    pub fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        SCRATCH.with(|scratch| {
            let scratch = &mut *scratch.borrow_mut();
            self.accumulate(scratch, indices, values);
            self.nearest(scratch);
            self.vote(&scratch.neighbours, out);
            for &row in &scratch.touched {
                scratch.similarity[row as usize] = 0.0;
            }
            scratch.touched.clear();
        });
    }

    /// Adds the query's similarity to every training row that shares a term with it.
    fn accumulate(&self, scratch: &mut Scratch, indices: &[u32], values: &[f64]) {
        let (s, weights) = (&self.stored, self.weights());
        scratch.similarity.resize(s.labels.len(), 0.0);
        let bm25 = matches!(s.params.similarity, Similarity::Bm25 { .. });
        for (&j, &value) in indices.iter().zip(values) {
            let Some(&[start, end]) = s.starts.get(j as usize..j as usize + 2) else {
                continue;
            };
            let query = if bm25 { 1.0 } else { value as f32 };
            let span = start as usize..end as usize;
            // A damaged file's span or row reads as no posting (see `Knn::try_from`).
            let (Some(rows), Some(weights)) = (s.rows.get(span.clone()), weights.get(span)) else {
                continue;
            };
            for (&row, &weight) in rows.iter().zip(weights) {
                let add = query * weight;
                // Only positive contributions count, so a row enters `touched` exactly once.
                if add > 0.0 {
                    let Some(similarity) = scratch.similarity.get_mut(row as usize) else {
                        continue;
                    };
                    if *similarity == 0.0 {
                        scratch.touched.push(row);
                    }
                    *similarity += add;
                }
            }
        }
    }

    /// The k touched rows of highest similarity, most similar first; ties go to the lower row.
    fn nearest(&self, scratch: &mut Scratch) {
        let neighbours = &mut scratch.neighbours;
        neighbours.clear();
        let similarity = &scratch.similarity;
        neighbours.extend(scratch.touched.iter().map(|&r| (similarity[r as usize], r)));
        let order = |a: &(f32, u32), b: &(f32, u32)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
        let k = self.stored.params.k;
        if neighbours.len() > k {
            neighbours.select_nth_unstable_by(k - 1, order);
            neighbours.truncate(k);
        }
        neighbours.sort_unstable_by(order);
    }

    /// Each class's summed similarity over the neighbours, or the class priors when there are
    /// none.
    fn vote(&self, neighbours: &[(f32, u32)], out: &mut [f64]) {
        out.iter_mut().for_each(|v| *v = 0.0);
        if neighbours.is_empty() {
            let docs = &self.stored.class_docs;
            let total = docs.iter().sum::<u64>().max(1) as f64;
            for (v, &d) in out.iter_mut().zip(docs) {
                *v = d as f64 / total;
            }
            return;
        }
        for &(similarity, row) in neighbours {
            let class = self.stored.labels[row as usize] as usize;
            if let Some(v) = out.get_mut(class) {
                *v += f64::from(similarity);
            }
        }
    }
}

/// Turns votes into probabilities, in place: each class's share of the votes, with a floor of
/// `PROBABILITY_FLOOR` so that no class is impossible. Votes are sums of similarities, not log
/// probabilities, so no softmax: a class with twice the votes is twice as probable.
pub(crate) fn normalize_votes(votes: &mut [f64]) {
    let total: f64 = votes.iter().sum();
    let classes = votes.len() as f64;
    for v in votes.iter_mut() {
        let share = if total > 0.0 {
            *v / total
        } else {
            1.0 / classes
        };
        *v = (share + PROBABILITY_FLOOR) / (1.0 + classes * PROBABILITY_FLOOR);
    }
}

mod explain;

#[cfg(test)]
mod tests;
