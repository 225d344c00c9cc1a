//! A multi-label model's scorers: one binary problem per label, all solved by one kind.

use serde::{Deserialize, Serialize};

use super::Kind;
use crate::error::Result;
use crate::model::linear_svm::LinearSvm;
use crate::model::multilabel::BinaryNb;

/// One binary problem per label, solved by one kind of classifier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PerLabel {
    /// A linear SVM per label (label against the documents without it).
    Svm(LinearSvm),
    /// Multinomial or Bernoulli naive Bayes per label.
    NaiveBayes(Box<BinaryNb>),
}

impl PerLabel {
    /// Fills `out` (one slot per label) with each label's score for one weighted row: an SVM
    /// margin or naive Bayes' log posterior odds, 0 at the natural boundary.
    pub(crate) fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        match self {
            PerLabel::Svm(svm) => svm.scores(indices, values, out),
            PerLabel::NaiveBayes(nb) => nb.scores(indices, values, out),
        }
    }

    /// Sets the number of features naive Bayes' smoothing counts (see
    /// [`Classifier::set_space`](super::Classifier::set_space)).
    pub(crate) fn set_space(&mut self, space: usize) {
        if let PerLabel::NaiveBayes(nb) = self {
            nb.set_space(space);
        }
    }

    /// Checks the parts a damaged file could make inconsistent, and gives the number of labels
    /// scored.
    pub(crate) fn check(&self) -> Result<usize> {
        Ok(match self {
            PerLabel::Svm(svm) => {
                svm.check()?;
                svm.convergence().len()
            }
            PerLabel::NaiveBayes(nb) => {
                nb.check()?;
                nb.label_docs().len()
            }
        })
    }

    /// Number of features (vectorizer columns) scored.
    pub(crate) fn features(&self) -> usize {
        match self {
            PerLabel::Svm(svm) => svm.features(),
            PerLabel::NaiveBayes(nb) => nb.counts().1.features(),
        }
    }

    /// The SVM scoring the labels, if it is one.
    pub(crate) fn svm(&self) -> Option<&LinearSvm> {
        match self {
            PerLabel::Svm(svm) => Some(svm),
            PerLabel::NaiveBayes(_) => None,
        }
    }

    /// The kind that scores each label.
    pub(crate) fn kind(&self) -> Kind {
        match self {
            PerLabel::Svm(_) => Kind::Svm,
            PerLabel::NaiveBayes(nb) => nb.kind().kind(),
        }
    }
}
