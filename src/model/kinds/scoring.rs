//! The trained classifier, and how it scores a document.

use serde::{Deserialize, Serialize};

use super::Kind;
use crate::error::{Error, Result};
use crate::model::multilabel::MultiLabelClassifier;
use crate::model::{
    normalize_log_probabilities, normalize_votes, Approximated, KernelSvm, Knn, LinearSvm,
    NaiveBayes,
};

/// A trained classifier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Classifier {
    /// One of the naive Bayes models, as counts.
    NaiveBayes(NaiveBayes),
    /// A one-vs-rest linear SVM.
    Svm(LinearSvm),
    /// A classifier trained on some of the vectorizer's columns (by `bowline select`): rows are
    /// weighted over the whole vocabulary, as during selection, then cut to those columns.
    Selected(Selected),
    /// k-nearest neighbours over the training documents.
    Knn(Knn),
    /// Binary relevance for multi-label data: a score and a threshold per label. (Last, so that
    /// the variants before it keep their numbers in the model file.)
    MultiLabel(Box<MultiLabelClassifier>),
    /// An exact kernel SVM, one-vs-rest, over its support vectors. (After the others, so that
    /// they keep their numbers; a file that holds one is of its own format version.)
    KernelSvm(Box<KernelSvm>),
    /// A linear SVM over an approximation of the RBF kernel. (After the others, so that they
    /// keep their numbers; a file that holds one is of its own format version.)
    Approximated(Box<Approximated>),
}

/// A classifier over a subset of the columns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Selected {
    /// For each vectorizer column, its column in `inner`, or `u32::MAX` when not selected.
    pub columns: crate::packed::Table<u32>,
    /// The classifier on the selected columns.
    pub inner: Box<Classifier>,
}

impl Classifier {
    /// Computes the parts derived from the others that a model file stores, so that loading
    /// need not compute them: naive Bayes' scoring weights and k-NN's posting weights.
    pub(crate) fn derive_stored_parts(&self) {
        match self {
            Classifier::NaiveBayes(nb) => {
                nb.scorer();
            }
            Classifier::Knn(knn) => knn.derive_weights(),
            Classifier::Selected(selected) => selected.inner.derive_stored_parts(),
            Classifier::Svm(_)
            | Classifier::MultiLabel(_)
            | Classifier::KernelSvm(_)
            | Classifier::Approximated(_) => {}
        }
    }

    /// Tells naive Bayes how many features its smoothing counts: the vectorizer's
    /// [`space`](crate::vectorize::FittedVectorizer::space), 2^bits for hashed terms. A
    /// selection's inner classifier counts its selected columns, as it was trained on them.
    pub(crate) fn set_space(&mut self, space: usize) {
        match self {
            Classifier::NaiveBayes(nb) => nb.set_space(space),
            Classifier::MultiLabel(multi) => multi.scorer.set_space(space),
            Classifier::Svm(_)
            | Classifier::Knn(_)
            | Classifier::Selected(_)
            | Classifier::KernelSvm(_)
            | Classifier::Approximated(_) => {}
        }
    }

