//! Classifiers: naive Bayes (multinomial, complement, Bernoulli) and a linear SVM.

pub mod file;
pub mod linear_svm;
pub mod naive_bayes;
pub mod platt;

pub use file::{Classifier, Model, TrainingInfo};
pub use linear_svm::{LinearSvm, Loss, SvmParams};
pub use naive_bayes::{normalize_log_probabilities, LinearScorer, NaiveBayes, NbKind, Priors};
pub use platt::Sigmoid;
