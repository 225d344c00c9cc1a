//! Corpus statistics: what someone wants to know about a corpus before classifying it.
//!
//! [`collect`] reads documents once through the pipeline: each worker sees every stage's output
//! for its documents (`crate::analyze::AnalyzerWorker::for_each_word`) and reduces each one to its
//! distinct words and terms with counts; the calling thread merges them in input order, so every
//! figure, the order-dependent Heaps curve included, is the same whatever the thread count.
//!
//! Words and terms: a *token* is a word as tokenized and lowercased; *tokens after stop words*
//! are those that survive pruning; *words* are those tokens, unstemmed; *terms* are the words
//! after stemming. Document lengths count tokens (before pruning). Zipf's and Heaps' laws, hapax
//! legomena, the type/token ratio and the term lists are over terms; n-gram counts are over the
//! analyzer's n-grams when it makes them.

mod collect;
mod distinctive;
mod fit;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use collect::{collect, Collector};
#[cfg(feature = "cluster")]
pub(crate) use collect::{observe, Observation};

use crate::analyze::AnalyzerConfig;

/// Terms listed in each term table.
pub(crate) const LISTED_TERMS: usize = 20;

/// Every figure of a corpus report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusStats {
    /// The analysis the figures were computed with.
    pub analysis: AnalyzerConfig,
    /// Corpus-wide counts.
    pub totals: Totals,
    /// Per class, keyed by class name; documents without a label are under `(unlabeled)`.
    pub classes: BTreeMap<String, ClassStats>,
    /// Document lengths in tokens.
    pub lengths: Lengths,
    /// Zipf's law: term frequency against rank.
    pub zipf: Zipf,
    /// Heaps' law: distinct terms against terms read.
    pub heaps: Heaps,
    /// The most frequent terms.
    pub top_terms: Vec<TermCount>,
    /// Tokens and distinct n-grams per n, when the analysis makes n-grams; else empty.
    pub ngrams: Vec<NgramCount>,
}

/// Corpus-wide counts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    /// Usable documents.
    pub documents: u64,
    /// Their size in bytes, as read.
    pub bytes: u64,
    /// Distinct labels.
    pub classes: u64,
    /// Tokens before stop-word pruning.
    pub tokens: u64,
    /// Tokens after stop-word pruning.
    pub tokens_after_stop_words: u64,
    /// Distinct words after stop-word pruning, before stemming.
    pub distinct_words: u64,
    /// Distinct terms after stemming.
    pub distinct_terms: u64,
    /// Distinct terms / tokens after stop words.
    pub type_token_ratio: f64,
    /// Terms seen exactly once in the corpus.
    pub hapax_legomena: u64,
    /// Documents of zero bytes.
    pub empty: u64,
    /// Documents that were not valid UTF-8 and were decoded as Windows-1252.
    pub non_utf8: u64,
    /// Files skipped as binary (NUL bytes in their first 8 KiB).
    pub binary_skipped: u64,
    /// Documents cut to the size limit.
    pub truncated: u64,
    /// Files or lines that could not be read.
    pub unreadable: u64,
    /// Documents whose text equals an earlier document's of the same class.
    pub duplicates_within_class: u64,
    /// Documents whose text equals an earlier document's, only of other classes.
    pub duplicates_across_classes: u64,
}

impl Totals {
    /// Every figure with its name for a reader, in report order.
    pub(crate) fn figures(&self) -> [(&'static str, String); 16] {
        [
            ("documents", self.documents.to_string()),
            ("bytes", self.bytes.to_string()),
            ("classes", self.classes.to_string()),
            ("tokens", self.tokens.to_string()),
            (
                "tokens after stop words",
                self.tokens_after_stop_words.to_string(),
            ),
            (
                "distinct words (before stemming)",
                self.distinct_words.to_string(),
            ),
            (
                "distinct terms (after stemming)",
                self.distinct_terms.to_string(),
            ),
            ("type/token ratio", format!("{:.4}", self.type_token_ratio)),
            ("hapax legomena", self.hapax_legomena.to_string()),
            ("empty documents", self.empty.to_string()),
            ("non-UTF-8 (decoded)", self.non_utf8.to_string()),
            ("binary files skipped", self.binary_skipped.to_string()),
            ("truncated", self.truncated.to_string()),
            ("unreadable", self.unreadable.to_string()),
            (
                "duplicates within a class",
                self.duplicates_within_class.to_string(),
            ),
            (
                "duplicates across classes",
                self.duplicates_across_classes.to_string(),
            ),
        ]
    }
}

/// One class's figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClassStats {
    /// Documents of the class.
    pub documents: u64,
    /// Their share of all documents.
    pub share: f64,
    /// Tokens before stop-word pruning.
    pub tokens: u64,
    /// Mean document length in tokens.
    pub mean_length: f64,
    /// Median document length in tokens.
    pub median_length: f64,
    /// The class's most frequent terms.
    pub top_terms: Vec<TermCount>,
    /// The terms most typical of the class against the rest of the corpus.
    pub distinctive_terms: Vec<DistinctiveTerm>,
}

/// A term and how often it occurs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TermCount {
    /// The term.
    pub term: String,
    /// Occurrences.
    pub count: u64,
    /// Documents it occurs in.
    pub documents: u64,
}

/// A term typical of a class: the z-score of its log-odds ratio, class against the rest, with
/// an informative Dirichlet prior (Monroe, Colaresi and Quinn 2008) whose pseudo-counts are the
/// term's counts in the whole corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DistinctiveTerm {
    /// The term.
    pub term: String,
    /// The z-score; larger is more typical of the class.
    pub z: f64,
    /// Occurrences in the class.
    pub count: u64,
}

/// Document lengths in tokens. Quantiles interpolate linearly between order statistics.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Lengths {
    /// Shortest.
    pub min: u64,
    /// First quartile.
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    /// 95th percentile.
    pub p95: f64,
    /// Longest.
    pub max: u64,
    /// Mean.
    pub mean: f64,
    /// Counts of lengths in bins.
    pub histogram: Histogram,
}

/// Bin `i` counts lengths in `edges[i]..edges[i + 1]`; the last bin also counts every longer
/// document, so the bins cover the 95th percentile evenly and the tail still adds up.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    /// Bin edges, one more than the bins.
    pub edges: Vec<u64>,
    /// Documents per bin.
    pub counts: Vec<u64>,
}

/// Zipf's law, frequency ∝ rank^(−exponent), fitted by least squares on log frequency against
/// log rank over every rank.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Zipf {
    /// The exponent s.
    pub exponent: f64,
    /// The fitted line's ln frequency at rank 1.
    pub intercept: f64,
    /// R² of the log-log fit.
    pub r_squared: f64,
    /// (rank, frequency) at ranks spaced evenly in log scale, for plotting.
    pub points: Vec<(u64, u64)>,
}

/// Heaps' law, distinct terms = K · terms^β, fitted by least squares on logs over the
/// corpus read document by document in input order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Heaps {
    /// K.
    pub k: f64,
    /// β.
    pub beta: f64,
    /// R² of the log-log fit.
    pub r_squared: f64,
    /// (terms read, distinct terms) after some documents, for plotting.
    pub points: Vec<(u64, u64)>,
}

/// Tokens and distinct n-grams of one size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NgramCount {
    /// The size.
    pub n: u32,
    /// n-gram occurrences.
    pub tokens: u64,
    /// Distinct n-grams.
    pub distinct: u64,
}
