//! The corpus that the criterion benchmarks share (`analyze.rs`, `solve.rs`): 20 Newsgroups
//! train from `../shared/corpora` when it is there, whose figures benches/README.md gives,
//! otherwise the project's own `corpora/`.

use std::path::Path;

use bowline::corpus::{self, Document, ReadOptions};

const SHARED: &str = "../shared/corpora/20news-bydate/train";

/// The corpus's documents, loaded; its class folders' names, sorted; and whether it is 20
/// Newsgroups' (whose counts the benchmarks assert).
pub fn read() -> (Vec<Document>, Vec<String>, bool) {
    let shared = Path::new(SHARED).is_dir();
    let root = if shared { SHARED } else { "corpora" };
    let (entries, classes) =
        corpus::open(Path::new(root), &ReadOptions::default()).expect("corpus");
    let documents = entries.map(|mut entry| {
        corpus::load_pending(&mut entry, corpus::DEFAULT_MAX_DOC_BYTES);
        entry.doc
    });
    (documents.collect(), classes, shared)
}
