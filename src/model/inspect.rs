//! What a model has learned about each class, for `bowline inspect`: each class's most telling
//! terms, by the measure its kind offers.

use serde::Serialize;

use super::multilabel::BinaryNb;
use super::{KernelSvm, Knn, LinearSvm, NaiveBayes};
use crate::packed::Table;

/// What the values of a class's top terms are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum TermBasis {
    /// The SVM: the term's weight in the class's decision value.
    SvmWeight,
    /// Naive Bayes: what one unit of the term adds to the class's score, less its mean over the
    /// classes; a log-likelihood ratio against the average class (for Bernoulli NB, of the
    /// term's presence over its absence). The per-unit form of an explanation's contributions.
    LogLikelihoodRatio,
    /// k-NN, which has no per-class weights: the term's weight under the similarity summed over
    /// the class's training documents (their centroid, up to a factor).
    TrainingWeight,
    /// Multi-label naive Bayes: what one unit of the term adds to the label's log odds, a
    /// log-likelihood ratio of the documents with the label against those without.
    LabelLogOdds,
    /// The kernel SVM: the term's weight in Σ y·α·x over the support vectors, the decision
    /// value's weight for the linear kernel only.
    SupportWeight,
    /// A linear SVM over a kernel approximation, whose features are not terms: no terms.
    NoTerms,
}

impl TermBasis {
    /// A phrase saying what the values are.
    pub fn describe(self) -> &'static str {
        match self {
            TermBasis::SvmWeight => "weight in the class's decision value",
            TermBasis::LogLikelihoodRatio => {
                "log-likelihood ratio against the mean of the classes, per unit of the term's value"
            }
            TermBasis::TrainingWeight => {
                "summed weight in the class's training documents (k-NN has no per-class weights)"
            }
            TermBasis::LabelLogOdds => {
                "log-likelihood ratio of the label's documents against the others, per unit"
            }
            TermBasis::SupportWeight => {
                "weight in the class's coefficient-weighted sum of support vectors (the decision \
                 value's weight for the linear kernel only)"
            }
            TermBasis::NoTerms => {
                "none: the SVM's features approximate a kernel (--approx) and are not terms"
            }
        }
    }
}

/// Each class's top terms.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ClassTerms {
    /// What the values are.
    pub basis: TermBasis,
    /// Per class, `(column, value)` of its top terms, largest first.
    pub classes: Vec<Vec<(u32, f64)>>,
}

/// Each class's `k` terms of largest log-likelihood ratio against the mean of the classes.
pub(crate) fn naive_bayes_terms(nb: &NaiveBayes, k: usize) -> ClassTerms {
    let mut weights = vec![0.0; nb.classes()];
    let rows = (0..nb.features()).map(|j| {
        nb.relative_weights(j, &mut weights);
        (j as u32, weights.clone())
    });
    ranked(TermBasis::LogLikelihoodRatio, nb.classes(), k, rows)
}

/// Each of `labels` labels' `k` terms of largest contribution to its log odds.
pub(crate) fn binary_nb_terms(nb: &BinaryNb, labels: usize, k: usize) -> ClassTerms {
    let mut weights = vec![0.0; labels];
    let rows = (0..nb.counts().1.features()).map(|j| {
        nb.term_weights(j, &mut weights);
        (j as u32, weights.clone())
    });
    ranked(TermBasis::LabelLogOdds, labels, k, rows)
}

/// Each class's `k` terms of largest summed weight in its training documents.
pub(crate) fn knn_terms(knn: &Knn, k: usize) -> ClassTerms {
    let classes = knn.class_weights().into_iter().map(|counts| {
        let mut top = Top::new(k);
        counts
            .into_iter()
            .for_each(|(j, count)| top.offer(j, count));
        top.finish()
    });
    ClassTerms {
        basis: TermBasis::TrainingWeight,
        classes: classes.collect(),
    }
}

/// `terms` of a classifier on selected columns, `columns` (see
/// [`Selected`](super::Selected)), in the vectorizer's columns.
pub(crate) fn in_vocabulary(mut terms: ClassTerms, columns: &Table<u32>) -> ClassTerms {
    let mut vocabulary = vec![0u32; columns.len()];
    for (j, &c) in columns.iter().enumerate() {
        if let Some(slot) = vocabulary.get_mut(c as usize) {
            *slot = j as u32;
        }
    }
    for term in terms.classes.iter_mut().flatten() {
        term.0 = vocabulary[term.0 as usize];
    }
    terms
}

