//! Naive Bayes scores taken apart by term, relative to the mean over the classes (see
//! [`crate::model::explain`]).

use super::{NaiveBayes, Priors};
use crate::model::explain::Attribution;

impl NaiveBayes {
    /// Class `class`'s score of one weighted row, less its mean over the classes, taken apart:
    /// each term's value times its `relative_weights`, and the
    /// bias (the log prior and, for Bernoulli NB, every term's absence) likewise centered.
    pub fn attribute(&self, indices: &[u32], values: &[f64], class: usize) -> Attribution {
        let scorer = self.scorer();
        let mut weights = vec![0.0; self.classes()];
        let mut terms = Vec::with_capacity(indices.len());
        for (&j, &value) in indices.iter().zip(values) {
            if let Some(x) = scorer.unit_value(j, value) {
                self.relative_weights(j as usize, &mut weights);
                terms.push((j, x * weights[class]));
            }
        }
        let mut scores = vec![0.0; self.classes()];
        scorer.scores(indices, values, &mut scores);
        Attribution {
            score: scores[class] - mean(&scores),
            bias: scorer.bias[class] - mean(&scorer.bias),
            terms,
        }
    }

    /// Fills `out` (one slot per class) with what one unit of feature `j` adds to each class's
    /// score, less its mean over the classes: a log-likelihood ratio against the average class
    /// (for Bernoulli NB, of the term's presence over its absence). `j` must be below
    /// [`features`](NaiveBayes::features).
    pub(crate) fn relative_weights(&self, j: usize, out: &mut [f64]) {
        self.scorer().term_weights(j, out);
        let shared = mean(out);
        out.iter_mut().for_each(|w| *w -= shared);
    }

    /// The class priors.
    pub fn priors(&self) -> &Priors {
        &self.priors
    }

    /// Each class's feature sums (for Bernoulli NB, document counts), sparse, in class order.
    pub(crate) fn class_sums(&self) -> impl ExactSizeIterator<Item = (&[u32], &[f64])> {
        self.sums.iter().map(|s| (&s.indices[..], &s.values[..]))
    }
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}
