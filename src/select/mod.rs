//! Feature selection: rankings of terms by how they relate to the classes, and greedy forward
//! selection of a feature set against a dev split.

mod greedy;
mod rank;

pub use greedy::{Event, Greedy, Metric, Step};
pub(crate) use greedy::{Problem, Selection};
pub(crate) use rank::Presence;
pub use rank::RankBy;

use crate::eval::{evaluate, log_loss};
use crate::model::Classifier;
use crate::vectorize::Matrix;

/// `classifier`'s value of `metric` on the rows of `x` with true classes `truth`.
pub(crate) fn metric_of(
    classifier: &Classifier,
    labels: &[String],
    x: &Matrix,
    truth: &[u32],
    metric: Metric,
) -> f64 {
    match metric {
        Metric::Accuracy => evaluate(classifier, labels, x, truth).accuracy,
        Metric::MacroF1 => evaluate(classifier, labels, x, truth).macro_f1,
        Metric::LogLoss => log_loss(classifier, labels.len(), x, truth),
    }
}
