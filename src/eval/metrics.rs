//! Accuracy, per-class precision, recall and F1, macro and micro averages, and the confusion
//! matrix.

use serde::Serialize;

/// Counts of (true class, predicted class) pairs over a fixed list of labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Confusion {
    labels: Vec<String>,
    /// `matrix[true][predicted]`.
    matrix: Vec<Vec<u64>>,
}

impl Confusion {
    /// An empty matrix over `labels`.
    pub(crate) fn new(labels: Vec<String>) -> Self {
        let k = labels.len();
        Confusion {
            labels,
            matrix: vec![vec![0; k]; k],
        }
    }

    /// Counts one document.
    pub(crate) fn add(&mut self, truth: usize, predicted: usize) {
        self.matrix[truth][predicted] += 1;
    }

    /// Documents counted.
    pub(crate) fn total(&self) -> u64 {
        self.matrix.iter().flatten().sum()
    }

    /// The figures derived from the counts.
    pub(crate) fn report(&self) -> Report {
        let k = self.labels.len();
        let total = self.total();
        let correct: u64 = (0..k).map(|c| self.matrix[c][c]).sum();
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        let per_class: Vec<ClassMetrics> = (0..k)
            .map(|c| {
                let tp = self.matrix[c][c];
                let support: u64 = self.matrix[c].iter().sum();
                let predicted: u64 = (0..k).map(|t| self.matrix[t][c]).sum();
                let (precision, recall) = (ratio(tp, predicted), ratio(tp, support));
                let f1 = if precision + recall > 0.0 {
                    2.0 * precision * recall / (precision + recall)
                } else {
                    0.0
                };
                ClassMetrics {
                    label: self.labels[c].clone(),
                    precision,
                    recall,
                    f1,
                    support,
                }
            })
            .collect();
        // As scikit-learn averages: over the classes that occur in the truth or the
        // predictions. A class the data never mentions has no F1 to speak of, and counting it
        // as 0 would lower the average of a perfect classifier.
        let present: Vec<f64> = (0..k)
            .filter(|&c| per_class[c].support > 0 || (0..k).any(|t| self.matrix[t][c] > 0))
            .map(|c| per_class[c].f1)
            .collect();
        let macro_f1 = if present.is_empty() {
            0.0
        } else {
            present.iter().sum::<f64>() / present.len() as f64
        };
        Report {
            accuracy: ratio(correct, total),
            macro_f1,
            // With exactly one predicted class per document, micro-averaged precision, recall
            // and F1 all equal accuracy.
            micro_f1: ratio(correct, total),
            per_class,
            confusion: ConfusionJson {
                labels: self.labels.clone(),
                matrix: self.matrix.clone(),
            },
            docs: total,
        }
    }
}

/// One class's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassMetrics {
    /// The class.
    pub label: String,
    /// Of the documents predicted as this class, the fraction that are.
    pub precision: f64,
    /// Of the documents of this class, the fraction predicted as it.
    pub recall: f64,
    /// Harmonic mean of precision and recall.
    pub f1: f64,
    /// Documents of this class.
    pub support: u64,
}

/// The confusion matrix as `eval --json` writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfusionJson {
    /// Row and column labels.
    pub labels: Vec<String>,
    /// `matrix[true][predicted]`.
    pub matrix: Vec<Vec<u64>>,
}

/// Everything `bowline eval` reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Fraction of documents classified correctly.
    pub accuracy: f64,
    /// Unweighted mean of the per-class F1, over the classes that occur in the truth or the
    /// predictions (as scikit-learn's `f1_score(average='macro')`).
    pub macro_f1: f64,
    /// F1 over all decisions pooled (equal to accuracy for single-label classification).
    pub micro_f1: f64,
    /// Per-class figures, in label order.
    pub per_class: Vec<ClassMetrics>,
    /// The confusion matrix.
    pub confusion: ConfusionJson,
    /// Documents evaluated.
    pub docs: u64,
}

impl Report {
    /// Aligned tables for a terminal.
    pub fn text(&self) -> String {
        let width = label_width(self.per_class.iter().map(|m| m.label.as_str()));
        let mut out = format!(
            "documents {}  accuracy {:.4}  macro-F1 {:.4}  micro-F1 {:.4}\n\n",
            self.docs, self.accuracy, self.macro_f1, self.micro_f1
        );
        let rows = self.per_class.iter();
        out += &figures_table(
            "class",
            width,
            rows.map(|m| (m.label.as_str(), m.precision, m.recall, m.f1, m.support)),
        );
        out += "\nconfusion (rows: true class, columns: predicted, in the order above)\n";
        let cell = self
            .confusion
            .matrix
            .iter()
            .flatten()
            .map(|n| n.to_string().len())
            .max()
            .unwrap_or(1);
        for (label, row) in self.confusion.labels.iter().zip(&self.confusion.matrix) {
            let cells: Vec<String> = row.iter().map(|n| format!("{n:>cell$}")).collect();
            out += &format!("{label:<width$}  {}\n", cells.join(" "));
        }
        out
    }
}

