//! Multi-label scores: each document has a set of true labels and a set of predicted ones.
//!
//! The definitions are scikit-learn's (`f1_score` with `average` micro, macro and samples,
//! `accuracy_score` on label sets, `hamming_loss`), with `zero_division=0`. As for single-label
//! macro-F1, the labels counted are those present in the data or the predictions: a label of
//! the model that no test document has and none is given counts in neither the macro average
//! nor the Hamming loss's denominator.

use serde::Serialize;

/// One label's counts and scores.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LabelScores {
    /// The label.
    pub label: String,
    /// Documents given the label that have it.
    pub true_positives: u64,
    /// Documents given the label that do not have it.
    pub false_positives: u64,
    /// Documents that have the label and were not given it.
    pub false_negatives: u64,
    /// Precision, 0 when the label was never given.
    pub precision: f64,
    /// Recall, 0 when no document has the label.
    pub recall: f64,
    /// F1, 0 when both are 0.
    pub f1: f64,
    /// Documents that have the label.
    pub support: u64,
}

/// The scores of a multi-label evaluation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MultiLabelMetrics {
    /// Documents evaluated.
    pub documents: u64,
    /// Labels counted: those present in the data or the predictions.
    pub labels: u64,
    /// Precision over all (document, label) decisions pooled.
    pub micro_precision: f64,
    /// Recall over all decisions pooled.
    pub micro_recall: f64,
    /// F1 over all decisions pooled.
    pub micro_f1: f64,
    /// Mean of the labels' precisions.
    pub macro_precision: f64,
    /// Mean of the labels' recalls.
    pub macro_recall: f64,
    /// Mean of the labels' F1.
    pub macro_f1: f64,
    /// Mean over documents of each document's F1 between its true and predicted sets.
    pub samples_f1: f64,
    /// Share of documents whose predicted set equals the true set.
    pub subset_accuracy: f64,
    /// Share of (document, label) decisions that are wrong.
    pub hamming_loss: f64,
    /// Per label, in label order.
    pub per_label: Vec<LabelScores>,
}

/// Counts true and predicted label sets over labels `0..names.len()`, one document at a time.
#[derive(Debug, Clone)]
pub struct MultiLabelCounts {
    names: Vec<String>,
    counts: Vec<[u64; 3]>,
    documents: u64,
    exact: u64,
    samples_f1: f64,
    wrong: u64,
}

impl MultiLabelCounts {
    /// No documents yet, over labels named `names` (more may be added with
    /// [`MultiLabelCounts::label`]).
    pub fn new(names: Vec<String>) -> Self {
        let counts = vec![[0; 3]; names.len()];
        MultiLabelCounts {
            names,
            counts,
            documents: 0,
            exact: 0,
            samples_f1: 0.0,
            wrong: 0,
        }
    }

    /// The id of label `name`, adding it when new (a test label the model does not know).
    pub fn label(&mut self, name: &str) -> usize {
        match self.names.iter().position(|n| n == name) {
            Some(id) => id,
            None => {
                self.names.push(name.to_string());
                self.counts.push([0; 3]);
                self.names.len() - 1
            }
        }
    }

    /// Counts one document with true labels `truth` and predicted labels `predicted` (ids,
    /// each at most once).
    pub fn add(&mut self, truth: &[usize], predicted: &[usize]) {
        let both = predicted.iter().filter(|c| truth.contains(c)).count() as u64;
        for &c in predicted {
            self.counts[c][usize::from(!truth.contains(&c))] += 1;
        }
        for &c in truth {
            if !predicted.contains(&c) {
                self.counts[c][2] += 1;
            }
        }
        let sizes = (truth.len() + predicted.len()) as u64;
        self.documents += 1;
        self.exact += u64::from(both * 2 == sizes);
        self.samples_f1 += ratio(2 * both, sizes);
        self.wrong += sizes - 2 * both;
    }

    /// The scores of the documents counted.
    pub fn metrics(&self) -> MultiLabelMetrics {
        let per_label: Vec<LabelScores> = (self.names.iter().zip(&self.counts))
            .filter(|(_, &[tp, fp, fn_])| tp + fp + fn_ > 0)
            .map(|(name, &[tp, fp, fn_])| LabelScores {
                label: name.clone(),
                true_positives: tp,
                false_positives: fp,
                false_negatives: fn_,
                precision: ratio(tp, tp + fp),
                recall: ratio(tp, tp + fn_),
                f1: ratio(2 * tp, 2 * tp + fp + fn_),
                support: tp + fn_,
            })
            .collect();
        let sum = |f: fn(&LabelScores) -> u64| per_label.iter().map(f).sum::<u64>();
        let (tp, fp, fn_) = (
            sum(|l| l.true_positives),
            sum(|l| l.false_positives),
            sum(|l| l.false_negatives),
        );
        let mean = |f: fn(&LabelScores) -> f64| {
            let n = per_label.len();
            if n == 0 {
                0.0
            } else {
                per_label.iter().map(f).sum::<f64>() / n as f64
            }
        };
        let labels = per_label.len() as u64;
        MultiLabelMetrics {
            documents: self.documents,
            labels,
            micro_precision: ratio(tp, tp + fp),
            micro_recall: ratio(tp, tp + fn_),
            micro_f1: ratio(2 * tp, 2 * tp + fp + fn_),
            macro_precision: mean(|l| l.precision),
            macro_recall: mean(|l| l.recall),
            macro_f1: mean(|l| l.f1),
            samples_f1: self.samples_f1 / self.documents.max(1) as f64,
            subset_accuracy: ratio(self.exact, self.documents),
            hamming_loss: ratio(self.wrong, self.documents * labels),
            per_label,
        }
    }
}

/// `a / b`, or 0 when `b` is 0 (scikit-learn's `zero_division=0`).
fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}
