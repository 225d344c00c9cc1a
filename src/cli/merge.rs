//! `bowline merge`: models trained on disjoint shards of a corpus combined into one (see
//! [`bowline::model::merge`]).

use std::path::PathBuf;

use clap::Args;

use super::Outcome;
use bowline::jobs::merge::Merge;
use bowline::Result;

/// The long help of `bowline merge`: what is exact, and what is refused.
const ABOUT: &str = "\
Combine models trained on disjoint shards of a corpus, with the same analysis and settings, into
one model: map-reduce without a cluster.

Naive Bayes (mnb, cnb, bnb) merges exactly: the result equals the model trained on the union of
the shards, apart from its provenance (corpora, date). Vocabulary and classes become the unions
in byte order, document frequencies and counts are added. That needs shards trained without
pruning (--min-df 1, which is not bnb's default, and no --max-df or --max-features: a term rare
in every shard may pass min-df in the union) and, for mnb and cnb, with integer weights
(--tf count --idf none --norm none: idf depends on the whole corpus, and sums of fractional
weights differ in their last bits with the order they are added in). Other naive Bayes models are
refused with the reason.

SVMs are averaged: each weight and intercept is the mean of the shards', weighted by their
documents. This approximates training on the union; the shards need the same classes and no
calibration, and the result keeps no reservoir (an update continues from the averaged weights).
k-NN, multi-label and selected-feature models are refused.";

/// Flags of `bowline merge`.
#[derive(Debug, Args)]
#[command(long_about = ABOUT)]
pub struct MergeArgs {
    /// Models written by `bowline train` from disjoint shards, two or more.
    #[arg(required = true, num_args = 2..)]
    pub models: Vec<PathBuf>,
    /// Where to write the merged model.
    #[arg(short, long, value_name = "MODEL")]
    pub output: PathBuf,
    /// Merge models whose documents may overlap: one model given twice, or models whose
    /// provenance names a corpus in common. Refused without it, as it counts documents twice.
    #[arg(long)]
    pub allow_overlap: bool,
    /// Print nothing but errors.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Runs the command.
pub fn run(args: MergeArgs) -> Result<Outcome> {
    let job = Merge {
        models: args.models,
        output: args.output,
        allow_overlap: args.allow_overlap,
    };
    let merged = job.run()?;
    if !args.quiet {
        let summary = bowline::render::model::merged(job.models.len(), merged.model(), &job.output);
        eprintln!("bowline: {summary}");
    }
    Ok(Outcome::Clean)
}
