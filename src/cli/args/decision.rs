//! How `classify` and `eval` turn class probabilities into a decision.

use std::path::PathBuf;

use clap::Args;

use bowline::jobs::settings::{CostMatrix, Decision};
use bowline::Result;

/// How `classify` and `eval` turn class probabilities into a decision.
#[derive(Debug, Args)]
pub struct DecisionArgs {
    /// Choose the class of least expected cost under this cost matrix (TSV: a header of true
    /// classes, then one row of costs per predicted class; see README).
    #[arg(long, value_name = "FILE", conflicts_with = "threshold")]
    pub costs: Option<PathBuf>,
    /// Two-class models: choose the positive class when its probability is at least P.
    #[arg(long, value_name = "P")]
    pub threshold: Option<f64>,
    /// The class --threshold is on [default: the model's second class].
    #[arg(long, value_name = "LABEL", requires = "threshold")]
    pub positive: Option<String>,
}

impl DecisionArgs {
    /// The decision, validated against the model's classes.
    pub fn decision(&self, labels: &[String]) -> Result<Decision> {
        match (&self.costs, self.threshold) {
            (Some(path), _) => Ok(Decision::Costs(CostMatrix::load(path, labels)?)),
            (None, Some(at)) => Decision::threshold(labels, at, self.positive.as_deref()),
            (None, None) => Ok(Decision::MostProbable),
        }
    }
}
