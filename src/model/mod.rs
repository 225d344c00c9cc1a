//! Classifiers: naive Bayes (multinomial, complement, Bernoulli), a linear SVM and k-nearest
//! neighbours, the decisions taken from their scores, and the model file that keeps one with its
//! vectorizer.
//!
//! [`kinds`] is the one place that lists the kinds and dispatches on them; each kind's own
//! folder holds its mathematics.

pub mod decision;
pub mod explain;
pub mod export;
pub mod format;
pub mod info;
pub mod inspect;
pub mod kinds;
pub mod knn;
mod label_sets;
pub mod linear_svm;
pub mod merge;
pub mod multilabel;
pub mod naive_bayes;
pub mod platt;
pub mod random;
pub mod reservoir;

pub use decision::{CostMatrix, Decision};
pub use explain::Attribution;
pub use format::{Model, ModelLock, FORMAT_VERSION};
pub use info::{utc_now, TrainingInfo, Tuned};
pub use inspect::{ClassTerms, TermBasis};
pub use kinds::{Classifier, Kind, Params, Selected, Trainer};
pub use knn::{normalize_votes, Knn, KnnParams, Similarity};
pub use linear_svm::{ColumnChange, LinearSvm, Loss, SvmParams, Targets};
pub use merge::{merge, Part};
pub use multilabel::{LabelSets, MultiLabel, MultiLabelClassifier};
pub use naive_bayes::{
    normalize_log_probabilities, NaiveBayes, NbKind, OnlineNb, Priors, Smoothing, SparseScorer,
};
pub use platt::Sigmoid;