    /// Fills `out` (one slot per class) with the scores of one weighted row, whose highest is
    /// the predicted class. Columns beyond the model's features (terms it never saw) are ignored.
    pub fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        match self {
            Classifier::NaiveBayes(nb) => nb.scorer().scores(indices, values, out),
            Classifier::Svm(svm) => svm.scores(indices, values, out),
            Classifier::Knn(knn) => knn.scores(indices, values, out),
            Classifier::MultiLabel(multi) => multi.scores(indices, values, out),
            Classifier::KernelSvm(svm) => svm.scores(indices, values, out),
            Classifier::Approximated(approx) => approx.scores(indices, values, out),
            Classifier::Selected(selected) => {
                // Selected columns are numbered in vocabulary order, so the row stays sorted.
                let (kept, weights): (Vec<u32>, Vec<f64>) = indices
                    .iter()
                    .zip(values)
                    .filter_map(|(&j, &v)| match selected.columns.get(j as usize) {
                        Some(&c) if c != u32::MAX => Some((c, v)),
                        _ => None,
                    })
                    .unzip();
                selected.inner.scores(&kept, &weights, out);
            }
        }
    }

    /// Whether [`probabilities`](Classifier::probabilities) are probabilities in earnest: false
    /// for an uncalibrated SVM, whose values are a softmax of decision values that ranks the
    /// classes but is not calibrated, and should be called scores.
    pub(crate) fn gives_probabilities(&self) -> bool {
        let kernel_calibrated = self.kernel_svm().is_none_or(KernelSvm::is_calibrated);
        let approximated = self.approximated().map(|a| &a.svm);
        self.multi_label().is_none()
            && self.svm().is_none_or(LinearSvm::is_calibrated)
            && kernel_calibrated
            && approximated.is_none_or(LinearSvm::is_calibrated)
    }

    /// Fills `out` (one slot per class) with one weighted row's class probabilities: its
    /// [`scores`](Classifier::scores) turned into [`probabilities`](Classifier::probabilities).
    pub(crate) fn probabilities_of(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        self.scores(indices, values, out);
        self.probabilities(out);
    }

    /// Turns one document's scores into class probabilities, in place: naive Bayes posteriors; a
    /// calibrated SVM's Platt probabilities; for an uncalibrated SVM, a softmax of the decision
    /// values, which ranks classes but is not a calibrated probability; for k-NN, each class's
    /// share of the neighbours' votes; for a multi-label model, its per-label scores unchanged.
    pub(crate) fn probabilities(&self, scores: &mut [f64]) {
        let calibrated = match self {
            Classifier::Svm(svm) => svm.calibrate_scores(scores),
            Classifier::KernelSvm(svm) => svm.calibrate_scores(scores),
            Classifier::Approximated(approx) => approx.svm.calibrate_scores(scores),
            Classifier::NaiveBayes(_) => false,
            Classifier::Selected(selected) => return selected.inner.probabilities(scores),
            Classifier::Knn(_) => return normalize_votes(scores),
            // A multi-label model's scores stay as they are: its thresholds are on them, and a
            // document may have several labels, so they are not normalized over labels.
            Classifier::MultiLabel(_) => return,
        };
        if !calibrated {
            normalize_log_probabilities(scores);
        }
    }

    /// Number of classes it scores.
    pub fn classes(&self) -> usize {
        match self {
            Classifier::NaiveBayes(nb) => nb.classes(),
            Classifier::Svm(svm) => svm.classes(),
            Classifier::Selected(selected) => selected.inner.classes(),
            Classifier::Knn(knn) => knn.classes(),
            Classifier::MultiLabel(multi) => multi.labels(),
            Classifier::KernelSvm(svm) => svm.classes(),
            Classifier::Approximated(approx) => approx.svm.classes(),
        }
    }

    /// Number of features (vectorizer columns) it scores.
    pub(crate) fn features(&self) -> usize {
        match self {
            Classifier::NaiveBayes(nb) => nb.features(),
            Classifier::Svm(svm) => svm.features(),
            Classifier::Selected(selected) => selected.columns.len(),
            Classifier::Knn(knn) => knn.features(),
            Classifier::MultiLabel(multi) => multi.scorer.features(),
            Classifier::KernelSvm(svm) => svm.features(),
            Classifier::Approximated(approx) => approx.map.columns(),
        }
    }

    /// Checks the parts a damaged file could make inconsistent, where decoding alone does not.
    pub(crate) fn check(&self) -> Result<()> {
        match self {
            Classifier::NaiveBayes(nb) => nb.check(),
            Classifier::Selected(selected) => {
                // The inner classifier has one feature per selected column; a larger count,
                // which naive Bayes stores as a bare number, would size its scorer's tables.
                let chosen = selected.columns.iter().filter(|&&c| c != u32::MAX).count();
                if selected.inner.features() != chosen {
                    return Err(Error::Config(
                        "selected columns do not match the classifier's features".into(),
                    ));
                }
                selected.inner.check()
            }
            Classifier::Svm(svm) => svm.check(),
            Classifier::MultiLabel(multi) => multi.check(),
            Classifier::KernelSvm(svm) => svm.check(),
            Classifier::Approximated(approx) => approx.check(),
            // k-NN checks its parts as it is decoded.
            Classifier::Knn(_) => Ok(()),
        }
    }

    /// Whether the classifier learns raw counts rather than weighted rows (k-NN weighs its
    /// training documents itself, so that an update can weigh them again).
    pub(crate) fn learns_counts(&self) -> bool {
        matches!(self, Classifier::Knn(_))
    }

    /// The multi-label classifier this is, if it is one.
    pub fn multi_label(&self) -> Option<&MultiLabelClassifier> {
        match self {
            Classifier::MultiLabel(multi) => Some(multi),
            _ => None,
        }
    }

    /// The SVM this classifier is, or is trained on selected columns of.
    pub fn svm(&self) -> Option<&LinearSvm> {
        match self {
            Classifier::Svm(svm) => Some(svm),
            Classifier::Selected(selected) => selected.inner.svm(),
            Classifier::MultiLabel(multi) => multi.scorer.svm(),
            _ => None,
        }
    }

    /// The kernel SVM this classifier is, or is trained on selected columns of.
    pub fn kernel_svm(&self) -> Option<&KernelSvm> {
        match self {
            Classifier::KernelSvm(svm) => Some(svm),
            Classifier::Selected(selected) => selected.inner.kernel_svm(),
            _ => None,
        }
    }

    /// The linear SVM over a kernel approximation this classifier is, if it is one.
    pub fn approximated(&self) -> Option<&Approximated> {
        match self {
            Classifier::Approximated(approx) => Some(approx),
            _ => None,
        }
    }

    /// The (single-label) naive Bayes this classifier is, if it is one.
    pub(crate) fn naive_bayes(&self) -> Option<&NaiveBayes> {
        match self {
            Classifier::NaiveBayes(nb) => Some(nb),
            _ => None,
        }
    }

    /// The kind of classifier this is.
    pub fn kind(&self) -> Kind {
        match self {
            Classifier::NaiveBayes(nb) => nb.kind().kind(),
            Classifier::Svm(_) | Classifier::KernelSvm(_) | Classifier::Approximated(_) => {
                Kind::Svm
            }
            Classifier::Selected(selected) => selected.inner.kind(),
            Classifier::Knn(_) => Kind::Knn,
            Classifier::MultiLabel(multi) => multi.scorer.kind(),
        }
    }

    /// A short name: mnb, cnb, bnb, svm or knn.
    pub fn name(&self) -> &'static str {
        self.kind().name()
    }
}
