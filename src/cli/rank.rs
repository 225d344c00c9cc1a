//! `bowline rank`: the terms most tied to the classes of a labelled corpus.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::labelled::Labelled;
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs};
use crate::analyze::{Analyzer, AnalyzerConfig};
use crate::error::{Error, Result};
use crate::select::{Presence, RankBy};

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

#[derive(Serialize)]
struct Ranked<'a> {
    term: &'a str,
    score: f64,
    df: u32,
}

#[derive(Serialize)]
struct Listing<'a> {
    /// The class, or `None` for the overall ranking.
    #[serde(skip_serializing_if = "Option::is_none")]
    class: Option<&'a str>,
    features: Vec<Ranked<'a>>,
}

/// Runs the command.
pub fn run(args: RankArgs) -> Result<Outcome> {
    if args.per_class && !matches!(args.by, RankBy::Chi2 | RankBy::Mi) {
        return Err(Error::Config("--per-class needs --by chi2 or mi".into()));
    }
    let analyzer = Analyzer::new(args.analysis.config_over(&AnalyzerConfig::default())?)?;
    let (labelled, reading) = Labelled::open(
        &args.corpus,
        "ranking",
        &analyzer,
        &args.input,
        &args.runtime,
    )?;
    let corpus = &labelled.corpus;
    let all: Vec<usize> = (0..labelled.classes.len()).collect();
    let presence = Presence::count(
        &corpus.matrix,
        &labelled.classes,
        &all,
        corpus.classes.len(),
    );
    let terms = corpus.vectorizer.terms();
    let list = |class: Option<usize>| Listing {
        class: class.map(|c| corpus.classes[c].as_str()),
        features: presence
            .top(args.by, class, args.top, args.min_df)
            .into_iter()
            .map(|(j, score)| Ranked {
                term: &terms[j],
                score,
                df: presence.df(j),
            })
            .collect(),
    };
    let listings: Vec<Listing> = if args.per_class {
        (0..corpus.classes.len()).map(|c| list(Some(c))).collect()
    } else {
        vec![list(None)]
    };
    let text = if args.json {
        let json = serde_json::json!({ "by": args.by, "listings": listings });
        serde_json::to_string_pretty(&json).map_err(|e| Error::Config(e.to_string()))? + "\n"
    } else {
        table(&listings, args.by)
    };
    super::print_or_quiet(&text)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", reading.log.summary());
    }
    Ok(reading.log.outcome())
}

/// Aligned tables, one per listing.
fn table(listings: &[Listing], by: RankBy) -> String {
    let name = serde_json::to_value(by).map_or_else(
        |_| "score".into(),
        |v| v.as_str().unwrap_or("score").to_string(),
    );
    let mut out = String::new();
    for listing in listings {
        if let Some(class) = listing.class {
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
