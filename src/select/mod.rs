//! Feature selection: rankings of terms by how they relate to the classes, and greedy forward
//! selection of a feature set against a dev split.

mod greedy;
mod rank;

pub use greedy::{Event, Greedy, Metric, Problem, Selection, Step};
pub use rank::{Presence, RankBy};