/// Each class's `k` terms of largest SVM weight.
pub(crate) fn svm_terms(svm: &LinearSvm, k: usize) -> ClassTerms {
    let classes = svm.intercepts().len();
    let rows = (0..svm.features()).map(|j| {
        let weights = (0..classes).filter_map(|c| svm.weight(j, c)).collect();
        (j as u32, weights)
    });
    ranked(TermBasis::SvmWeight, classes, k, rows)
}

/// Each class's `k` terms of largest weight in its coefficient-weighted sum of support vectors.
pub(crate) fn kernel_svm_terms(svm: &KernelSvm, k: usize) -> ClassTerms {
    let classes = svm.classes();
    let weights = svm.support_weights();
    let rows =
        (weights.chunks_exact(classes.max(1)).enumerate()).map(|(j, row)| (j as u32, row.to_vec()));
    ranked(TermBasis::SupportWeight, classes, k, rows)
}

/// The top `k` of each of `classes` classes, from rows of (column, one value per class).
fn ranked(
    basis: TermBasis,
    classes: usize,
    k: usize,
    rows: impl Iterator<Item = (u32, Vec<f64>)>,
) -> ClassTerms {
    let mut tops: Vec<Top> = (0..classes).map(|_| Top::new(k)).collect();
    for (j, values) in rows {
        for (top, value) in tops.iter_mut().zip(values) {
            top.offer(j, value);
        }
    }
    ClassTerms {
        basis,
        classes: tops.into_iter().map(Top::finish).collect(),
    }
}

/// The `k` largest of a stream of (column, value), kept in at most 2k slots: when they fill,
/// the best k are kept, so a million terms cost a million comparisons, not a sort. Once k are
/// kept, an entry that ranks below the k-th is turned away at once: the k-th only rises, so it
/// could never be kept. Without that, inspecting the default SVM model (1.09 million terms, 20
/// classes) sorted 2k entries every k offers and took 0.87 s.
struct Top {
    k: usize,
    kept: Vec<(u32, f64)>,
    /// The k-th entry kept, once k are.
    floor: Option<(u32, f64)>,
}

/// The order of [`Top`]: largest value first, then smallest column.
fn rank(a: &(u32, f64), b: &(u32, f64)) -> std::cmp::Ordering {
    b.1.total_cmp(&a.1).then(a.0.cmp(&b.0))
}

impl Top {
    /// Room grows with what is offered, not with `k`, which comes from the command line and
    /// may be far larger than the vocabulary.
    fn new(k: usize) -> Self {
        Top {
            k,
            kept: Vec::new(),
            floor: None,
        }
    }

    fn offer(&mut self, column: u32, value: f64) {
        let entry = (column, value);
        if self.floor.is_some_and(|floor| rank(&entry, &floor).is_ge()) {
            return;
        }
        self.kept.push(entry);
        if self.kept.len() > self.k.saturating_mul(2) {
            self.shrink();
        }
    }

    fn shrink(&mut self) {
        self.kept.sort_by(rank);
        self.kept.truncate(self.k);
        if self.k > 0 && self.kept.len() == self.k {
            self.floor = self.kept.last().copied();
        }
    }

    fn finish(mut self) -> Vec<(u32, f64)> {
        self.shrink();
        self.kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `k` best of `entries` by a full sort, as [`Top`] ranks them.
    fn sorted(entries: &[(u32, f64)], k: usize) -> Vec<(u32, f64)> {
        let mut all = entries.to_vec();
        all.sort_by(rank);
        all.truncate(k);
        all
    }

    #[test]
    fn top_keeps_what_a_full_sort_keeps_with_ties_and_in_any_order() {
        // Values with many ties, offered in ascending and in scrambled column order.
        let entries: Vec<(u32, f64)> = (0..5000u32)
            .map(|j| (j, f64::from((j * 7919) % 97) - 40.0))
            .collect();
        let mut scrambled = entries.clone();
        scrambled.sort_by_key(|&(j, _)| j.wrapping_mul(2_654_435_761) % 5003);
        for k in [0, 1, 3, 10, 6000] {
            for order in [&entries, &scrambled] {
                let mut top = Top::new(k);
                order.iter().for_each(|&(j, value)| top.offer(j, value));
                assert_eq!(top.finish(), sorted(&entries, k), "k {k}");
            }
        }
    }
}
