//! Evaluation: how well predictions match the truth, and the splits that keep the truth apart
//! from training.

mod metrics;
mod multilabel;
mod prequential;
mod scoring;
mod split;

pub use metrics::{ClassMetrics, Confusion, Report};
pub use multilabel::{LabelScores, MultiLabelCounts, MultiLabelMetrics};
pub use prequential::Prequential;
pub use scoring::{evaluate, log_loss};
pub use split::{dev_split, folds};
