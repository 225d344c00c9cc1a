//! `--tune` for `train` and `cv`: the flags of the search, its progress, and its trials table.

use std::io::IsTerminal;

use clap::Args;
use serde::Serialize;

use bowline::classifier::{RoundTime, Trial, TuneOptions, TuneOutcome, SIGNIFICANT};
use bowline::model::Tuned;
use bowline::Result;

/// The search's flags.
#[derive(Debug, Clone, Args)]
pub struct TuneArgs {
    /// Search stop words, stemming, word and character n-grams, min-df, tf, idf and the
    /// classifier's parameter by cross-validation on this corpus alone (successive halving):
    /// train keeps the best, cv reports the trials.
    #[arg(long)]
    pub tune: bool,
    /// Seconds the search may take.
    #[arg(
        long,
        default_value_t = 60.0,
        value_name = "SECONDS",
        requires = "tune"
    )]
    pub tune_budget: f64,
    /// Configurations at most, a seeded sample of the grid [default: the whole grid].
    #[arg(long, value_name = "N", requires = "tune")]
    pub tune_trials: Option<usize>,
    /// Cross-validation folds of the search.
    #[arg(long, default_value_t = 3, value_name = "K", requires = "tune")]
    pub tune_folds: usize,
}

impl TuneArgs {
    /// The search's options; `seed` seeds folds, subsamples and the grid's sample.
    pub fn options(&self, seed: u64) -> TuneOptions {
        TuneOptions {
            folds: self.tune_folds,
            seed,
            budget: self.tune_budget,
            max_trials: self.tune_trials,
        }
    }
}

/// What tuning chose and why, as `eval` and `inspect` show it.
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

/// Trials done on stderr when it is a terminal, hidden otherwise.
pub fn progress_bar() -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(0);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} trials, {elapsed}")
    {
        bar.set_style(style);
    }
    bar
}

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

/// The trials table, or its JSON.
pub fn render(outcome: &TuneOutcome, json: bool) -> Result<String> {
    let tuned = outcome.model.model().info.tuned.as_ref();
    let (chosen, accuracy) = tuned.map_or(("", 0.0), |t| (t.flags.as_str(), t.accuracy));
    if json {
        let report = Report {
            chosen,
            accuracy,
            stopped_by_budget: outcome.stopped_by_budget,
            incumbent: &outcome.incumbent,
            kept_incumbent: outcome.kept_incumbent(),
            rounds: &outcome.rounds,
            trials: &outcome.trials,
        };
        return super::json_text(&report);
    }
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
    Ok(out)
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
