//! `rank`: the terms of a labelled corpus most tied to its classes.

use std::path::PathBuf;

use super::Note;
use crate::analyze::{Analyzer, AnalyzerConfig};
use crate::classifier::{rank_terms, Listing, RankOptions};
use crate::corpus::ReadOptions;
use crate::error::Result;
use crate::flow::Source;
use crate::pipeline::PipelineConfig;
use crate::select::RankBy;
use crate::Reading;

/// A `rank` run.
pub struct Rank {
    /// A labelled corpus: class folders, a .tsv or a .jsonl file.
    pub corpus: PathBuf,
    /// How the documents are analyzed into terms.
    pub analysis: AnalyzerConfig,
    /// The score.
    pub by: RankBy,
    /// List the top terms of each class (χ² and mutual information only).
    pub per_class: bool,
    /// How many terms to list (per class with `per_class`).
    pub top: usize,
    /// Leave out terms found in fewer documents than this.
    pub min_df: u32,
    /// How the corpus is read.
    pub read: ReadOptions,
    /// Threads and batches.
    pub pipeline: PipelineConfig,
}

impl Rank {
    /// Ranks the corpus's terms, telling `note` of each entry read: one listing overall, or one
    /// per class.
    pub fn run(self, note: Note) -> Result<Vec<Listing>> {
        let analyzer = Analyzer::new(self.analysis)?;
        let source = Source::open(&self.corpus, &self.read)?;
        let mut reading = Reading::new(self.pipeline).on_entry(|entry| note(entry));
        let options = RankOptions {
            by: self.by,
            per_class: self.per_class,
            top: self.top,
            min_df: self.min_df,
        };
        rank_terms(source, &analyzer, &mut reading, options)
    }
}
