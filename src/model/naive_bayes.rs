//! Naive Bayes — multinomial, complement (Rennie et al. 2003, with weight normalization) and
//! Bernoulli — kept as exact sufficient statistics, so adding documents later gives the same
//! model as training on all of them at once.
//!
//! Everything is in log space: a document's score is a sum of per-term log weights, so long
//! documents never underflow. Scoring a document costs O(non-zeros × classes): the Bernoulli
//! model's absent-term factors are folded into a per-class constant.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::vectorize::Matrix;

/// Which naive Bayes event model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NbKind {
    /// Term counts (or weights) drawn from a per-class multinomial.
    Multinomial,
    /// Weights estimated from every other class, normalized per class.
    Complement,
    /// Term presence and absence, as binary features.
    Bernoulli,
}

/// Class prior probabilities.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Priors {
    /// Proportional to the training documents per class.
    Learned,
    /// Equal for every class.
    Uniform,
    /// Given by the user, one per class, normalized to sum to 1.
    Given(Vec<f64>),
}

/// A naive Bayes model as counts: documents per class and, per class, the sum of each feature
/// (for Bernoulli, the number of documents that contain it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NaiveBayes {
    kind: NbKind,
    alpha: f64,
    priors: Priors,
    class_docs: Vec<f64>,
    /// Class-major: `feature_sums[c * n_features + j]`.
    feature_sums: Vec<f64>,
    n_features: usize,
}

impl NaiveBayes {
    /// An untrained model. `alpha` is the additive (Lidstone) smoothing, > 0.
    pub fn new(
        kind: NbKind,
        alpha: f64,
        priors: Priors,
        classes: usize,
        features: usize,
    ) -> Result<Self> {
        if !(alpha > 0.0 && alpha.is_finite()) {
            return Err(Error::Config(format!(
                "smoothing alpha must be > 0, got {alpha}"
            )));
        }
        if let Priors::Given(p) = &priors {
            if p.len() != classes || p.iter().any(|&x| !(x > 0.0 && x.is_finite())) {
                return Err(Error::Config(format!("{classes} positive priors needed")));
            }
        }
        Ok(NaiveBayes {
            kind,
            alpha,
            priors,
            class_docs: vec![0.0; classes],
            feature_sums: vec![0.0; classes * features],
            n_features: features,
        })
    }

    /// The event model.
    pub fn kind(&self) -> NbKind {
        self.kind
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.class_docs.len()
    }

    /// Number of features.
    pub fn features(&self) -> usize {
        self.n_features
    }

    /// Training documents seen per class.
    pub fn class_docs(&self) -> &[f64] {
        &self.class_docs
    }

    /// Adds labelled rows: `labels[i]` is row `i`'s class.
    pub fn add(&mut self, x: &Matrix, labels: &[u32]) {
        for (row, &class) in x.outer_iterator().zip(labels) {
            let c = class as usize;
            self.class_docs[c] += 1.0;
            let sums = &mut self.feature_sums[c * self.n_features..(c + 1) * self.n_features];
            for (&j, &value) in row.indices().iter().zip(row.data()) {
                sums[j as usize] += match self.kind {
                    NbKind::Bernoulli => f64::from(u8::from(value > 0.0)),
                    _ => value,
                };
            }
        }
    }

    /// Renumbers features and adds classes, for an update whose vocabulary grew: `new_of_old[j]`
    /// is old feature `j`'s new column; the statistics of new features and classes start at 0.
    pub fn remap(&mut self, new_of_old: &[u32], features: usize, classes: usize) {
        let mut sums = vec![0.0; classes * features];
        for c in 0..self.classes() {
            for (j, &new) in new_of_old.iter().enumerate() {
                sums[c * features + new as usize] = self.feature_sums[c * self.n_features + j];
            }
        }
        self.class_docs.resize(classes, 0.0);
        if let Priors::Given(p) = &mut self.priors {
            p.resize(classes, 1.0 / classes as f64);
        }
        self.feature_sums = sums;
        self.n_features = features;
    }

    fn log_priors(&self) -> Vec<f64> {
        let k = self.classes() as f64;
        let raw: Vec<f64> = match &self.priors {
            Priors::Learned => self.class_docs.clone(),
            Priors::Uniform => vec![1.0; self.classes()],
            Priors::Given(p) => p.clone(),
        };
        let total: f64 = raw.iter().sum();
        raw.iter()
            .map(|&p| {
                if total > 0.0 {
                    (p / total).ln()
                } else {
                    -k.ln()
                }
            })
            .collect()
    }

