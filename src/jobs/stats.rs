//! `stats`: every figure of a corpus report, from corpora on disk or from a corpus index, read
//! here or by the workers of a cluster.

use std::path::PathBuf;

use super::{Note, Placement};
use crate::analyze::{Analyzer, AnalyzerConfig};
use crate::corpus::{Entries, Entry, ReadOptions};
use crate::error::{Error, Result};
use crate::index::IndexedCorpus;
use crate::pipeline::PipelineConfig;
use crate::report::stats::{collect, Collector, CorpusStats};

/// What a report describes.
pub enum Described {
    /// Corpora read together (class folders, line files, files); classes of the same name merge.
    Corpora(Vec<PathBuf>),
    /// The documents of a corpus index, as they were indexed.
    Index(IndexedCorpus),
}

/// A `stats` run.
pub struct Stats {
    /// The documents described.
    pub described: Described,
    analyzer: Analyzer,
    /// How the corpora are read.
    pub read: ReadOptions,
    /// Threads and batches.
    pub pipeline: PipelineConfig,
}

impl Stats {
    /// A report of the `corpora`, or of the index in `index` when one is given, analyzed as
    /// `analysis` says: it is given the default analysis, or the index's, to build on, so that an
    /// index is described as it was analyzed unless the caller says otherwise.
    pub fn new(
        corpora: Vec<PathBuf>,
        index: Option<PathBuf>,
        analysis: impl FnOnce(&AnalyzerConfig) -> Result<AnalyzerConfig>,
        (read, pipeline): (ReadOptions, PipelineConfig),
    ) -> Result<Self> {
        let described = match index {
            Some(dir) => Described::Index(crate::index::read(&dir)?),
            None => Described::Corpora(corpora),
        };
        let base = match &described {
            Described::Index(indexed) => indexed.analyzer.clone(),
            Described::Corpora(_) => AnalyzerConfig::default(),
        };
        let analyzer = Analyzer::new(analysis(&base)?)?;
        // The figures are about words: character n-grams would make every table about
        // fragments of words instead.
        if analyzer.config().char_ngrams.is_some() {
            return Err(Error::Config(
                "stats describes words; --char-ngrams is for the commands that build features"
                    .into(),
            ));
        }
        Ok(Stats {
            described,
            analyzer,
            read,
            pipeline,
        })
    }

    /// Reads every document where `placement` says, telling `note` of each entry read from the
    /// corpora, and gives the figures; `None` in a cluster process other than process 0, which
    /// gathers them.
    pub fn run(self, placement: &Placement, note: Note) -> Result<Option<CorpusStats>> {
        match placement {
            Placement::Local => self.here(note).map(Some),
            #[cfg(feature = "cluster")]
            Placement::Cluster(cluster) => {
                let Described::Corpora(corpora) = &self.described else {
                    return Err(Error::Config(
                        "cluster mode reads corpora, not an index".into(),
                    ));
                };
                let (analyzer, read) = (&self.analyzer, &self.read);
                crate::cluster::stats(cluster, corpora, analyzer, read, &self.pipeline, note)
            }
        }
    }

    /// The figures, every document read in this process.
    fn here(self, note: Note) -> Result<CorpusStats> {
        let mut collector = Collector::new(self.analyzer.config().clone());
        let limit = self.read.max_doc_bytes;
        let mut read_into = |entries: Entries, note: &dyn Fn(&Entry)| {
            collect(
                &mut collector,
                entries,
                &self.analyzer,
                &self.pipeline,
                limit,
                note,
            )
        };
        match self.described {
            // The index's documents were noted when they were indexed: reading them again
            // notes nothing, but its skipped inputs still count.
            Described::Index(indexed) => {
                read_into(Box::new(indexed.entries.into_iter()), &|_| {})?;
                collector.add_skipped(indexed.binary, indexed.failed);
            }
            Described::Corpora(corpora) => {
                for path in &corpora {
                    let (entries, _) = crate::corpus::open(path, &self.read)?;
                    read_into(entries, &*note)?;
                }
            }
        }
        Ok(collector.finish())
    }
}
