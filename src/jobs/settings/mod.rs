//! The settings a job is made of, and the rules by which a front end's flags make them.
//!
//! A job's fields are the library's configurations ([`AnalyzerConfig`], [`VectorizerConfig`],
//! [`ReadOptions`], [`PipelineConfig`] and the classifier's parameters); they are re-exported
//! here, so that a front end reaches everything a job takes through `jobs`. The `*Flags` structs
//! hold settings as a user gives them, each `None` (or `false`) when not given, and turn them into
//! validated configurations over a base: a kind's defaults, an index's analysis, or an existing
//! model's settings. The program's flags and the Python binding's analysis and weighting
//! parameters go through them, so a setting means the same and is refused alike in each.

mod analysis;
mod classifier;
#[cfg(feature = "cluster")]
mod cluster;
mod decision;
mod input;
mod weighting;

pub use analysis::{parse_language, parse_range, AnalysisFlags};
pub use classifier::{ClassifierFlags, KernelFlags, PriorChoice, SVM_ONLY};
#[cfg(feature = "cluster")]
pub use cluster::ClusterFlags;
pub use decision::DecisionFlags;
pub use input::{InputFlags, MAX_DOC_BYTES_LIMIT};
pub use weighting::{VocabularyFlags, WeightingFlags};

pub use crate::active::Strategy;
pub use crate::analyze::{AnalyzerConfig, Language, StopWords, Tokenizer};
pub use crate::classifier::{MultiLabelOptions, TuneOptions, TuneOutcome};
pub use crate::corpus::{Document, Entry, InputFormat, ReadOptions, DEFAULT_MAX_DOC_BYTES};
pub use crate::model::kernel_svm::{Gamma, KernelKind};
pub use crate::model::Approximation;
pub use crate::model::{Decision, Loss, Similarity, Smoothing};
pub use crate::pipeline::{default_threads, PipelineConfig, StageObserver, StageStats};
pub use crate::select::{Greedy, Metric, RankBy};
pub use crate::vectorize::{DfBound, Idf, Norm, Tf, VectorizerConfig};

/// A flag's number of seconds as a duration: `flag` names it in the error when the number is
/// negative or not finite.
pub fn seconds(value: f64, flag: &str) -> crate::error::Result<std::time::Duration> {
    std::time::Duration::try_from_secs_f64(value).map_err(|_| {
        crate::error::Error::Config(format!(
            "{flag} must be a number of seconds ≥ 0, got {value}"
        ))
    })
}
