//! Scoring documents against a trained model: a score per class whose highest is the prediction.
//!
//! Naive Bayes weights are dense in principle (every term has a weight in every class) but
//! simple in structure: a term a class never saw has a weight that depends on the class alone,
//! or on the term alone. [`SparseScorer`] keeps that shared part and stores a delta only where a
//! class has counts, so a model over a million bigrams stays as small as its counts and is
//! ready in milliseconds after loading. The SVM's weights are truly dense and it scores itself, as
//! does k-NN, whose scores are its neighbours' votes.

use super::naive_bayes::ClassSums;
use super::{Knn, LinearSvm};

/// Scores one document for every class.
#[derive(Debug, Clone)]
pub enum Scorer<'a> {
    /// A linear SVM's decision values.
    Dense(&'a LinearSvm),
    /// Naive Bayes joint log-likelihoods (complement NB: normalized complement weights).
    Sparse(&'a SparseScorer),
    /// Another scorer on a subset of the columns: `columns[j]` is column j's place there, or
    /// `u32::MAX` when it is not used.
    Selected(&'a [u32], Box<Scorer<'a>>),
    /// k-nearest neighbours' similarity-weighted votes.
    Knn(&'a Knn),
}

impl Scorer<'_> {
    /// Fills `out` (one slot per class) with the scores of one weighted row. Columns beyond
    /// the model's features (terms it never saw) are ignored.
    pub fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        match self {
            Scorer::Dense(svm) => svm.scores(indices, values, out),
            Scorer::Sparse(scorer) => scorer.scores(indices, values, out),
            Scorer::Knn(knn) => knn.scores(indices, values, out),
            Scorer::Selected(columns, inner) => {
                // Selected columns are numbered in vocabulary order, so the row stays sorted.
                let (kept, weights): (Vec<u32>, Vec<f64>) = indices
                    .iter()
                    .zip(values)
                    .filter_map(|(&j, &v)| match columns.get(j as usize) {
                        Some(&c) if c != u32::MAX => Some((c, v)),
                        _ => None,
                    })
                    .unzip();
                inner.scores(&kept, &weights, out);
            }
        }
    }
}

/// score_c = bias_c + scale_c · (Σ_j x_j base_j + slope_c Σ_j x_j + Σ_j x_j delta_cj), with the
/// deltas stored feature-major for the (few) classes that have them.
#[derive(Debug, Clone, PartialEq)]
pub struct SparseScorer {
    /// Per class: added last.
    pub bias: Vec<f64>,
    /// Per class: weight of every term, on top of `base` and the deltas.
    pub slope: Vec<f64>,
    /// Per class: multiplies everything but the bias.
    pub scale: Vec<f64>,
    /// Per feature, shared by all classes; empty when zero.
    pub base: Vec<f64>,
    /// Treat every stored value as 1 (Bernoulli presence).
    pub binary: bool,
    features: usize,
    /// Feature j's deltas are `deltas[starts[j]..starts[j + 1]]`, as (class, delta).
    starts: Vec<u32>,
    deltas: Vec<(u32, f64)>,
}

impl SparseScorer {
    /// A scorer with the given biases, slopes 0, scales 1, no base, and a delta wherever a
    /// class has counts: `delta(c, j, s)` for class `c`'s sum `s` of feature `j`. Returns it
    /// with each class's sum of deltas. The deltas are laid out feature-major by a counting
    /// sort, in time linear in their number.
    pub fn new(
        features: usize,
        bias: Vec<f64>,
        sums: &[ClassSums],
        mut delta: impl FnMut(usize, u32, f64) -> f64,
    ) -> (Self, Vec<f64>) {
        let classes = bias.len();
        let mut starts = vec![0u32; features + 1];
        for &j in sums.iter().flat_map(|s| &s.indices) {
            starts[j as usize + 1] += 1;
        }
        for j in 0..features {
            starts[j + 1] += starts[j];
        }
        let mut next = starts.clone();
        let mut deltas = vec![(0u32, 0.0); starts[features] as usize];
        let mut totals = vec![0.0; classes];
        for (c, class) in sums.iter().enumerate() {
            for (&j, &s) in class.indices.iter().zip(&class.values) {
                let d = delta(c, j, s);
                totals[c] += d;
                let slot = &mut next[j as usize];
                deltas[*slot as usize] = (c as u32, d);
                *slot += 1;
            }
        }
        let scorer = SparseScorer {
            bias,
            slope: vec![0.0; classes],
            scale: vec![1.0; classes],
            base: Vec::new(),
            binary: false,
            features,
            starts,
            deltas,
        };
        (scorer, totals)
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.bias.len()
    }

    /// Fills `out` (one slot per class) with the scores of one row.
    pub fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|s| *s = 0.0);
        let (mut shared, mut total) = (0.0, 0.0);
        for (&j, &value) in indices.iter().zip(values) {
            let j = j as usize;
            if j >= self.features || (self.binary && value <= 0.0) {
                continue;
            }
            let x = if self.binary { 1.0 } else { value };
            total += x;
            if let Some(base) = self.base.get(j) {
                shared += x * base;
            }
            let span = self.starts[j] as usize..self.starts[j + 1] as usize;
            for &(c, delta) in &self.deltas[span] {
                out[c as usize] += x * delta;
            }
        }
        for (c, score) in out.iter_mut().enumerate() {
            *score = self.bias[c] + self.scale[c] * (shared + self.slope[c] * total + *score);
        }
    }
}
