//! What tuning chose for a model and why, as `eval` and `inspect` show it.

use crate::classifier::SIGNIFICANT;
use crate::model::Tuned;

/// The settings `train --tune` chose, with the cross-validated evidence and, when the starting
/// configuration was kept, the better-looking trial it was kept over.
pub fn chosen_text(t: &Tuned) -> String {
    let evidence = format!(
        "cross-validated accuracy {:.4} on the training corpus, {} folds",
        t.accuracy, t.folds
    );
    match t.best_not_taken {
        None => format!(
            "{} ({evidence}, best of {} trials, {:.1} s)",
            t.flags, t.trials, t.seconds
        ),
        Some(best) => format!(
            "{} ({evidence}, {:.1} s): the starting configuration, kept because the best of {} \
             trials ({best:.4}) was not better by {SIGNIFICANT} standard errors",
            t.flags, t.seconds, t.trials
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chosen_text_says_why_the_configuration_was_chosen() {
        let mut tuned = Tuned {
            flags: "--c 3".into(),
            accuracy: 0.88144,
            trials: 390,
            folds: 3,
            seconds: 42.04,
            best_not_taken: None,
        };
        let evidence = "cross-validated accuracy 0.8814 on the training corpus, 3 folds";
        assert_eq!(
            chosen_text(&tuned),
            format!("--c 3 ({evidence}, best of 390 trials, 42.0 s)")
        );
        tuned.best_not_taken = Some(0.8829);
        assert_eq!(
            chosen_text(&tuned),
            format!(
                "--c 3 ({evidence}, 42.0 s): the starting configuration, kept because the best \
                 of 390 trials (0.8829) was not better by 1.96 standard errors"
            )
        );
    }
}
