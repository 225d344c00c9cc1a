//! Documents, and the entries that carry them from the input to the analyzer with what happened
//! while reading each: the values every reader yields.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::Error;

/// One document: the unit that is analyzed, vectorized and classified.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Document {
    /// A stable name: the path relative to the corpus root, or the line number in a line file.
    pub id: String,
    /// The class, when the input says it; for a document with several labels, the first.
    pub label: Option<String>,
    /// Every label, when the input gives a document more than one (JSONL `labels`, TSV with a
    /// label separator, the same file in several class folders); empty otherwise, when `label`
    /// says it all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
    /// The decoded text.
    pub text: String,
}

impl Document {
    /// The document's labels: `labels` when it has several, else `label` alone, else none.
    pub fn label_set(&self) -> Vec<String> {
        if self.labels.is_empty() {
            self.label.iter().cloned().collect()
        } else {
            self.labels.clone()
        }
    }

    /// Gives the document `set` as its labels: the first is `label`, and `labels` holds them
    /// all when there are several. Repeats are dropped, keeping the first of each.
    pub(crate) fn set_labels(&mut self, set: Vec<String>) {
        let mut distinct: Vec<String> = Vec::with_capacity(set.len());
        for label in set {
            if !distinct.contains(&label) {
                distinct.push(label);
            }
        }
        self.label = distinct.first().cloned();
        self.labels = if distinct.len() > 1 {
            distinct
        } else {
            Vec::new()
        };
    }
}

/// Why an entry is not a document after all.
#[derive(Debug)]
pub enum Skip {
    /// The file or line could not be read or parsed; the run goes on but ends non-zero.
    Failed(Error),
    /// The file has NUL bytes in its first 8 KiB and is taken for a binary file.
    Binary,
}

/// A document on its way from the input to the analyzer, with what happened while reading it.
#[derive(Debug, Default)]
pub struct Entry {
    /// The document; its text is empty until a pending file is loaded.
    pub doc: Document,
    /// A file whose contents are still to be read into `doc.text`.
    pub file: Option<PathBuf>,
    /// Set when the entry is not a usable document.
    pub skip: Option<Skip>,
    /// The text was not valid UTF-8 and was decoded as Windows-1252.
    pub decoded_windows_1252: bool,
    /// The text was cut to the size limit; holds the original size in bytes.
    pub truncated_from: Option<u64>,
    /// Size of the raw input in bytes (after truncation).
    pub bytes: u64,
    /// For a document read from a line: the file (`-` for stdin) and the 1-based line number,
    /// which messages name, since a line's id alone does not say where it came from.
    pub line: Option<(Arc<Path>, u64)>,
    /// Other files read as this same document: copies in other class folders of a multi-label
    /// folder corpus.
    pub joined: u64,
}

impl Entry {
    /// A document whose text is already known.
    pub fn loaded(doc: Document, bytes: u64) -> Self {
        Entry {
            doc,
            bytes,
            ..Entry::default()
        }
    }

    /// An entry that failed before it became a document; `id` names where it came from.
    pub fn failed(id: String, error: Error) -> Self {
        Entry {
            doc: Document {
                id,
                ..Document::default()
            },
            skip: Some(Skip::Failed(error)),
            ..Entry::default()
        }
    }

    /// True when the entry holds a usable document.
    pub fn is_document(&self) -> bool {
        self.skip.is_none()
    }
}

/// A stream of entries from one input, in input order.
pub type Entries = Box<dyn Iterator<Item = Entry> + Send>;
