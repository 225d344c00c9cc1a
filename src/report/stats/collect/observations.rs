//! Documents reduced in one place and merged in another: how cluster mode's workers send their
//! documents' reductions to the process that builds the report. Merged in input order, they
//! give the figures one process gives, to the byte.

use serde::{Deserialize, Serialize};

use super::{reduce, Collector, Observed};
use crate::analyze::{Analyzer, Terms};
use crate::corpus::{Document, Entry, Skip};
use crate::error::{Error, Result};
use crate::pipeline::PipelineConfig;

/// One entry reduced by a worker, with its place in the input and the reading facts the
/// report's tallies use.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Observation {
    /// The entry's place in the whole input (every corpus, every worker's entries).
    pub position: u64,
    /// The reducing worker, unique in the cluster; [`Collector::add_observations`] renumbers.
    pub worker: u64,
    label: Option<String>,
    /// 0 for a document, 1 for an input that failed, 2 for a binary file.
    skip: u8,
    bytes: u64,
    windows_1252: bool,
    truncated_from: Option<u64>,
    tokens: u64,
    kept: u64,
    new_words: Vec<String>,
    new_terms: Vec<String>,
    terms: Vec<(u32, u64)>,
    ngrams: Vec<String>,
    ngram_counts: Vec<u64>,
    text_hash: u128,
}

/// Reduces `entries`, each with its position in the whole input, on the pipeline's workers;
/// `worker_base` plus a pipeline worker's number names it. `note` sees every entry in order.
pub(crate) fn observe(
    entries: impl Iterator<Item = (u64, Entry)> + Send,
    worker_base: u64,
    analyzer: &Analyzer,
    pipeline: &PipelineConfig,
    max_doc_bytes: u64,
    mut note: impl FnMut(&Entry),
) -> Result<Vec<Observation>> {
    let source = entries.map(|(position, entry)| Observed {
        position,
        entry,
        ..Observed::default()
    });
    let mut out = Vec::new();
    reduce(source, 0, analyzer, pipeline, max_doc_bytes, |item| {
        note(&item.entry);
        out.push(Observation::of(worker_base, item));
    })?;
    Ok(out)
}

impl Observation {
    fn of(worker_base: u64, item: Observed) -> Self {
        let strings = |terms: &Terms| terms.iter().map(str::to_string).collect();
        let entry = &item.entry;
        Observation {
            position: item.position,
            worker: worker_base + item.worker as u64,
            label: entry.doc.label.clone(),
            skip: match entry.skip {
                None => 0,
                Some(Skip::Failed(_)) => 1,
                Some(Skip::Binary) => 2,
            },
            bytes: entry.bytes,
            windows_1252: entry.decoded_windows_1252,
            truncated_from: entry.truncated_from,
            tokens: item.tokens,
            kept: item.kept,
            new_words: strings(&item.new_words),
            new_terms: strings(&item.new_terms),
            terms: item.terms,
            ngrams: strings(&item.ngrams),
            ngram_counts: item.ngram_counts,
            text_hash: item.text_hash,
        }
    }

    /// Back to what the collector adds, with a stand-in entry carrying the reading facts.
    fn observed(self, worker: usize) -> Observed {
        let terms = |strings: Vec<String>| {
            let mut terms = Terms::new();
            strings.iter().for_each(|s| terms.push(s));
            terms
        };
        let skip = match self.skip {
            0 => None,
            2 => Some(Skip::Binary),
            _ => Some(Skip::Failed(Error::Config("reported by its worker".into()))),
        };
        let entry = Entry {
            doc: Document {
                label: self.label,
                ..Document::default()
            },
            skip,
            bytes: self.bytes,
            decoded_windows_1252: self.windows_1252,
            truncated_from: self.truncated_from,
            ..Entry::default()
        };
        Observed {
            position: self.position,
            entry,
            worker,
            tokens: self.tokens,
            kept: self.kept,
            new_words: terms(self.new_words),
            new_terms: terms(self.new_terms),
            terms: self.terms,
            ngrams: terms(self.ngrams),
            ngram_counts: self.ngram_counts,
            text_hash: self.text_hash,
        }
    }
}

impl Collector {
    /// Adds observations from any number of workers, in the order of their positions, as
    /// [`super::collect`] adds documents: the report is the one of reading the input in one
    /// place.
    pub(crate) fn add_observations(&mut self, mut observations: Vec<Observation>) {
        observations.sort_by_key(|o| o.position);
        let mut numbers = std::collections::HashMap::new();
        let base = self.workers.len();
        for observation in observations {
            let next = base + numbers.len();
            let worker = *numbers.entry(observation.worker).or_insert(next);
            self.add(observation.observed(worker));
        }
    }
}
