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
mod entry;
mod folder;
mod lines;
mod options;

use std::path::Path;

use serde::Serialize;

pub use decode::{decode, DEFAULT_MAX_DOC_BYTES};
pub use entry::{Document, Entries, Entry, Skip};
pub use options::{InputFormat, ReadOptions};

use crate::error::{Error, Result};

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
pub(crate) fn rereadable(path: &Path) -> bool {
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
