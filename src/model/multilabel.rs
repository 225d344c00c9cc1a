//! Multi-label classification by binary relevance: one binary problem per label (does the
//! document have it or not), each scored on its own, and a per-label threshold on the scores.
//!
//! Every binary-relevance classifier scores a label by a log-odds-like value whose natural
//! threshold is 0 (the SVM's margin, naive Bayes' log posterior odds). Tuned thresholds shift
//! that per label, chosen to maximize each label's F1 on documents the scores were not trained
//! on (see `choose_threshold`).

use serde::{Deserialize, Serialize};

pub use super::kinds::PerLabel;
pub(crate) use super::label_sets::HeldOutScores;
pub use super::label_sets::LabelSets;
use super::linear_svm::ColumnChange;
use crate::error::{Error, Result};
use crate::vectorize::Matrix;

mod nb;
pub use nb::BinaryNb;

/// A multi-label classifier: a binary scorer per label and the decision on its scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MultiLabelClassifier {
    /// The per-label scorers.
    pub scorer: PerLabel,
    /// Thresholds and the least number of labels.
    pub decision: MultiLabel,
}

impl MultiLabelClassifier {
    /// Fills `out` (one slot per label) with each label's score for one weighted row: an SVM
    /// margin or naive Bayes' log posterior odds, 0 at the natural boundary.
    pub fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        self.scorer.scores(indices, values, out);
    }

    /// Number of labels.
    pub fn labels(&self) -> usize {
        self.decision.thresholds.len()
    }

    /// Checks the parts a damaged file could make inconsistent.
    pub fn check(&self) -> Result<()> {
        let labels = self.scorer.check()?;
        self.decision.check(labels)
    }

    /// Learns more rows with their label sets, out of `labels` labels (old and new); a new
    /// label's threshold is the natural boundary, 0. Naive Bayes adds the rows to its counts,
    /// exactly; the SVM continues from its weights (see `LinearSvm::update_sets`).
    pub fn update(
        &mut self,
        rows: &Matrix,
        sets: &LabelSets,
        labels: usize,
        columns: &[u32],
        change: ColumnChange,
    ) -> Result<()> {
        self.scorer.update(rows, sets, labels, columns, change)?;
        self.decision.thresholds.resize(labels, 0.0);
        Ok(())
    }
}

/// What turns a multi-label model's scores into label sets: saved with the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MultiLabel {
    /// Per label, the score above which a document gets it.
    pub thresholds: Vec<f64>,
    /// At least this many labels per document, the highest-scoring, whatever the thresholds.
    pub min_labels: u32,
    /// How the thresholds were chosen, for `train`'s output and the model's provenance.
    pub tuned_by: String,
}

impl MultiLabel {
    /// Thresholds at the classifiers' natural boundary, 0, for `labels` labels.
    pub(crate) fn untuned(labels: usize, min_labels: u32) -> Self {
        MultiLabel {
            thresholds: vec![0.0; labels],
            min_labels,
            tuned_by: "none (0 for every label)".into(),
        }
    }

    /// Checks what a damaged file could get wrong: a threshold per label, none of them NaN.
    pub fn check(&self, labels: usize) -> Result<()> {
        if self.thresholds.len() != labels || self.thresholds.iter().any(|t| t.is_nan()) {
            return Err(Error::Config(
                "multi-label thresholds do not match the labels".into(),
            ));
        }
        Ok(())
    }

    /// The labels of one document from its per-label scores: every label whose score is above
    /// its threshold, topped up with the highest-scoring others to `min_labels`, highest score
    /// first (ties by label id).
    pub fn predict(&self, scores: &[f64]) -> Vec<usize> {
        let by_score = |a: &usize, b: &usize| scores[*b].total_cmp(&scores[*a]).then(a.cmp(b));
        let minimum = (self.min_labels as usize).min(scores.len());
        let mut order: Vec<usize> = (0..scores.len()).collect();
        // Only the top `minimum` need finding among all the labels; the others qualify by their
        // thresholds alone, and only the few that do are sorted. Sorting all 90 of Reuters'
        // labels for every document had taken a tenth of `eval`'s time.
        if (1..order.len()).contains(&minimum) {
            order.select_nth_unstable_by(minimum - 1, by_score);
        }
        let (top, rest) = order.split_at(minimum);
        let above = rest.iter().filter(|&&c| scores[c] > self.threshold(c));
        let mut labels: Vec<usize> = top.iter().chain(above).copied().collect();
        labels.sort_unstable_by(by_score);
        labels
    }

    /// Label `c`'s threshold; 0 for a label added since the thresholds were chosen.
    pub fn threshold(&self, c: usize) -> f64 {
        self.thresholds.get(c).copied().unwrap_or(0.0)
    }
}

/// The threshold that maximizes a label's F1 over held-out documents, from each document's
/// score for the label and whether it has it. The threshold lies halfway between the lowest
/// score kept and the highest score left out, so it generalizes to scores between them. When
/// no held-out document has the label, or the best F1 is below [`MIN_TUNED_F1`], the natural
/// boundary, 0, stays.
pub(crate) fn choose_threshold(scored: &mut [(f64, bool)]) -> f64 {
    let positives = scored.iter().filter(|&&(_, has)| has).count();
    if positives == 0 {
        return 0.0;
    }
    // Equal scores may come in any order: a threshold only falls between different scores,
    // where the documents above it are the same whatever their order.
    scored.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
    let (mut best, mut best_f1, mut true_positives) = (0.0, -1.0, 0usize);
    for (kept, &(score, has)) in scored.iter().enumerate() {
        true_positives += usize::from(has);
        // A threshold can only fall between two different scores.
        let next = scored.get(kept + 1).map(|&(s, _)| s);
        if next == Some(score) {
            continue;
        }
        let f1 = 2.0 * true_positives as f64 / (kept + 1 + positives) as f64;
        if f1 > best_f1 {
            best_f1 = f1;
            best = match next {
                Some(below) => (score + below) / 2.0,
                None => score - 1.0,
            };
        }
    }
    if best_f1 < MIN_TUNED_F1 {
        return 0.0;
    }
    best
}

/// A tuned threshold is kept only when its held-out F1 reaches this; below it the label's
/// held-out evidence is too weak (typically one or two documents ranked among many others),
/// and the threshold that maximizes F1 would give the label to hundreds of documents for a
/// sliver of F1, so the natural boundary, 0, stays. This is Yang's SCutFBR ("Fallback
/// rank", 2001); 0.3 was chosen on a split of Reuters-21578's training documents (the
/// test documents were not used), among 0.1, 0.3 and 0.5.
pub(crate) const MIN_TUNED_F1: f64 = 0.3;

#[cfg(test)]
mod tests;
