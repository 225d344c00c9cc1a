//! How an input is read: its layout ([`InputFormat`]) and the options built from command-line
//! flags ([`ReadOptions`]).

use std::path::Path;

use super::decode::DEFAULT_MAX_DOC_BYTES;
use crate::choice::Choice;

/// The layout of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

impl Choice for InputFormat {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        (
            "folder",
            "A folder with one subfolder per class; every file below a class folder is a document",
            InputFormat::Folder,
        ),
        (
            "files",
            "Unlabeled files, or folder trees of them; every file is one document",
            InputFormat::Files,
        ),
        (
            "tsv",
            "`label<TAB>text` per line (`id<TAB>text` for `classify`)",
            InputFormat::Tsv,
        ),
        (
            "jsonl",
            r#"`{"id"?, "label"? or "labels"?, "text"}` per line"#,
            InputFormat::Jsonl,
        ),
        (
            "lines",
            "One unlabeled document per line",
            InputFormat::Lines,
        ),
        (
            "index",
            "A corpus index written by `bowline index`: its documents, in indexing order",
            InputFormat::Index,
        ),
    ];
}

impl InputFormat {
    /// Guesses the format from a path: `-` is stdin lines, a folder holding a tantivy index
    /// (`meta.json` and `.managed.json`) is a corpus index, any other folder is class folders,
    /// `.tsv` and `.jsonl` by extension, any other file is a single unlabeled document.
    pub(crate) fn detect(path: &Path) -> Self {
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
    pub(super) fn by_extension(path: &Path) -> Option<Self> {
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
