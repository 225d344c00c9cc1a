//! `bowline stats`: figures about a corpus before classifying it, as tables, JSON or HTML.

use std::path::PathBuf;

use clap::Args;

use super::{log::Logged, print_or_quiet, AnalysisArgs, InputArgs, Outcome, RuntimeArgs};
use bowline::jobs::stats::Stats;
use bowline::render::{corpus_json, corpus_page, corpus_text};
use bowline::Result;

/// Flags of `bowline stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Corpora described together (class folders, .tsv, .jsonl, files); classes of the same
    /// name are merged, so `train` and `test` folders give one report.
    #[arg(required_unless_present = "index")]
    pub corpora: Vec<PathBuf>,
    /// Describe the documents of a corpus index (`bowline index`) instead, analyzed as the
    /// index was unless analysis flags say otherwise.
    #[arg(long, value_name = "DIR", conflicts_with = "corpora")]
    pub index: Option<PathBuf>,
    /// Print every figure as JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML report with charts to this file.
    #[arg(long, value_name = "REPORT.html")]
    pub html: Option<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// Runs the command.
pub fn run(args: StatsArgs) -> Result<Outcome> {
    let read = args.input.flags().options()?;
    crate::memory::return_freed_pages_at_once();
    let pipeline = args.runtime.start()?;
    let job = Stats::new(
        args.corpora.clone(),
        args.index.clone(),
        |base| args.analysis.flags().config_over(base),
        (read, pipeline),
    )?;
    let placement = args.cluster.placement()?;
    let logged = Logged::new(job.read.max_doc_bytes, indicatif::ProgressBar::hidden());
    // In a cluster, process 0 alone has the figures, and writes them.
    if let Some(stats) = job.run(&placement, logged.note())? {
        if let Some(path) = &args.html {
            let page = corpus_page(&stats, &args.corpora, args.index.as_deref());
            bowline::jobs::write_file(path, &page)?;
        }
        let shown = if args.json {
            corpus_json(&stats)?
        } else {
            corpus_text(&stats)
        };
        print_or_quiet(&shown)?;
    }
    // An index's documents were reported when they were indexed.
    logged.finish(args.runtime.quiet || args.index.is_some(), &placement)
}
