//! Evaluation: how well predictions match the truth.

mod metrics;
mod prequential;
mod split;

pub use metrics::{ClassMetrics, Confusion, Report};
pub use prequential::Prequential;
pub use split::{dev_split, folds};
