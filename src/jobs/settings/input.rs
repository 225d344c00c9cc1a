//! How to read the input, as given: the corpus's format, size limits, and labels.

use crate::corpus::{InputFormat, ReadOptions};
use crate::error::{Error, Result};

/// The largest accepted document size (100 MiB). A document's terms live in one buffer with
/// 32-bit offsets, and 8-grams repeat each word up to 36 times, so larger documents could overflow
/// it; longer documents are truncated with a warning instead.
pub const MAX_DOC_BYTES_LIMIT: u64 = 100 * 1024 * 1024;

/// How to read the input, as a user gives it.
#[derive(Debug, Clone)]
pub struct InputFlags {
    /// The input layout; `None` decides by the path and the stream's first byte.
    pub format: Option<InputFormat>,
    /// The first TSV line is a header.
    pub header: bool,
    /// Documents are truncated beyond this many bytes.
    pub max_doc_bytes: u64,
    /// Splits a TSV label field into several labels.
    pub label_sep: Option<String>,
}

impl InputFlags {
    /// The validated options for a corpus whose stream lines are labelled (TSV).
    pub fn labelled_options(&self) -> Result<ReadOptions> {
        Ok(ReadOptions {
            stream_format: InputFormat::Tsv,
            ..self.options()?
        })
    }

    /// The validated options for unlabeled documents, as `classify` and `suggest` read them: a
    /// folder holds documents, not classes, and a TSV line is `id<TAB>text`, with no label.
    pub fn unlabelled_options(&self) -> Result<ReadOptions> {
        Ok(ReadOptions {
            folder_format: InputFormat::Files,
            tsv_ids: true,
            ..self.options()?
        })
    }

    /// The validated options.
    pub fn options(&self) -> Result<ReadOptions> {
        if !(1..=MAX_DOC_BYTES_LIMIT).contains(&self.max_doc_bytes) {
            return Err(Error::Config(format!(
                "--max-doc-bytes must be between 1 and {MAX_DOC_BYTES_LIMIT}"
            )));
        }
        if self.label_sep.as_deref() == Some("") {
            return Err(Error::Config(
                "--label-sep must not be empty: it splits a label field, as , does".into(),
            ));
        }
        Ok(ReadOptions {
            format: self.format,
            max_doc_bytes: self.max_doc_bytes,
            tsv_header: self.header,
            tsv_ids: false,
            label_sep: self.label_sep.clone(),
            ..ReadOptions::default()
        })
    }
}
