//! Classifiers: naive Bayes (multinomial, complement, Bernoulli), a linear SVM and k-nearest
//! neighbours.

pub mod decision;
pub mod file;
pub mod knn;
pub mod linear_svm;
pub mod naive_bayes;
pub mod platt;
pub mod random;
pub mod reservoir;
pub mod scorer;

pub use decision::{CostMatrix, Decision};
pub use file::{Classifier, Model, Selected, TrainingInfo};
pub use knn::{normalize_votes, Knn, KnnParams, Similarity};
pub use linear_svm::{ColumnChange, LinearSvm, Loss, SvmParams};
pub use naive_bayes::{normalize_log_probabilities, NaiveBayes, NbKind, OnlineNb, Priors};
pub use platt::Sigmoid;
pub use scorer::{Scorer, SparseScorer};
