//! Every evaluated document's score for every class, kept for the figures that need more than
//! a decision: ROC and precision-recall curves, and the reliability of probabilities.
//!
//! The table holds documents × classes `f64` values: 1.2 MB for the 7,532 documents and 20
//! classes of 20 Newsgroups' test split, which is why evaluation keeps it only when asked.

use serde::Serialize;

use super::curves::{class_curves, macro_mean, ClassCurves};
use super::reliability::{reliability, Reliability};

/// What a classifier's per-class score is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreKind {
    /// A probability of the class: naive Bayes posteriors, a calibrated SVM's Platt
    /// probabilities, k-NN's share of the neighbours' votes.
    Probability,
    /// A decision value, 0 at the boundary: an uncalibrated linear SVM's one-vs-rest w·x + b,
    /// or a multi-label model's per-label score (an SVM margin or naive Bayes' log posterior
    /// odds). It ranks documents for the class but is no probability.
    DecisionValue,
}

/// Per-document, per-class scores with each document's true class.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreTable {
    labels: Vec<String>,
    kind: ScoreKind,
    /// Row-major: document `d`'s score for class `c` is `values[d * classes + c]`.
    values: Vec<f64>,
    truth: Vec<u32>,
}

/// ROC and precision-recall figures of every class, one against the rest, and their macro
/// averages.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Curves {
    /// What the scores ranked were.
    pub score: ScoreKind,
    /// Mean ROC AUC over the classes that have one (both positives and negatives).
    pub macro_roc_auc: Option<f64>,
    /// Mean average precision over the classes that have one (some positives).
    pub macro_average_precision: Option<f64>,
    /// Each class, in label order.
    pub per_class: Vec<ClassCurves>,
    /// Multi-label only: every (document, label) pair pooled into one ranking, as
    /// scikit-learn's `average="micro"` pools the cells of the label indicator matrix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub micro: Option<ClassCurves>,
}

impl Curves {
    /// The macro averages of per-class (or, for multi-label data, per-label) curves.
    pub(crate) fn from_classes(score: ScoreKind, per_class: Vec<ClassCurves>) -> Curves {
        Curves {
            score,
            macro_roc_auc: macro_mean(per_class.iter().map(|c| c.roc_auc)),
            macro_average_precision: macro_mean(per_class.iter().map(|c| c.average_precision)),
            per_class,
            micro: None,
        }
    }
}

impl ScoreTable {
    /// An empty table over `labels`, of scores of `kind`.
    pub fn new(labels: Vec<String>, kind: ScoreKind) -> Self {
        ScoreTable {
            labels,
            kind,
            values: Vec::new(),
            truth: Vec::new(),
        }
    }

    /// Adds one document: its scores, one per class, and its true class.
    pub fn push(&mut self, scores: &[f64], truth: u32) {
        debug_assert_eq!(scores.len(), self.labels.len());
        self.values.extend_from_slice(scores);
        self.truth.push(truth);
    }

    /// What the scores are.
    pub fn kind(&self) -> ScoreKind {
        self.kind
    }

    fn rows(&self) -> impl Iterator<Item = (&[f64], u32)> {
        self.values
            .chunks_exact(self.labels.len().max(1))
            .zip(self.truth.iter().copied())
    }

    /// Each class's curves against the rest, and the macro averages.
    pub fn curves(&self) -> Curves {
        let per_class = (0..self.labels.len())
            .map(|c| {
                let mut pairs: Vec<(f64, bool)> = self
                    .rows()
                    .map(|(scores, truth)| (scores[c], truth as usize == c))
                    .collect();
                class_curves(&self.labels[c], &mut pairs)
            })
            .collect();
        Curves::from_classes(self.kind, per_class)
    }

    /// The reliability of the most probable class's probability in `bins` equal bins, when the
    /// scores are probabilities.
    pub(crate) fn reliability(&self, bins: usize) -> Option<Reliability> {
        if self.kind != ScoreKind::Probability {
            return None;
        }
        let top = self.rows().map(|(scores, truth)| {
            let best = crate::model::decision::argmax(scores.iter().copied());
            (scores[best], best == truth as usize)
        });
        Some(reliability(top, bins))
    }
}

