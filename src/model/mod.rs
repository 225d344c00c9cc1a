//! Classifiers: naive Bayes (multinomial, complement, Bernoulli), a linear SVM and k-nearest
//! neighbours, the decisions taken from their scores, and the model file that keeps one with its
//! vectorizer.
//!
//! `kinds.rs` is the one place that lists the kinds and dispatches on them ([`Kind`],
//! [`Classifier`], [`Trainer`]); each kind's own folder holds its mathematics.

pub mod approx;
pub mod decision;
pub mod explain;
pub mod export;
pub mod format;
pub(crate) mod info;
pub(crate) mod inspect;
pub mod kernel_svm;
pub(crate) mod kinds;
pub mod knn;
mod label_sets;
pub mod linear_svm;
pub mod merge;
pub mod multilabel;
pub mod naive_bayes;
pub(crate) mod platt;
pub(crate) mod random;
pub mod reservoir;
pub mod wal;

pub use approx::{ApproxParams, Approximated, Approximation};
pub use decision::{CostMatrix, Decision};
pub use explain::Attribution;
pub use format::{
    Model, ModelLock, APPROX_FORMAT_VERSION, FORMAT_VERSION, FOURIER_FORMAT_VERSION,
    HASHED_FORMAT_VERSION, KERNEL_FORMAT_VERSION, TOKENIZER_FORMAT_VERSION,
};
pub(crate) use info::utc_now;
pub use info::{TrainingInfo, Tuned};
pub(crate) use inspect::TermBasis;
pub use kernel_svm::{KernelSvm, KernelSvmParams};
pub use kinds::{Classifier, Kind, Params, Selected, Trainer};
pub(crate) use knn::normalize_votes;
pub use knn::{Knn, KnnParams, Similarity};
pub use linear_svm::{ColumnChange, LinearSvm, Loss, SvmParams};
pub use merge::{merge, Part};
pub use multilabel::{LabelSets, MultiLabel, MultiLabelClassifier};
pub(crate) use naive_bayes::OnlineNb;
pub use naive_bayes::{
    normalize_log_probabilities, NaiveBayes, NbKind, Priors, Smoothing, SparseScorer,
};
pub(crate) use platt::Sigmoid;
