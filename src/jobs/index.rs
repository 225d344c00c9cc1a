//! `index`: keep a corpus in a tantivy index analyzed by bowline's analyzer, so that `stats`,
//! `train` and the nearest-neighbour classifier read it as a corpus.

use std::path::PathBuf;

use super::Note;
use crate::analyze::AnalyzerConfig;
use crate::corpus::ReadOptions;
use crate::error::Result;
use crate::flow::{read_stage, run_stages};
use crate::index::CorpusIndexWriter;
use crate::pipeline::PipelineConfig;

/// An `index` run.
pub struct Index {
    /// The documents: class folders, a .tsv or .jsonl file, unlabeled files.
    pub corpus: PathBuf,
    /// The index folder, created if needed.
    pub index: PathBuf,
    /// Add to the index already in the folder instead of replacing it.
    pub append: bool,
    /// The analysis of a new index (of an appended one, it must be the index's own); `None`
    /// takes the default, or the appended index's.
    pub analysis: Option<AnalyzerConfig>,
    /// How the corpus is read.
    pub read: ReadOptions,
    /// Threads and batches.
    pub pipeline: PipelineConfig,
}

impl Index {
    /// Indexes every document of the corpus, telling `note` of each entry read, and gives how
    /// many documents were added. The documents become visible at once, when all are added.
    pub fn run(self, note: Note) -> Result<u64> {
        let mut writer = CorpusIndexWriter::open(&self.index, self.append, self.analysis)?;
        let (entries, _) = crate::flow::open(&self.corpus, &self.read)?;
        // Files are read on the pipeline's threads; the writer takes the documents in input
        // order, so that they keep the corpus's order in the index.
        let stages = vec![read_stage(self.read.max_doc_bytes)];
        run_stages(entries, &self.pipeline, stages, |item| {
            note(&item.entry);
            writer.add(&item.entry)
        })?;
        writer.commit()
    }
}
