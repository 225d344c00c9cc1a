//! A multi-label model's decision: its own per-label thresholds, which the decision flags of
//! `eval` and `classify` cannot change.

use super::DecisionArgs;
use bowline::{Error, Result, TextClassifier};

/// Refuses `--threshold` and `--costs` for a multi-label model, which decides by its own
/// per-label thresholds.
pub fn refuse_decision_flags(classifier: &TextClassifier, flags: &DecisionArgs) -> Result<()> {
    if classifier.is_multi_label() && (flags.costs.is_some() || flags.threshold.is_some()) {
        return Err(Error::Config(
            "a multi-label model decides by its per-label thresholds; --threshold and --costs \
             do not apply"
                .into(),
        ));
    }
    Ok(())
}
