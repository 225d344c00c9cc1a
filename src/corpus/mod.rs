//! Corpus readers: bytes on disk or on stdin become [`Document`]s.
//!
//! A reader yields [`Entry`] values in a deterministic order (sorted paths, file line order). Folder
//! readers yield entries whose text is still on disk ([`Entry::file`] is set); the pipeline's read
//! stage, [`load_pending`], fills them in parallel, so file reading shares the worker threads and
//! the memory bound of the analysis stages. Line-oriented readers (TSV, JSONL, plain lines) parse
//! as they go, since one file cannot be split across threads without reading it first.
//!
//! Nothing is dropped silently: an entry that cannot be read carries its error, a binary file is
//! marked as skipped, and decoding or truncation is recorded on the entry, so the caller can report
//! each one, in input order, and count them.

mod decode;
mod folder;
mod lines;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use decode::{decode, read_document_file, DEFAULT_MAX_DOC_BYTES};

use crate::error::{Error, Result};

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
    pub fn set_labels(&mut self, set: Vec<String>) {
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

/// The layout of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum InputFormat {
    /// A folder with one subfolder per class; every file below a class folder is a document.
    Folder,
    /// Unlabeled files, or folder trees of them; every file is one document.
    Files,
    /// `label<TAB>text` per line (`id<TAB>text` for `classify`).
    Tsv,
    /// `{"id"?, "label"? or "labels"?, "text"}` per line.
    Jsonl,
    /// One unlabeled document per line.
    Lines,
    /// A corpus index written by `bowline index`: its documents, in indexing order.
    Index,
}

impl InputFormat {
    /// Guesses the format from a path: `-` is stdin lines, a folder holding a tantivy index
    /// (`meta.json` and `.managed.json`) is a corpus index, any other folder is class folders,
    /// `.tsv` and `.jsonl` by extension, any other file is a single unlabeled document.
    pub fn detect(path: &Path) -> Self {
        if path == Path::new("-") {
            return InputFormat::Lines;
        }
        if path.join("meta.json").is_file() && path.join(".managed.json").is_file() {
            return InputFormat::Index;
        }
        if path.is_dir() {
            return InputFormat::Folder;
        }
        Self::by_extension(path).unwrap_or(InputFormat::Files)
    }

    /// `.tsv` and `.jsonl` files, in any case, name their format.
    fn by_extension(path: &Path) -> Option<Self> {
        match path.extension().and_then(|e| e.to_str()) {
            Some(ext) if ext.eq_ignore_ascii_case("tsv") => Some(InputFormat::Tsv),
            Some(ext) if ext.eq_ignore_ascii_case("jsonl") => Some(InputFormat::Jsonl),
            _ => None,
        }
    }
}

/// How to read an input; built once from command-line flags.
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// Forces a format instead of detecting it from the path.
    pub format: Option<InputFormat>,
    /// Documents longer than this many bytes are truncated with a warning.
    pub max_doc_bytes: u64,
    /// Treat the first TSV line as a header even if its first field is not `label` (or `id`).
    pub tsv_header: bool,
    /// The first TSV field is the document's id (`id<TAB>text`, as `classify` reads), not its
    /// label.
    pub tsv_ids: bool,
    /// Splits a TSV label field at this string into a document's labels (multi-label data).
    pub label_sep: Option<String>,
    /// The same file (the same bytes, or the same link target) in several class folders is one
    /// document with each folder's label, instead of one document per folder.
    pub merge_folders: bool,
    /// The format of a folder when none is forced: class folders for commands that learn,
    /// unlabeled files for `classify`.
    pub folder_format: InputFormat,
    /// The format of a stream (stdin, a FIFO, `/dev/fd/N`) when none is forced and its first
    /// byte is not `{`, which makes it JSONL.
    pub stream_format: InputFormat,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            format: None,
            max_doc_bytes: DEFAULT_MAX_DOC_BYTES,
            tsv_header: false,
            tsv_ids: false,
            label_sep: None,
            merge_folders: false,
            folder_format: InputFormat::Folder,
            stream_format: InputFormat::Lines,
        }
    }
}

/// A stream of entries from one input, in input order.
pub type Entries = Box<dyn Iterator<Item = Entry> + Send>;

