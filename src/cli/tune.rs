//! `--tune` for `train` and `cv`: the flags of the search, its progress, and its trials table.

use clap::Args;

use bowline::jobs::settings::{TuneOptions, TuneOutcome};
use bowline::Result;

/// The search's flags.
#[derive(Debug, Clone, Args)]
pub struct TuneArgs {
    /// Search stop words, stemming, word and character n-grams, min-df, tf, idf and the
    /// classifier's parameter (with --kernel: the kernel, gamma and C) by cross-validation on
    /// this corpus alone (successive halving): train keeps the best, cv reports the trials.
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
    let template = "{bar:40} {pos}/{len} trials, {elapsed}";
    super::on_terminal(indicatif::ProgressBar::new(0), template)
}

/// The trials table, or its JSON.
pub fn render(outcome: &TuneOutcome, json: bool) -> Result<String> {
    match json {
        true => bowline::render::trials_json(outcome),
        false => Ok(bowline::render::trials_table(outcome)),
    }
}
