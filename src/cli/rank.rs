//! `bowline rank`: the terms most tied to the classes of a labelled corpus.

use std::path::PathBuf;

use clap::Args;

use super::log::ReadLog;
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs};
use bowline::analyze::{Analyzer, AnalyzerConfig};
use bowline::classifier::{rank_terms, Listing, RankOptions};
use bowline::select::RankBy;
use bowline::{Result, Source};

/// Flags of `bowline rank`.
#[derive(Debug, Args)]
pub struct RankArgs {
    /// A labelled corpus: class folders, a .tsv or a .jsonl file.
    pub corpus: PathBuf,
    /// The score.
    #[arg(long, value_enum, default_value = "chi2")]
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
    let analyzer = Analyzer::new(args.analysis.config_over(&AnalyzerConfig::default())?)?;
    let options = RankOptions {
        by: args.by,
        per_class: args.per_class,
        top: args.top,
        min_df: args.min_df,
    };
    let read = args.input.labelled_options()?;
    let pipeline = args.runtime.start()?;
    super::memory::prepare_for(analyzer.config());
    let mut log = ReadLog::new(read.max_doc_bytes);
    let source = Source::open(&args.corpus, &read)?;
    let mut reading = super::reading(pipeline, &mut log);
    let listings = rank_terms(source, &analyzer, &mut reading, options)?;
    drop(reading);
    let text = if args.json {
        let json = serde_json::json!({ "by": args.by, "listings": listings });
        super::json_text(&json)?
    } else {
        table(&listings, args.by)
    };
    super::print_or_quiet(&text)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
    }
    Ok(log.outcome())
}

/// Aligned tables, one per listing.
fn table(listings: &[Listing], by: RankBy) -> String {
    let name = serde_json::to_value(by).map_or_else(
        |_| "score".into(),
        |v| v.as_str().unwrap_or("score").to_string(),
    );
    let mut out = String::new();
    for listing in listings {
        if let Some(class) = &listing.class {
            out += &format!("{class}\n");
        }
        let width = listing
            .features
            .iter()
            .map(|f| f.term.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        out += &format!(
            "{:>5}  {:<width$}  {:>12}  {:>8}\n",
            "rank", "term", name, "df"
        );
        for (i, f) in listing.features.iter().enumerate() {
            out += &format!(
                "{:>5}  {:<width$}  {:>12.4}  {:>8}\n",
                i + 1,
                f.term,
                f.score,
                f.df
            );
        }
        out += "\n";
    }
    out
}