/// One row of a per-class or per-label table: the name, precision, recall, F1 and support.
pub(crate) type FigureRow<'a> = (&'a str, f64, f64, f64, u64);

/// The width of a table's name column: the longest name, and at least 5.
pub(crate) fn label_width<'a>(labels: impl Iterator<Item = &'a str>) -> usize {
    labels.map(str::len).max().unwrap_or(5).max(5)
}

/// Precision, recall, F1 and support aligned in columns, under a header whose first column is
/// `heading` (`class`, or `label` for label sets), the names `width` wide.
pub(crate) fn figures_table<'a>(
    heading: &str,
    width: usize,
    rows: impl Iterator<Item = FigureRow<'a>>,
) -> String {
    let mut out = format!(
        "{heading:<width$}  {:>9}  {:>6}  {:>6}  {:>7}\n",
        "precision", "recall", "F1", "support"
    );
    for (name, precision, recall, f1, support) in rows {
        out +=
            &format!("{name:<width$}  {precision:>9.4}  {recall:>6.4}  {f1:>6.4}  {support:>7}\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_figures() {
        let mut confusion = Confusion::new(vec!["a".into(), "b".into(), "c".into()]);
        // Truth a: predicted a, a, b. Truth b: b. Truth c: a, c.
        for (t, p) in [(0, 0), (0, 0), (0, 1), (1, 1), (2, 0), (2, 2)] {
            confusion.add(t, p);
        }
        let report = confusion.report();
        assert_eq!(report.docs, 6);
        assert!((report.accuracy - 4.0 / 6.0).abs() < 1e-12);
        let a = &report.per_class[0];
        // Precision 2/3 (a predicted 3 times, right twice), recall 2/3, support 3.
        assert!((a.precision - 2.0 / 3.0).abs() < 1e-12 && (a.recall - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(a.support, 3);
        let b = &report.per_class[1];
        assert!((b.precision - 0.5).abs() < 1e-12 && (b.recall - 1.0).abs() < 1e-12);
        assert!((b.f1 - 2.0 / 3.0).abs() < 1e-12);
        let c = &report.per_class[2];
        assert!((c.f1 - 2.0 / 3.0).abs() < 1e-12);
        assert!((report.macro_f1 - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(report.confusion.matrix, [[2, 1, 0], [0, 1, 0], [1, 0, 1]]);
        // The tables, aligned by hand: names 5 wide (the least), figures under their headers.
        let text = [
            "documents 6  accuracy 0.6667  macro-F1 0.6667  micro-F1 0.6667",
            "",
            "class  precision  recall      F1  support",
            "a         0.6667  0.6667  0.6667        3",
            "b         0.5000  1.0000  0.6667        1",
            "c         1.0000  0.5000  0.6667        2",
            "",
            "confusion (rows: true class, columns: predicted, in the order above)",
            "a      2 1 0",
            "b      0 1 0",
            "c      1 0 1",
            "",
        ];
        assert_eq!(report.text(), text.join("\n"));
    }

    #[test]
    fn macro_f1_leaves_out_classes_absent_from_truth_and_predictions() {
        let labels: Vec<String> = ["a", "b", "c", "d", "e", "f"].map(String::from).to_vec();
        let mut confusion = Confusion::new(labels);
        for c in 0..4 {
            confusion.add(c, c);
        }
        let report = confusion.report();
        assert_eq!((report.accuracy, report.macro_f1), (1.0, 1.0));
        // A wrong guess of an absent class brings that class into the average, at F1 0.
        confusion.add(0, 5);
        let report = confusion.report();
        let f1_a = 2.0 * 1.0 * 0.5 / 1.5;
        assert!((report.macro_f1 - (f1_a + 3.0) / 5.0).abs() < 1e-12);
    }

    #[test]
    fn macro_f1_counts_a_class_of_the_truth_never_predicted() {
        let mut confusion = Confusion::new(vec!["a".into(), "b".into()]);
        confusion.add(0, 0);
        confusion.add(1, 0);
        // a: precision 1/2, recall 1, F1 2/3; b: never predicted, F1 0, yet in the truth.
        let report = confusion.report();
        assert!((report.macro_f1 - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn the_name_column_is_as_wide_as_the_longest_name_and_at_least_5() {
        assert_eq!(label_width(["ab", "c"].into_iter()), 5);
        assert_eq!(label_width(["sci.space", "ab"].into_iter()), 9);
        assert_eq!(label_width(std::iter::empty()), 5);
    }
}
