//! Learning more documents: each kind's update of a trained classifier, and the naive Bayes
//! counts that online learning continues.

use super::{Classifier, PerLabel};
use crate::error::{Error, Result};
use crate::model::multilabel::{LabelSets, MultiLabel};
use crate::model::{ColumnChange, NaiveBayes};
use crate::vectorize::{FittedVectorizer, Matrix, Norm};

impl Classifier {
    /// Learns more rows: `rows` (weighted by `merged`, or raw counts when `learns_counts`) of
    /// classes `ids` out of `classes`. `merged` is `old` extended by the new documents; `columns`
    /// gives each of `old`'s columns its place in `merged`.
    ///
    /// Naive Bayes adds the rows to its counts: with a weighting that depends on the document
    /// alone (no idf) and no pruning, the result equals training on all documents at once; with
    /// idf, earlier documents keep the weights they had. k-NN adds the counts and derives its
    /// weights again from the merged document frequencies: with no pruning the result is the
    /// model trained on all documents at once. The SVM continues its dual problem over its
    /// reservoir of earlier rows, re-weighted with the new idf, plus the new rows (see
    /// [`LinearSvm::update`](crate::model::LinearSvm::update)); over a kernel approximation, it
    /// does so on the mapped rows, the map kept as fitted (see
    /// [`Approximated::update`](crate::model::Approximated::update)). The kernel SVM solves its
    /// dual again over its support vectors, re-weighted, and the new rows, from its previous α
    /// (see [`KernelSvm::update`](crate::model::KernelSvm::update)).
    pub fn update(
        &mut self,
        rows: &Matrix,
        ids: &[u32],
        classes: usize,
        old: &FittedVectorizer,
        merged: &FittedVectorizer,
        columns: &[u32],
    ) -> Result<()> {
        let features = merged.n_features();
        match self {
            Classifier::NaiveBayes(nb) => {
                nb.check_sums()?;
                nb.remap(columns, features, classes);
                nb.add(rows, ids);
            }
            Classifier::Svm(svm) => {
                let rescale = rescale(old, merged, columns);
                svm.update(rows, ids, classes, change(merged, columns, &rescale))?;
            }
            Classifier::KernelSvm(svm) => {
                let rescale = rescale(old, merged, columns);
                svm.update(rows, ids, classes, change(merged, columns, &rescale))?;
            }
            Classifier::Knn(knn) => {
                knn.check_postings()?;
                knn.remap(columns, features, classes);
                knn.add(rows, ids)?;
            }
            Classifier::Selected(_) => return refusal(SELECTED),
            Classifier::Approximated(approx) => approx.update(rows, ids, classes, columns)?,
            Classifier::MultiLabel(_) => {
                // Documents with one label each are label sets of one.
                let mut sets = LabelSets::new();
                ids.iter().for_each(|&id| sets.push([id]));
                return self.update_sets(rows, &sets, classes, old, merged, columns);
            }
        }
        Ok(())
    }

    /// Learns more multi-label rows: `rows` (weighted by `merged`) with label sets `sets` out of
    /// `labels` labels, as [`Classifier::update`] does for single-label rows. Only a
    /// multi-label classifier takes label sets.
    pub(crate) fn update_sets(
        &mut self,
        rows: &Matrix,
        sets: &LabelSets,
        labels: usize,
        old: &FittedVectorizer,
        merged: &FittedVectorizer,
        columns: &[u32],
    ) -> Result<()> {
        let Classifier::MultiLabel(multi) = self else {
            return Err(Error::Config(
                "documents with several labels can only update a multi-label model".into(),
            ));
        };
        let rescale = rescale(old, merged, columns);
        multi.update(
            rows,
            sets,
            labels,
            columns,
            change(merged, columns, &rescale),
        )
    }

    /// Why the classifier cannot learn more documents, when it cannot: it is a model from
    /// `select`, or a kernel SVM of format 11.
    pub(crate) fn not_updatable(&self) -> Option<&'static str> {
        match self {
            Classifier::Selected(_) => Some(SELECTED),
            Classifier::KernelSvm(svm) => svm.not_updatable(),
            _ => None,
        }
    }

    /// Refuses, before any work, a classifier that cannot learn more documents (see
    /// [`Classifier::not_updatable`]); the error names no file, which the caller may know.
    pub(crate) fn check_updatable(&self) -> Result<()> {
        self.not_updatable().map_or(Ok(()), refusal)
    }

    /// The naive Bayes counts that online learning continues: a naive Bayes model's, or a
    /// multi-label naive Bayes model's per-label counts with its counts over all documents (as
    /// one class) and its decision. `None` for the kinds that do not learn one document at a
    /// time.
    pub(crate) fn online_counts(
        &self,
    ) -> Option<(&NaiveBayes, Option<(&NaiveBayes, &MultiLabel)>)> {
        match self {
            Classifier::NaiveBayes(nb) => Some((nb, None)),
            Classifier::MultiLabel(multi) => match &multi.scorer {
                PerLabel::NaiveBayes(binary) => {
                    let (positives, all) = binary.counts();
                    Some((positives, Some((all, &multi.decision))))
                }
                PerLabel::Svm(_) => None,
            },
            _ => None,
        }
    }
}

impl PerLabel {
    /// Learns more rows with their label sets, out of `labels` labels (old and new): naive
    /// Bayes adds them to its counts, renumbered by `columns`; the SVM continues from its
    /// weights.
    pub(crate) fn update(
        &mut self,
        rows: &Matrix,
        sets: &LabelSets,
        labels: usize,
        columns: &[u32],
        change: ColumnChange,
    ) -> Result<()> {
        match self {
            PerLabel::Svm(svm) => svm.update_sets(rows, sets, labels, change)?,
            PerLabel::NaiveBayes(nb) => {
                nb.remap(columns, rows.cols(), labels);
                nb.add(rows, sets);
            }
        }
        Ok(())
    }
}

/// Per merged column, its new idf over its old one: how the values of earlier rows change. A
/// column the model did not have, or whose old idf was zero (a term in every document under plain
/// idf, whose values were all zero), keeps factor 1.
fn rescale(old: &FittedVectorizer, merged: &FittedVectorizer, columns: &[u32]) -> Vec<f64> {
    let mut factors = vec![1.0; merged.n_features()];
    for (&new, &before) in columns.iter().zip(old.idf()) {
        if before > 0.0 {
            factors[new as usize] = merged.idf()[new as usize] / before;
        }
    }
    factors
}

/// How the model's columns change: `columns` and `rescale` (see [`rescale`]), and whether rows
/// are scaled to unit length under `merged`'s weighting.
fn change<'a>(
    merged: &FittedVectorizer,
    columns: &'a [u32],
    rescale: &'a [f64],
) -> ColumnChange<'a> {
    ColumnChange {
        columns,
        rescale,
        l2: merged.config().weighting.norm == Norm::L2,
    }
}

/// Why a model from `select` cannot learn more documents.
const SELECTED: &str = "a model from `select` keeps only its selected features and cannot be \
                        updated; select again on all the documents";

/// The refusal of an update, for `reason`.
fn refusal(reason: &str) -> Result<()> {
    Err(Error::Config(reason.into()))
}
