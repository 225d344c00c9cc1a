//! Reporting what was read: warnings as they happen, in input order, and a summary at the end.

use bowline::corpus::{warnings, Entry, ReadCounts};

use super::Outcome;

/// Counts entries and prints their warnings to stderr.
#[derive(Debug, Default)]
pub struct ReadLog {
    /// The tallies so far.
    pub counts: ReadCounts,
    max_doc_bytes: u64,
}

impl ReadLog {
    /// A log for inputs read with the given size limit (named in truncation warnings).
    pub fn new(max_doc_bytes: u64) -> Self {
        ReadLog {
            counts: ReadCounts::default(),
            max_doc_bytes,
        }
    }

    /// Counts one entry and prints its warnings.
    pub fn note(&mut self, entry: &Entry) {
        self.counts.add(entry);
        for line in warnings(entry, self.max_doc_bytes) {
            eprintln!("bowline: {line}");
        }
    }

    /// One line for the end of the run.
    pub fn summary(&self) -> String {
        let c = &self.counts;
        format!(
            "{} documents, {:.1} MB; {} decoded as Windows-1252, {} empty, {} truncated, \
             {} binary skipped, {} failed",
            c.documents,
            c.bytes as f64 / 1e6,
            c.windows_1252,
            c.empty,
            c.truncated,
            c.binary,
            c.failed
        )
    }

    /// Clean unless some input failed.
    pub fn outcome(&self) -> Outcome {
        match self.counts.failed {
            0 => Outcome::Clean,
            failed => Outcome::Partial(failed),
        }
    }
}
