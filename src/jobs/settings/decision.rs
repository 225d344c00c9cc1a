//! How `classify` and `eval` turn class probabilities into a decision, as given.

use std::path::PathBuf;

use crate::error::{Error, Result};
use crate::model::{CostMatrix, Decision};
use crate::TextClassifier;

/// The decision as a user gives it: a cost matrix, or a threshold on one class; neither takes
/// the most probable class.
#[derive(Debug, Clone, Default)]
pub struct DecisionFlags {
    /// A cost matrix file (TSV: a header of true classes, then one row of costs per predicted
    /// class).
    pub costs: Option<PathBuf>,
    /// Two-class models: the positive class's probability at which it is chosen.
    pub threshold: Option<f64>,
    /// The class the threshold is on [default: the model's second class].
    pub positive: Option<String>,
}

impl DecisionFlags {
    /// The decision, validated against the model's classes. A multi-label model decides by its
    /// own per-label thresholds, so a threshold or costs given for one are refused.
    pub fn decision(&self, classifier: &TextClassifier) -> Result<Decision> {
        let given = self.costs.is_some() || self.threshold.is_some();
        if given && classifier.is_multi_label() {
            return Err(Error::Config(
                "a multi-label model decides by its per-label thresholds; --threshold and \
                 --costs do not apply"
                    .into(),
            ));
        }
        let labels = classifier.labels();
        match (&self.costs, self.threshold) {
            (Some(path), _) => Ok(Decision::Costs(CostMatrix::load(path, labels)?)),
            (None, Some(at)) => Decision::threshold(labels, at, self.positive.as_deref()),
            (None, None) => Ok(Decision::MostProbable),
        }
    }
}
