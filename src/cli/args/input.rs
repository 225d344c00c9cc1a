//! How to read the input: the corpus's format, size limits, and labels.

use clap::Args;

use crate::cli::choice::choice;
use bowline::jobs::settings::{InputFlags, InputFormat, DEFAULT_MAX_DOC_BYTES};

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
    /// The settings as the library takes them.
    pub fn flags(&self) -> InputFlags {
        InputFlags {
            format: self.input,
            header: self.header,
            max_doc_bytes: self.max_doc_bytes,
            label_sep: self.label_sep.clone(),
        }
    }
}
