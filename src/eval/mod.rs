//! Evaluation: how well predictions match the truth.

mod metrics;

pub use metrics::{ClassMetrics, Confusion, Report};
