//! What `vectorize` says of the matrix it wrote, and what a summary line says of a vectorizer's
//! features.

use std::path::Path;
use std::time::Duration;

use crate::vectorize::FittedVectorizer;

/// A vectorizer's features as a summary line names them: `N terms`, or for hashed terms the
/// columns some training document reached.
pub fn features(vectorizer: &FittedVectorizer) -> String {
    match vectorizer.hashing() {
        Some(hashing) => {
            let reached = vectorizer.df().iter().filter(|&&d| d > 0).count();
            format!("terms hashed to {reached} of 2^{} columns", hashing.bits())
        }
        None => format!("{} terms", vectorizer.terms().len()),
    }
}

/// The closing line of a fit: `classes` classes over the vectorizer's features, `entries`
/// non-zeros written to `output`.
pub fn fitted(
    classes: usize,
    vectorizer: &FittedVectorizer,
    entries: usize,
    output: &Path,
) -> String {
    format!(
        "{classes} classes, {}, {entries} non-zeros -> {}",
        features(vectorizer),
        output.display()
    )
}

/// The closing line of a transform: `rows` rows over the vectorizer's features, with `oov`
/// out-of-vocabulary terms, written to `output`.
pub fn transformed(rows: u64, oov: u64, vectorizer: &FittedVectorizer, output: &Path) -> String {
    format!(
        "{rows} rows over {}, {oov} out-of-vocabulary terms -> {}",
        features(vectorizer),
        output.display()
    )
}

/// The closing line of a cluster process other than process 0.
pub const COUNTED_FOR_PROCESS_0: &str = "documents counted for process 0, which writes the matrix";

/// How long a fit's phases took: reading, analyzing and counting; the vocabulary; weighing and
/// writing.
pub fn phases([counted, pruned, written]: [Duration; 3]) -> String {
    format!(
        "phases: read+analyze+count {:.3} s, vocabulary {:.3} s, weigh+write {:.3} s",
        counted.as_secs_f64(),
        pruned.as_secs_f64(),
        written.as_secs_f64()
    )
}

/// The warning for document `id`, whose class the vocabulary file lacks: its rows are written
/// with the new label `label`.
pub fn new_class(id: &str, class: &str, label: usize) -> String {
    format!("warning: {id}: class '{class}' is not in the vocabulary file; written as {label}")
}
