//! How `classify` and `eval` turn class probabilities into a decision.

use std::path::PathBuf;

use clap::Args;

use bowline::jobs::settings::DecisionFlags;

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
    /// The settings as the library takes them.
    pub fn flags(&self) -> DecisionFlags {
        DecisionFlags {
            costs: self.costs.clone(),
            threshold: self.threshold,
            positive: self.positive.clone(),
        }
    }
}
