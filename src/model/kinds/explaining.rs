//! A score taken apart by term, each kind by its own arithmetic (see the
//! [`explain`](crate::model::explain) module).

use super::{Classifier, PerLabel};
use crate::model::explain::Attribution;

impl Classifier {
    /// Takes class `class`'s score of one weighted row apart (see the
    /// [`explain`](crate::model::explain) module's documentation). Columns beyond the model's
    /// features are left out, as scoring ignores them. `class` must be one of the classifier's
    /// classes (it panics otherwise, as indexing does).
    pub fn attribute(&self, indices: &[u32], values: &[f64], class: usize) -> Attribution {
        match self {
            Classifier::NaiveBayes(nb) => nb.attribute(indices, values, class),
            Classifier::Svm(svm) => svm.attribute(indices, values, class),
            Classifier::Knn(knn) => knn.attribute(indices, values, class),
            Classifier::KernelSvm(svm) => svm.attribute(indices, values, class),
            Classifier::Approximated(approx) => {
                // Its features are not terms, so the whole score is the bias (explaining refuses
                // it before asking).
                let mut scores = vec![0.0; approx.svm.classes()];
                approx.scores(indices, values, &mut scores);
                Attribution {
                    score: scores[class],
                    bias: scores[class],
                    terms: Vec::new(),
                }
            }
            Classifier::MultiLabel(multi) => multi.scorer.attribute(indices, values, class),
            Classifier::Selected(selected) => {
                // Selected columns are numbered in vocabulary order, so `kept` is sorted by both.
                let kept: Vec<(u32, u32, f64)> = indices
                    .iter()
                    .zip(values)
                    .filter_map(|(&j, &v)| match selected.columns.get(j as usize) {
                        Some(&c) if c != u32::MAX => Some((c, j, v)),
                        _ => None,
                    })
                    .collect();
                let columns: Vec<u32> = kept.iter().map(|t| t.0).collect();
                let weights: Vec<f64> = kept.iter().map(|t| t.2).collect();
                let mut inner = selected.inner.attribute(&columns, &weights, class);
                for term in &mut inner.terms {
                    if let Ok(at) = columns.binary_search(&term.0) {
                        term.0 = kept[at].1;
                    }
                }
                inner
            }
        }
    }
}

impl Classifier {
    /// Refuses a classifier whose scores are not a sum over terms, so that an explanation would
    /// have no terms: a kernel SVM's decision value is a sum over its support vectors.
    pub fn check_explainable(&self) -> crate::error::Result<()> {
        if self.approximated().is_some() {
            return Err(crate::error::Error::Config(
                "a linear SVM over a kernel approximation (--approx) cannot be explained by \
                 term: its features are kernel values or Fourier features, not terms; train \
                 without --approx to explain"
                    .into(),
            ));
        }
        match self.kernel_svm() {
            Some(_) => Err(crate::error::Error::Config(
                "a kernel SVM cannot be explained by term: its decision value is a sum of kernel \
                 values over support vectors, not of terms' weights; train the linear SVM \
                 (without --kernel) to explain"
                    .into(),
            )),
            None => Ok(()),
        }
    }
}

impl PerLabel {
    /// Takes label `label`'s score of one weighted row apart, as [`Classifier::attribute`].
    fn attribute(&self, indices: &[u32], values: &[f64], label: usize) -> Attribution {
        match self {
            PerLabel::Svm(svm) => svm.attribute(indices, values, label),
            PerLabel::NaiveBayes(nb) => nb.attribute(indices, values, label),
        }
    }
}
