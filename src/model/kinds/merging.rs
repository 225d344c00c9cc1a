//! Which classifiers merge, and how each kind merges (see the [`merge`](crate::model::merge)
//! module for what is exact).

use super::{Classifier, NbKind};
use crate::error::{Error, Result};
use crate::model::merge::Part;
use crate::model::naive_bayes::ClassSums;
use crate::model::{LinearSvm, NaiveBayes, Priors};

impl Classifier {
    /// Refuses a classifier that cannot be merged; `name` names it in the error.
    pub(crate) fn check_mergeable(&self, name: &str) -> Result<()> {
        match self {
            Classifier::NaiveBayes(_) | Classifier::Svm(_) => Ok(()),
            _ => Err(self.not_mergeable(name)),
        }
    }

    fn not_mergeable(&self, name: &str) -> Error {
        let what = match self {
            Classifier::Selected(_) => "selected-feature",
            Classifier::MultiLabel(_) => "multi-label",
            Classifier::KernelSvm(_) => "kernel SVM",
            Classifier::Approximated(_) => "kernel-approximation SVM",
            other => other.name(),
        };
        Error::Config(format!(
            "{name}: a {what} model cannot be merged; naive Bayes merges exactly and the SVM by \
             averaging"
        ))
    }

    /// The parameter, in words, that `other` (of the same kind) has another value of, when
    /// merging needs it the same in every part.
    pub(crate) fn merge_conflict(&self, other: &Classifier) -> Option<&'static str> {
        match (self, other) {
            (Classifier::NaiveBayes(x), Classifier::NaiveBayes(y)) if x.priors() != y.priors() => {
                Some("priors")
            }
            // Multinomial NB's default smoothing is chosen on each shard's own documents.
            (Classifier::NaiveBayes(x), Classifier::NaiveBayes(y)) if x.alpha() != y.alpha() => {
                Some("smoothing (train the shards with the same --alpha)")
            }
            (Classifier::Svm(x), Classifier::Svm(y)) if x.params() != y.params() => {
                Some("SVM parameters")
            }
            _ => None,
        }
    }

    /// The event model of a classifier whose parts merge exactly, naive Bayes, so that their
    /// counts must add up to those of the union; `None` for the others.
    pub(crate) fn merges_exactly(&self) -> Option<NbKind> {
        self.naive_bayes().map(NaiveBayes::kind)
    }

    /// The classifiers of `parts`, of one kind and settings, merged: `columns` and `classes`
    /// give each part's columns and classes their places among the merged `features` and
    /// `labels`.
    pub(crate) fn merged(
        parts: &[Part],
        columns: &[Vec<u32>],
        classes: &[Vec<usize>],
        labels: &[String],
        features: usize,
    ) -> Result<Classifier> {
        Ok(match &parts[0].model.classifier {
            Classifier::NaiveBayes(_) => {
                Classifier::NaiveBayes(merged_nb(parts, columns, classes, features)?)
            }
            Classifier::Svm(_) => Classifier::Svm(averaged_svm(parts, columns, labels, features)?),
            other => return Err(other.not_mergeable(&parts[0].name)),
        })
    }
}

/// Naive Bayes counts added class by class and column by column. Given priors are per class,
/// so they need the same classes in every part.
fn merged_nb(
    parts: &[Part],
    columns: &[Vec<u32>],
    classes: &[Vec<usize>],
    features: usize,
) -> Result<NaiveBayes> {
    let nbs: Vec<&NaiveBayes> = (parts.iter())
        .filter_map(|p| p.model.classifier.naive_bayes())
        .collect();
    let first = nbs[0];
    let k = classes.iter().flatten().max().map_or(0, |&c| c + 1);
    if matches!(first.priors(), Priors::Given(_)) && k != first.classes() {
        return Err(Error::Config(format!(
            "{}: given priors are per class, and the parts have different classes",
            parts[0].name
        )));
    }
    let mut class_docs = vec![0.0; k];
    let mut pairs: Vec<Vec<(u32, f64)>> = vec![Vec::new(); k];
    for ((nb, columns), classes) in nbs.iter().zip(columns).zip(classes) {
        for (c, sums) in nb.sums().iter().enumerate() {
            class_docs[classes[c]] += nb.class_docs()[c];
            let moved = sums.indices.iter().map(|&j| columns[j as usize]);
            pairs[classes[c]].extend(moved.zip(sums.values.iter().copied()));
        }
    }
    let sums = pairs
        .into_iter()
        .map(|pairs| {
            let mut sums = ClassSums::default();
            sums.merge(pairs);
            sums
        })
        .collect();
    NaiveBayes::from_counts(
        first.kind(),
        first.alpha(),
        first.priors().clone(),
        class_docs,
        sums,
        features,
    )
}

/// The SVMs averaged, each weighted by its documents; they must have the same classes.
fn averaged_svm(
    parts: &[Part],
    columns: &[Vec<u32>],
    labels: &[String],
    features: usize,
) -> Result<LinearSvm> {
    let total: u32 = parts.iter().map(|p| p.model.vectorizer.n_docs()).sum();
    let mut averaged = Vec::new();
    for (part, columns) in parts.iter().zip(columns) {
        let Classifier::Svm(svm) = &part.model.classifier else {
            continue;
        };
        if part.model.labels != labels || svm.is_calibrated() {
            return Err(Error::Config(format!(
                "{}: SVMs merge only uncalibrated and with the same classes as {}",
                part.name, parts[0].name
            )));
        }
        let share = f64::from(part.model.vectorizer.n_docs()) / f64::from(total);
        averaged.push((svm, columns.as_slice(), share));
    }
    LinearSvm::averaged(&averaged, features)
}
