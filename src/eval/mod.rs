//! Evaluation: how well predictions match the truth, how well scores rank the classes (ROC and
//! precision-recall curves) and how reliable probabilities are, and the splits that keep the
//! truth apart from training.

pub mod curves;
mod metrics;
mod multilabel;
mod prequential;
pub mod reliability;
mod scores;
mod scoring;
mod split;

pub use curves::{class_curves, ClassCurves, PrecisionRecall, Roc};
pub(crate) use metrics::{figures_table, label_width, Confusion};
pub use metrics::{ClassMetrics, Report};
pub use multilabel::{LabelScores, MultiLabelCounts, MultiLabelMetrics};
pub use prequential::Prequential;
pub use reliability::{reliability, Reliability};
pub use scores::{Curves, LabelScoreTable, ScoreKind, ScoreTable};
pub(crate) use scoring::log_loss;
pub use scoring::{correct, evaluate};
pub(crate) use split::enough_documents;
pub(crate) use split::seeded_hash;
pub use split::{dev_split, folds};
