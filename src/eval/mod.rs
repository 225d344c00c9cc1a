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
pub use metrics::{figures_table, label_width, ClassMetrics, Confusion, FigureRow, Report};
pub use multilabel::{LabelScores, MultiLabelCounts, MultiLabelMetrics};
pub use prequential::Prequential;
pub use reliability::{reliability, Reliability};
pub use scores::{Curves, LabelScoreTable, ScoreKind, ScoreTable};
pub use scoring::{correct, evaluate, log_loss};
pub use split::{dev_split, enough_documents, folds};