    /// Precomputes per-class log weights for scoring.
    pub fn scorer(&self) -> LinearScorer {
        let (k, n, alpha) = (self.classes(), self.n_features, self.alpha);
        let sums = |c: usize| &self.feature_sums[c * n..(c + 1) * n];
        let mut weights = vec![0.0; k * n];
        let mut bias = self.log_priors();
        let mut binary = false;
        match self.kind {
            NbKind::Multinomial => {
                for c in 0..k {
                    let denominator = (sums(c).iter().sum::<f64>() + alpha * n as f64).ln();
                    for (w, &s) in weights[c * n..(c + 1) * n].iter_mut().zip(sums(c)) {
                        *w = (s + alpha).ln() - denominator;
                    }
                }
            }
            NbKind::Complement => {
                let mut all = vec![0.0; n];
                for c in 0..k {
                    all.iter_mut().zip(sums(c)).for_each(|(a, &s)| *a += s);
                }
                let grand: f64 = all.iter().sum();
                for c in 0..k {
                    let own: f64 = sums(c).iter().sum();
                    let denominator = (grand - own + alpha * n as f64).ln();
                    let row = &mut weights[c * n..(c + 1) * n];
                    for ((w, &s), &a) in row.iter_mut().zip(sums(c)).zip(&all) {
                        *w = (a - s + alpha).ln() - denominator;
                    }
                    // Rennie et al.'s normalization: each class's weights sum to 1 in magnitude,
                    // so classes with more data do not dominate. Both sums are negative, so the
                    // ratio is positive and largest for terms rare outside the class.
                    let total: f64 = row.iter().sum();
                    row.iter_mut().for_each(|w| *w /= total);
                }
                // Complement NB ignores priors (as scikit-learn does with more than one class).
                bias = vec![0.0; k];
            }
            NbKind::Bernoulli => {
                binary = true;
                for c in 0..k {
                    let docs = self.class_docs[c];
                    let mut absent = 0.0;
                    for (w, &s) in weights[c * n..(c + 1) * n].iter_mut().zip(sums(c)) {
                        let p = (s + alpha) / (docs + 2.0 * alpha);
                        let (present, missing) = (p.ln(), (1.0 - p).ln());
                        absent += missing;
                        *w = present - missing;
                    }
                    bias[c] += absent;
                }
            }
        }
        LinearScorer::from_class_major(&weights, bias, n, binary)
    }
}

/// Scores `bias[c] + Σ_j x_j · w[c][j]` for every class: the joint log-likelihood of the naive
/// Bayes models, or the decision values of a linear model.
///
/// Weights are stored feature-major, so one term's weights for all classes sit together and a
/// document touches one cache line per term rather than one per term and class.
#[derive(Debug, Clone, PartialEq)]
pub struct LinearScorer {
    /// Feature-major: `weights[j * classes + c]`.
    weights: Vec<f64>,
    bias: Vec<f64>,
    features: usize,
    /// Treat every stored value as 1 (Bernoulli presence).
    binary: bool,
}

impl LinearScorer {
    /// A scorer from class-major weights (`weights[c * features + j]`) and one bias per class.
    pub fn from_class_major(
        weights: &[f64],
        bias: Vec<f64>,
        features: usize,
        binary: bool,
    ) -> Self {
        let k = bias.len();
        let mut transposed = vec![0.0; weights.len()];
        for c in 0..k {
            for j in 0..features {
                transposed[j * k + c] = weights[c * features + j];
            }
        }
        LinearScorer {
            weights: transposed,
            bias,
            features,
            binary,
        }
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.bias.len()
    }

    /// Fills `out` (one slot per class) with the scores of one row. Columns beyond the model's
    /// features (terms it never saw) are ignored.
    pub fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        let k = self.bias.len();
        out.copy_from_slice(&self.bias);
        for (&j, &value) in indices.iter().zip(values) {
            let j = j as usize;
            if j >= self.features || (self.binary && value <= 0.0) {
                continue;
            }
            let x = if self.binary { 1.0 } else { value };
            let weights = &self.weights[j * k..(j + 1) * k];
            out.iter_mut()
                .zip(weights)
                .for_each(|(score, w)| *score += x * w);
        }
    }
}

/// Turns joint log-likelihoods into posterior probabilities, in place, by log-sum-exp.
pub fn normalize_log_probabilities(scores: &mut [f64]) {
    let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let total: f64 = scores.iter().map(|s| (s - max).exp()).sum();
    let log_total = max + total.ln();
    scores.iter_mut().for_each(|s| *s = (*s - log_total).exp());
}

#[cfg(test)]
mod tests;
