//! Each class's most telling terms, by the measure each kind offers (see the
//! [`inspect`](crate::model::inspect) module).

use super::{Classifier, PerLabel};
use crate::model::inspect::{
    binary_nb_terms, in_vocabulary, kernel_svm_terms, knn_terms, naive_bayes_terms, svm_terms,
    ClassTerms, TermBasis,
};

impl Classifier {
    /// Each class's `k` terms of largest value, largest first (ties go to the lower column), in
    /// the vectorizer's columns: by weight for the SVM, by log-likelihood ratio against the mean
    /// of the classes for naive Bayes, by summed weight in the class's training documents for
    /// k-NN (see [`TermBasis`](crate::model::TermBasis)).
    pub(crate) fn top_terms(&self, k: usize) -> ClassTerms {
        match self {
            Classifier::NaiveBayes(nb) => naive_bayes_terms(nb, k),
            Classifier::Svm(svm) => svm_terms(svm, k),
            Classifier::MultiLabel(multi) => match &multi.scorer {
                PerLabel::Svm(svm) => svm_terms(svm, k),
                PerLabel::NaiveBayes(nb) => binary_nb_terms(nb, multi.labels(), k),
            },
            Classifier::Knn(knn) => knn_terms(knn, k),
            Classifier::KernelSvm(svm) => kernel_svm_terms(svm, k),
            // Its features are kernel values or Fourier features, none of them a term.
            Classifier::Approximated(approx) => ClassTerms {
                basis: TermBasis::NoTerms,
                classes: vec![Vec::new(); approx.svm.classes()],
            },
            Classifier::Selected(selected) => {
                in_vocabulary(selected.inner.top_terms(k), &selected.columns)
            }
        }
    }
}
