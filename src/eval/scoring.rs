//! Scoring a trained classifier on rows whose classes are known.

use super::{Confusion, Report};
use crate::model::{Classifier, Decision};
use crate::vectorize::{matrix_row, Matrix};

/// Evaluates `classifier` on the rows of `x` with true classes `truth`, deciding the most
/// probable class.
pub fn evaluate(classifier: &Classifier, labels: &[String], x: &Matrix, truth: &[u32]) -> Report {
    let mut confusion = Confusion::new(labels.to_vec());
    let mut probabilities = vec![0.0; labels.len()];
    for (i, &t) in truth.iter().enumerate() {
        let (indices, values) = matrix_row(x, i);
        classifier.probabilities_of(indices, values, &mut probabilities);
        confusion.add(t as usize, Decision::MostProbable.decide(&probabilities));
    }
    confusion.report()
}

/// Whether `classifier` gives each row of `x` its class in `truth`, deciding as [`evaluate`]
/// does.
pub fn correct(classifier: &Classifier, x: &Matrix, truth: &[u32]) -> Vec<bool> {
    let mut probabilities = vec![0.0; classifier.classes()];
    truth
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let (indices, values) = matrix_row(x, i);
            classifier.probabilities_of(indices, values, &mut probabilities);
            Decision::MostProbable.decide(&probabilities) == t as usize
        })
        .collect()
}

/// The mean log loss of `classifier` on the rows of `x` with true classes `truth`: the mean of
/// −ln P(true class).
pub(crate) fn log_loss(classifier: &Classifier, classes: usize, x: &Matrix, truth: &[u32]) -> f64 {
    let mut probabilities = vec![0.0; classes];
    let total: f64 = truth
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let (indices, values) = matrix_row(x, i);
            classifier.probabilities_of(indices, values, &mut probabilities);
            -probabilities[t as usize].max(f64::MIN_POSITIVE).ln()
        })
        .sum();
    total / truth.len().max(1) as f64
}