/// Opens an input and returns its entries and the class names it declares (class folders).
///
/// Errors here concern the input as a whole (missing root, no class folders, a device that is
/// neither a file nor a folder); errors on single files or lines come back inside the entries.
pub fn open(path: &Path, options: &ReadOptions) -> Result<(Entries, Vec<String>)> {
    let kind = PathKind::of(path)?;
    let format = match (options.format, kind) {
        (Some(format), _) => format,
        (None, PathKind::Stream) => match InputFormat::by_extension(path) {
            Some(format) => format,
            None => return Ok((lines::sniffed(path, options)?, Vec::new())),
        },
        (None, PathKind::Folder) => match InputFormat::detect(path) {
            InputFormat::Index => InputFormat::Index,
            _ => options.folder_format,
        },
        (None, PathKind::File) => InputFormat::detect(path),
    };
    let limit = options.max_doc_bytes;
    match format {
        InputFormat::Folder if options.merge_folders => folder::merged_class_folders(path),
        InputFormat::Folder => folder::class_folders(path),
        InputFormat::Files => Ok((folder::unlabeled_files(path), Vec::new())),
        InputFormat::Tsv => Ok((lines::tsv(path, options)?, Vec::new())),
        InputFormat::Jsonl => Ok((lines::jsonl(path, limit)?, Vec::new())),
        InputFormat::Lines => Ok((lines::plain(path, limit)?, Vec::new())),
        InputFormat::Index => Err(Error::input(
            path,
            "a corpus index is opened by bowline::flow::open, not by the file readers",
        )),
    }
}

/// True when the input at `path` can be read a second time: a file or a folder, not stdin or a
/// FIFO, whose documents are gone once read.
pub fn rereadable(path: &Path) -> bool {
    matches!(PathKind::of(path), Ok(PathKind::File | PathKind::Folder))
}

/// What a path names, as far as reading documents from it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PathKind {
    /// Stdin (`-`), a FIFO or a pipe such as `/dev/fd/63` from `<(zcat x.gz)`: read once, line
    /// by line, at the pace it arrives.
    Stream,
    Folder,
    File,
}

impl PathKind {
    /// The kind of `path`, following links. A device or a socket is an error: `/dev/null` or
    /// `/dev/zero` given as a corpus would otherwise read as "0 documents" or never end.
    fn of(path: &Path) -> Result<Self> {
        if path == Path::new("-") {
            return Ok(PathKind::Stream);
        }
        let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Error::input(path, "no such file or folder"),
            _ => Error::io(path, e),
        })?;
        let kind = meta.file_type();
        if kind.is_dir() {
            return Ok(PathKind::Folder);
        }
        if kind.is_file() {
            return Ok(PathKind::File);
        }
        #[cfg(unix)]
        if std::os::unix::fs::FileTypeExt::is_fifo(&kind) {
            return Ok(PathKind::Stream);
        }
        Err(Error::input(
            path,
            "is neither a regular file nor a folder (a device or a socket), so it holds no \
             documents; pipe a stream to stdin (-) instead",
        ))
    }
}

/// The read stage's work on one entry: loads its file if it has one still to read. Runs in the
/// pipeline's worker threads, so files are read in parallel.
pub fn load_pending(entry: &mut Entry, max_doc_bytes: u64) {
    if let Some(path) = entry.file.take() {
        decode::load(entry, &path, max_doc_bytes);
    }
}

/// Tallies of what was read, for the end-of-run summary.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ReadCounts {
    /// Usable documents.
    pub documents: u64,
    /// Bytes of usable documents.
    pub bytes: u64,
    /// Documents of zero bytes (kept).
    pub empty: u64,
    /// Documents decoded as Windows-1252.
    pub windows_1252: u64,
    /// Documents cut to the size limit.
    pub truncated: u64,
    /// Files skipped as binary.
    pub binary: u64,
    /// Files or lines that could not be read.
    pub failed: u64,
    /// Files joined to another file of the same bytes or link target, as one document with
    /// several labels.
    #[serde(skip_serializing_if = "is_zero")]
    pub joined: u64,
}

fn is_zero(count: &u64) -> bool {
    *count == 0
}

impl ReadCounts {
    /// Counts one entry.
    pub fn add(&mut self, entry: &Entry) {
        match &entry.skip {
            Some(Skip::Failed(_)) => self.failed += 1,
            Some(Skip::Binary) => self.binary += 1,
            None => {
                self.documents += 1;
                self.bytes += entry.bytes;
                // Bytes rather than text: the text may already have been released by a counting
                // stage when the entry is tallied.
                self.empty += u64::from(entry.bytes == 0);
                self.windows_1252 += u64::from(entry.decoded_windows_1252);
                self.truncated += u64::from(entry.truncated_from.is_some());
                self.joined += entry.joined;
            }
        }
    }
}

/// The warnings to print for an entry, in the order they happened; empty for a clean document.
pub fn warnings(entry: &Entry, max_doc_bytes: u64) -> Vec<String> {
    let id = match &entry.line {
        Some((path, number)) => format!("{}:{number}", path.display()),
        None => entry.doc.id.clone(),
    };
    let mut out = Vec::new();
    match &entry.skip {
        Some(Skip::Failed(error)) => out.push(format!("error: {error}")),
        Some(Skip::Binary) => out.push(format!("warning: {id}: skipped, looks binary (NUL bytes)")),
        None => {
            if let Some(size) = entry.truncated_from {
                out.push(format!(
                    "warning: {id}: truncated from {size} to {max_doc_bytes} bytes"
                ));
            }
            if entry.decoded_windows_1252 {
                out.push(format!(
                    "warning: {id}: not valid UTF-8, decoded as Windows-1252"
                ));
            }
        }
    }
    out
}
