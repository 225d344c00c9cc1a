//! What a run says of its reading: each entry's warnings as they come, all but the first few
//! warnings counted rather than shown (a corpus with thousands of Windows-1252 files would bury
//! everything else), and one summary line at the end.

use crate::corpus::{warnings, Entry, ReadCounts};

/// Warnings shown at the normal verbosity before the rest are only counted.
const SHOWN: u64 = 5;

/// How much of the reading a run shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Verbosity {
    /// Nothing that does not stop the run.
    Quiet,
    /// Every error on a single file or line, and the first few warnings.
    #[default]
    Normal,
    /// Every error and warning.
    Verbose,
}

/// The tallies of the entries read so far, and the warnings met among them.
#[derive(Debug, Default)]
pub struct ReadReport {
    counts: ReadCounts,
    max_doc_bytes: u64,
    verbosity: Verbosity,
    /// Warnings met so far, shown or not.
    warnings: u64,
}

impl ReadReport {
    /// A report on inputs read with the given size limit (named in truncation warnings).
    pub fn new(max_doc_bytes: u64, verbosity: Verbosity) -> Self {
        ReadReport {
            max_doc_bytes,
            verbosity,
            ..ReadReport::default()
        }
    }

    /// Counts one entry, and gives the messages to show of it as the verbosity allows.
    pub fn note(&mut self, entry: &Entry) -> Vec<String> {
        self.counts.add(entry);
        let mut shown = warnings(entry, self.max_doc_bytes);
        shown.retain(|line| {
            let is_warning = line.starts_with("warning:");
            self.warnings += u64::from(is_warning);
            match self.verbosity {
                Verbosity::Quiet => false,
                Verbosity::Verbose => true,
                Verbosity::Normal => !is_warning || self.warnings <= SHOWN,
            }
        });
        shown
    }

    /// The tallies so far.
    pub fn counts(&self) -> &ReadCounts {
        &self.counts
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
        ) + &self.joined()
            + &self.unshown()
    }

    /// How many files were read as copies of another, if any were.
    fn joined(&self) -> String {
        match self.counts.joined {
            0 => String::new(),
            1 => "; 1 file joined to a copy in another class folder".into(),
            joined => format!("; {joined} files joined to a copy in another class folder"),
        }
    }

    /// The warnings left unshown, if any.
    fn unshown(&self) -> String {
        let unshown = self.warnings.saturating_sub(SHOWN);
        if self.verbosity == Verbosity::Normal && unshown > 0 {
            format!("; {unshown} more warnings not shown (-v lists them)")
        } else {
            String::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Document;

    fn old_file(number: usize) -> Entry {
        let document = Document {
            id: format!("{number}.txt"),
            ..Document::default()
        };
        let mut entry = Entry::loaded(document, 4);
        entry.decoded_windows_1252 = true;
        entry
    }

    #[test]
    fn the_first_five_warnings_are_shown_and_the_rest_counted() {
        let mut report = ReadReport::new(1000, Verbosity::Normal);
        let shown: usize = (0..8).map(|i| report.note(&old_file(i)).len()).sum();
        assert_eq!(shown, 5);
        assert_eq!(report.counts().windows_1252, 8);
        assert!(report.summary().ends_with(
            "8 decoded as Windows-1252, 0 empty, 0 truncated, 0 binary skipped, 0 failed; \
             3 more warnings not shown (-v lists them)"
        ));
        let mut verbose = ReadReport::new(1000, Verbosity::Verbose);
        let shown: usize = (0..8).map(|i| verbose.note(&old_file(i)).len()).sum();
        assert_eq!(shown, 8);
    }
}
