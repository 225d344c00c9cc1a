//! Where documents come from: the readers of [`crate::corpus`], and a corpus index.

use std::path::{Path, PathBuf};

use crate::corpus::{self, Document, Entries, Entry, InputFormat, ReadOptions};
use crate::error::Result;

/// Documents to read, with the class names their source declares and the size past which a
/// document is truncated.
pub struct Source {
    /// What the documents are called in errors: the corpus path, or `(memory)`.
    pub name: PathBuf,
    /// The entries, in input order.
    pub entries: Entries,
    /// The class names the source declares (class folders, an index's labels); when empty, the
    /// classes are the distinct labels of the documents.
    pub classes: Vec<String>,
    /// Documents longer than this many bytes are truncated when read.
    pub max_doc_bytes: u64,
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("name", &self.name)
            .field("classes", &self.classes)
            .field("max_doc_bytes", &self.max_doc_bytes)
            .finish_non_exhaustive()
    }
}

impl Source {
    /// The corpus at `path`, read as `options` say (see [`open`]).
    pub fn open(path: &Path, options: &ReadOptions) -> Result<Self> {
        let (entries, classes) = open(path, options)?;
        Ok(Source {
            name: path.to_path_buf(),
            entries,
            classes,
            max_doc_bytes: options.max_doc_bytes,
        })
    }

    /// Labelled documents held in memory, as `(label, text)` pairs; each document's id is its
    /// position, counted from 1 as lines are.
    pub fn labelled<L: Into<String>, T: Into<String>>(
        pairs: impl IntoIterator<Item = (L, T)>,
    ) -> Self {
        let docs = pairs
            .into_iter()
            .map(|(label, text)| (vec![label.into()], text.into()));
        Self::in_memory(docs)
    }

    /// Documents held in memory with their label sets, as `(labels, text)` pairs; each
    /// document's id is its position, counted from 1 as lines are.
    pub fn multi_labelled<L: Into<String>, T: Into<String>>(
        pairs: impl IntoIterator<Item = (Vec<L>, T)>,
    ) -> Self {
        let docs = pairs.into_iter().map(|(labels, text)| {
            let labels = labels.into_iter().map(Into::into).collect();
            (labels, text.into())
        });
        Self::in_memory(docs)
    }

    /// Unlabeled documents held in memory; each document's id is its position, from 1.
    pub(crate) fn texts<T: Into<String>>(texts: impl IntoIterator<Item = T>) -> Self {
        Self::in_memory(texts.into_iter().map(|text| (Vec::new(), text.into())))
    }

    fn in_memory(docs: impl Iterator<Item = (Vec<String>, String)>) -> Self {
        let docs: Vec<(Vec<String>, String)> = docs.collect();
        Self::streamed(docs.into_iter())
    }

    /// Documents with their label sets (empty for none) as `docs` yields them, read one at a
    /// time as the pipeline asks rather than held in memory first; each document's id is its
    /// position, from 1.
    pub fn streamed(docs: impl Iterator<Item = (Vec<String>, String)> + Send + 'static) -> Self {
        let entries = docs.enumerate().map(|(i, (labels, text))| {
            let bytes = text.len() as u64;
            let mut doc = Document {
                id: (i + 1).to_string(),
                text,
                ..Document::default()
            };
            doc.set_labels(labels);
            Entry::loaded(doc, bytes)
        });
        Source {
            name: PathBuf::from("(memory)"),
            entries: Box::new(entries),
            classes: Vec::new(),
            max_doc_bytes: u64::MAX,
        }
    }
}

/// Opens an input and returns its entries and the class names it declares (class folders, or
/// the labels of a corpus index).
///
/// Errors here concern the input as a whole (missing root, no class folders); errors on single
/// files or lines come back inside the entries.
pub fn open(path: &Path, options: &ReadOptions) -> Result<(Entries, Vec<String>)> {
    match options.format.unwrap_or_else(|| InputFormat::detect(path)) {
        InputFormat::Index => indexed(path),
        _ => corpus::open(path, options),
    }
}

/// The documents of a corpus index, and its labels as class names.
fn indexed(path: &Path) -> Result<(Entries, Vec<String>)> {
    let corpus = crate::index::read(path)?;
    let mut classes: Vec<String> = corpus
        .entries
        .iter()
        .filter_map(|e| e.doc.label.clone())
        .collect();
    classes.sort_unstable();
    classes.dedup();
    Ok((Box::new(corpus.entries.into_iter()), classes))
}
