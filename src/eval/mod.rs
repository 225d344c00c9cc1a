//! Evaluation: how well predictions match the truth.

mod metrics;
mod prequential;

pub use metrics::{ClassMetrics, Confusion, Report};
pub use prequential::Prequential;
