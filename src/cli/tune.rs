//! `--tune` for `train` and `cv`: the flags of the search, its progress, and its trials table.

use std::io::IsTerminal;

use clap::Args;
use serde::Serialize;

use bowline::classifier::{RoundTime, Trial, TuneOptions, TuneOutcome, SIGNIFICANT};
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