/// Per-document, per-label scores of a multi-label model with each document's true label set,
/// for the curves of each label against the documents without it.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelScoreTable {
    labels: Vec<String>,
    kind: ScoreKind,
    /// Row-major: document `d`'s score for label `c` is `values[d * labels + c]`.
    values: Vec<f64>,
    /// Row-major like `values`: whether document `d` has label `c`.
    has: Vec<bool>,
}

impl LabelScoreTable {
    /// An empty table over `labels`, of scores of `kind`.
    pub fn new(labels: Vec<String>, kind: ScoreKind) -> Self {
        LabelScoreTable {
            labels,
            kind,
            values: Vec::new(),
            has: Vec::new(),
        }
    }

    /// Adds one document: its scores, one per label, and the ids of its true labels; an id
    /// beyond the table's labels (a label the model does not know, so has no score for) is
    /// left out.
    pub fn push(&mut self, scores: &[f64], truth: &[usize]) {
        debug_assert_eq!(scores.len(), self.labels.len());
        self.values.extend_from_slice(scores);
        let first = self.has.len();
        self.has.resize(first + self.labels.len(), false);
        for &c in truth.iter().filter(|&&c| c < self.labels.len()) {
            self.has[first + c] = true;
        }
    }

    /// Each label's curves against the documents without it, their macro averages, and the
    /// micro curves of every cell pooled.
    pub fn curves(&self) -> Curves {
        let width = self.labels.len().max(1);
        let column = |c: usize| {
            let cells = self.values.iter().zip(&self.has).skip(c).step_by(width);
            cells.map(|(&score, &has)| (score, has)).collect::<Vec<_>>()
        };
        let per_class = (0..self.labels.len())
            .map(|c| class_curves(&self.labels[c], &mut column(c)))
            .collect();
        let mut curves = Curves::from_classes(self.kind, per_class);
        let mut pooled: Vec<(f64, bool)> = self
            .values
            .iter()
            .copied()
            .zip(self.has.iter().copied())
            .collect();
        curves.micro = Some(class_curves("micro", &mut pooled));
        curves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves_are_one_against_the_rest_and_absent_classes_stay_out_of_the_mean() {
        let labels = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let mut table = ScoreTable::new(labels, ScoreKind::Probability);
        // Class a ranks perfectly; b ranks 3 of its 4 pairs right; c has no document.
        table.push(&[0.8, 0.1, 0.1], 0);
        table.push(&[0.6, 0.3, 0.1], 0);
        table.push(&[0.5, 0.2, 0.3], 1);
        table.push(&[0.3, 0.4, 0.3], 1);
        let curves = table.curves();
        assert_eq!(curves.per_class[0].roc_auc, Some(1.0));
        // b's scores: 0.1 and 0.3 (a's documents) against 0.2 and 0.4 (b's documents).
        assert_eq!(curves.per_class[1].roc_auc, Some(0.75));
        assert_eq!(curves.per_class[2].roc_auc, None);
        assert_eq!(curves.macro_roc_auc, Some(0.875));
        let reliability = table.reliability(10).unwrap();
        assert_eq!(reliability.documents, 4);
        assert!(ScoreTable::new(vec![], ScoreKind::DecisionValue)
            .reliability(10)
            .is_none());
    }

    #[test]
    fn label_curves_are_per_label_and_micro_pools_every_cell() {
        let labels = vec!["a".to_string(), "b".to_string()];
        let mut table = LabelScoreTable::new(labels, ScoreKind::DecisionValue);
        table.push(&[0.9, 0.5], &[0]);
        // Label 5 is one the model does not know: it has no column and is left out.
        table.push(&[0.4, 0.8], &[0, 1, 5]);
        table.push(&[0.2, 0.7], &[1]);
        let curves = table.curves();
        // Each label's positives outrank its one negative.
        assert_eq!(curves.per_class[0].roc_auc, Some(1.0));
        assert_eq!(curves.per_class[1].roc_auc, Some(1.0));
        assert_eq!(curves.macro_roc_auc, Some(1.0));
        // Pooled: positives 0.9, 0.4, 0.8, 0.7 against negatives 0.5 and 0.2; 0.4 falls below
        // 0.5, so 7 of the 8 pairs are ranked right.
        let micro = curves.micro.unwrap();
        assert_eq!((micro.positives, micro.negatives), (4, 2));
        assert_eq!(micro.roc_auc, Some(7.0 / 8.0));
    }
}
