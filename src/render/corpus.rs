//! A corpus's figures as `stats` shows them: aligned tables, JSON, or an HTML page with charts
//! (drawn by [`crate::report`], which this module is the one way to); and what `index` says of
//! the documents it kept.

use std::path::{Path, PathBuf};

use super::json::json_text;
use crate::error::Result;
use crate::report::stats::CorpusStats;
use crate::report::{html_report, text_report, Header};

/// The figures as aligned text tables.
pub fn corpus_text(stats: &CorpusStats) -> String {
    text_report(stats)
}

/// The figures as indented JSON, `schema_version` first.
pub fn corpus_json(stats: &CorpusStats) -> Result<String> {
    json_text(stats)
}

/// The figures as a self-contained HTML page, which names what it describes: the `corpora`, or
/// the corpus index in `index`.
pub fn corpus_page(stats: &CorpusStats, corpora: &[PathBuf], index: Option<&Path>) -> String {
    let corpus = match index {
        Some(index) => format!("index {}", index.display()),
        None => (corpora.iter())
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
    };
    html_report(stats, &Header::new("Corpus report").fact("corpus", corpus))
}

/// What `index` says when it is done: `added` documents kept in `index` in `seconds`.
pub fn indexed(added: u64, seconds: f64, index: &Path) -> String {
    format!(
        "indexed {added} documents in {seconds:.2} s -> {}",
        index.display()
    )
}
