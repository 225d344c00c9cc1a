//! A search's results (`train --tune`, `cv --tune`): the trials table or its JSON, and the one
//! line that says what tuning chose and why, as `eval` and `inspect` show it.

use serde::Serialize;

use super::json::json_text;
use crate::classifier::{RoundTime, Trial, TuneOutcome, SIGNIFICANT};
use crate::error::Result;
use crate::model::Tuned;

/// What tuning chose and why: the flags, the evidence, and whether the starting configuration
/// was kept for want of a significantly better one.
pub(crate) fn chosen_text(t: &Tuned) -> String {
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

/// The JSON form of a search's results.
#[derive(Serialize)]
struct Report<'a> {
    chosen: &'a str,
    accuracy: f64,
    stopped_by_budget: bool,
    incumbent: &'a Trial,
    kept_incumbent: bool,
    rounds: &'a [RoundTime],
    trials: &'a [Trial],
}

/// The flags chosen and their cross-validated accuracy, as the model's tuning record says.
fn chosen(outcome: &TuneOutcome) -> (&str, f64) {
    let tuned = outcome.model.model().info.tuned.as_ref();
    tuned.map_or(("", 0.0), |t| (t.flags.as_str(), t.accuracy))
}

/// The search's results as JSON, with `schema_version` first.
pub fn trials_json(outcome: &TuneOutcome) -> Result<String> {
    let (chosen, accuracy) = chosen(outcome);
    json_text(&Report {
        chosen,
        accuracy,
        stopped_by_budget: outcome.stopped_by_budget,
        incumbent: &outcome.incumbent,
        kept_incumbent: outcome.kept_incumbent(),
        rounds: &outcome.rounds,
        trials: &outcome.trials,
    })
}

/// The search's results as text: every trial, each round's share and time, and the choice.
pub fn trials_table(outcome: &TuneOutcome) -> String {
    let (chosen, accuracy) = chosen(outcome);
    let mut out = format!(
        "{:>5}  {:>6}  {:>8}  setting\n",
        "round", "share", "accuracy"
    );
    for t in &outcome.trials {
        out += &format!(
            "{:>5}  {:>6.3}  {:>8.4}  {}\n",
            t.round, t.share, t.accuracy, t.setting.flags
        );
    }
    out += "\n";
    for (i, r) in outcome.rounds.iter().enumerate() {
        out += &format!(
            "round {}: {} trials on {:.3} of the documents in {:.1} s\n",
            i + 1,
            r.trials,
            r.share,
            r.seconds
        );
    }
    let why = if outcome.stopped_by_budget {
        "the budget ended the search"
    } else {
        "every round done"
    };
    out += &format!("\nchosen ({why}): {chosen}\ncross-validated accuracy {accuracy:.4}\n");
    if outcome.kept_incumbent() {
        out += &format!(
            "kept the starting configuration: no other was better by {SIGNIFICANT} standard \
             errors of the paired difference on the same held-out rows\n"
        );
    }
    out
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
