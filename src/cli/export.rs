//! `bowline export`: a model as JSON, for other tools to read.

use std::path::PathBuf;

use clap::Args;

use super::Outcome;
use bowline::jobs::export::Export;
use bowline::Result;

/// Flags of `bowline export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A model written by `bowline train` (or `update`, `learn`, `select`).
    pub model: PathBuf,
    /// Write JSON, the one format there is (required, so that the command's meaning stays the
    /// same if others come).
    #[arg(long, required = true)]
    pub json: bool,
    /// Where to write; - for stdout.
    #[arg(short, long, default_value = "-", value_name = "FILE")]
    pub output: PathBuf,
}

/// Runs the command.
pub fn run(args: ExportArgs) -> Result<Outcome> {
    let job = Export {
        model: args.model,
        output: args.output,
    };
    job.run()?;
    Ok(Outcome::Clean)
}
