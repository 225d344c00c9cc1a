//! `bowline rank`: the terms most tied to the classes of a labelled corpus.

use std::path::PathBuf;

use clap::Args;

use super::{choice, log::Logged, AnalysisArgs, InputArgs, Outcome, RuntimeArgs};
use bowline::jobs::rank::Rank;
use bowline::jobs::settings::RankBy;
use bowline::jobs::Placement;
use bowline::render::{ranking_json, ranking_table};
use bowline::Result;

/// Flags of `bowline rank`.
#[derive(Debug, Args)]
pub struct RankArgs {
    /// A labelled corpus: class folders, a .tsv or a .jsonl file.
    pub corpus: PathBuf,
    /// The score.
    #[arg(long, value_parser = choice::<RankBy>(), default_value = "chi2")]
    pub by: RankBy,
    /// List the top terms of each class (χ² and mutual information only).
    #[arg(long)]
    pub per_class: bool,
    /// How many terms to list (per class with --per-class).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub top: usize,
    /// Leave out terms found in fewer documents than this.
    #[arg(long, default_value_t = 1, value_name = "DOCS")]
    pub min_df: u32,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

/// Runs the command.
pub fn run(args: RankArgs) -> Result<Outcome> {
    let job = Rank {
        corpus: args.corpus,
        analysis: args.analysis.flags().config_over(&Default::default())?,
        by: args.by,
        per_class: args.per_class,
        top: args.top,
        min_df: args.min_df,
        read: args.input.flags().labelled_options()?,
        pipeline: args.runtime.start()?,
    };
    crate::memory::prepare_for(&job.analysis);
    let logged = Logged::new(job.read.max_doc_bytes, indicatif::ProgressBar::hidden());
    let listings = job.run(logged.note())?;
    let shown = if args.json {
        ranking_json(&listings, args.by)?
    } else {
        ranking_table(&listings, args.by)
    };
    super::print_or_quiet(&shown)?;
    logged.finish(args.runtime.quiet, &Placement::Local)
}
