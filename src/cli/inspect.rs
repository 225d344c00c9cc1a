//! `bowline inspect`: what a model is, how it reads text, where it came from, and the terms that
//! tell each of its classes.

use std::path::PathBuf;

use clap::Args;

use super::Outcome;
use bowline::jobs::inspect::Inspect;
use bowline::Result;

/// Flags of `bowline inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// A model written by `bowline train` (or `update`, `learn`, `select`).
    pub model: PathBuf,
    /// Terms shown per class: by weight for the SVM, by log-likelihood ratio against the mean of
    /// the classes for naive Bayes, and for k-NN, which has no per-class weights, by weight
    /// summed over the class's training documents.
    #[arg(long, default_value_t = 10, value_name = "K")]
    pub top: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Runs the command.
pub fn run(args: InspectArgs) -> Result<Outcome> {
    let job = Inspect {
        model: args.model,
        top: args.top,
        json: args.json,
    };
    super::print_or_quiet(&job.run()?)?;
    Ok(Outcome::Clean)
}
