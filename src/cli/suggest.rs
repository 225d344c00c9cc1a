//! `bowline suggest`: the pool documents whose labels would help a model most.

use std::path::PathBuf;

use clap::Args;

use super::{choice, log::Logged, InputArgs, Outcome, RuntimeArgs};
use bowline::jobs::settings::Strategy;
use bowline::jobs::suggest::Suggest;
use bowline::jobs::Placement;
use bowline::render::{suggestions_json, suggestions_table};
use bowline::Result;

/// Flags of `bowline suggest`.
#[derive(Debug, Args)]
pub struct SuggestArgs {
    /// The model file.
    pub model: PathBuf,
    /// The pool of unlabeled documents: files, folders of files, TSV (`id<TAB>text`) or JSONL.
    #[arg(required = true)]
    pub pool: Vec<PathBuf>,
    /// Documents to suggest, at most.
    #[arg(long, default_value_t = 20)]
    pub n: usize,
    /// How they are chosen.
    #[arg(long, value_parser = choice::<Strategy>(), default_value = "uncertainty")]
    pub strategy: Strategy,
    /// Seed of the random strategy.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

/// Runs the command.
pub fn run(args: SuggestArgs) -> Result<Outcome> {
    let read = args.input.flags().unlabelled_options()?;
    let pipeline = args.runtime.start()?;
    let logged = Logged::new(read.max_doc_bytes, indicatif::ProgressBar::hidden());
    let (n, strategy, seed) = (args.n, args.strategy, args.seed);
    let job = Suggest {
        model: args.model,
        pool: args.pool,
        read,
        pipeline,
        n,
        strategy,
        seed,
    };
    let picked = job.run(logged.note())?;
    super::print_or_quiet(&match args.json {
        true => suggestions_json(strategy, &picked)?,
        false => suggestions_table(&picked),
    })?;
    logged.finish(args.runtime.quiet, &Placement::Local)
}
