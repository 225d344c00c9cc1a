//! Flag groups shared by several commands, and their conversion into library configurations.

mod analysis;
mod decision;
mod input;
mod runtime;
mod weighting;

pub use analysis::AnalysisArgs;
pub use decision::DecisionArgs;
pub use input::InputArgs;
pub use runtime::RuntimeArgs;
pub use weighting::{VocabularyArgs, WeightingArgs};
