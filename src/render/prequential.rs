//! A stream's test-then-train figures (`learn --prequential`), one line per window.

use crate::eval::Prequential;

/// The figures of `record` so far as one line: documents seen, accuracy over the latest window
/// and since the start, and each of `labels`' F1 over the window.
pub fn prequential_line(record: &Prequential, labels: &[String]) -> String {
    let f1: Vec<String> = record
        .window_f1(labels.len())
        .iter()
        .zip(labels)
        .map(|(f, label)| format!("{label} {f:.4}"))
        .collect();
    format!(
        "prequential: {} documents: accuracy {:.4} over the last {}, {:.4} since the start; F1 {}",
        record.seen(),
        record.window_accuracy(),
        record.seen().min(record.window() as u64),
        record.accuracy(),
        f1.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_gives_the_window_and_the_whole_stream() {
        let mut record = Prequential::new(2);
        record.add(0, Some(0));
        record.add(1, Some(0));
        record.add(1, Some(1));
        let labels = ["a".to_string(), "b".to_string()];
        assert_eq!(
            prequential_line(&record, &labels),
            "prequential: 3 documents: accuracy 0.5000 over the last 2, 0.6667 since the start; \
             F1 a 0.0000, b 0.6667"
        );
    }
}
