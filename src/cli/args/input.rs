//! How to read the input: the corpus's format, size limits, and labels.

use clap::Args;

use crate::cli::choice::choice;
use bowline::corpus::{InputFormat, ReadOptions, DEFAULT_MAX_DOC_BYTES};
use bowline::{Error, Result};

/// The largest accepted `--max-doc-bytes` (100 MiB). A document's terms live in one buffer with
/// 32-bit offsets, and 8-grams repeat each word up to 36 times, so larger documents could overflow
/// it; longer documents are truncated with a warning instead.
pub const MAX_DOC_BYTES_LIMIT: u64 = 100 * 1024 * 1024;

/// How to read the input.
#[derive(Debug, Clone, Args)]
pub struct InputArgs {
    /// Input layout; by default a folder is class folders (unlabeled files for classify),
    /// `.tsv` and `.jsonl` go by extension, any other file is one unlabeled document, and a
    /// stream (`-`, a FIFO) is JSONL if it starts with `{`, else lines (TSV where labels are
    /// needed).
    #[arg(long, value_parser = choice::<InputFormat>())]
    pub input: Option<InputFormat>,
    /// Treat the first TSV line as a header (automatic when its first field is `label`, or `id`
    /// where the first field is an id).
    #[arg(long)]
    pub header: bool,
    /// Truncate documents longer than this many bytes, with a warning (at most 100 MiB).
    #[arg(long, default_value_t = DEFAULT_MAX_DOC_BYTES, value_name = "BYTES")]
    pub max_doc_bytes: u64,
    /// Split a TSV label field at this string into several labels (multi-label data), e.g. `,`.
    #[arg(long, value_name = "SEP")]
    pub label_sep: Option<String>,
}

impl InputArgs {
    /// The reader options for a command that learns from labels: a stream is `label<TAB>text`
    /// lines unless its first byte says JSONL, since unlabeled lines could teach nothing.
    pub fn labelled_options(&self) -> Result<ReadOptions> {
        Ok(ReadOptions {
            stream_format: InputFormat::Tsv,
            ..self.options()?
        })
    }

    /// The reader options.
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
            format: self.input,
            max_doc_bytes: self.max_doc_bytes,
            tsv_header: self.header,
            tsv_ids: false,
            label_sep: self.label_sep.clone(),
            ..ReadOptions::default()
        })
    }
}
