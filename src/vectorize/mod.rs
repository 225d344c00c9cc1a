//! Vectorizing: analyzed documents → sparse CSR matrices.
//!
//! [`Fitter`] learns the vocabulary and document frequencies from a stream of training documents
//! and returns a [`FittedVectorizer`] with the training matrix. The fitted vectorizer turns new
//! documents into rows over the same columns; terms it has not seen are counted as
//! out-of-vocabulary and never added. It carries the [`AnalyzerConfig`](crate::analyze::AnalyzerConfig), so it is saved and loaded
//! (serde) as one unit with the analysis that produced its features.
//!
//! Column ids are `u32` and follow the terms' byte order, so a vocabulary is identical whatever
//! the input order or thread count.

mod column_ids;
mod config;
mod corpus_fit;
mod counting;
mod document_counter;
mod fitted;
mod fitter;
mod gram_index;
mod growing;
mod hashing;
mod interner;
mod matrix;
#[cfg(feature = "cluster")]
mod shard;
mod spelling;
mod subset;
pub mod svmlight;
mod term_list;
mod vocabulary;
pub(crate) mod weighting;

pub(crate) use column_ids::ColumnIds;
pub use config::{DfBound, VectorizerConfig};
pub(crate) use corpus_fit::CountedCorpus;
pub use corpus_fit::FittedCorpus;
pub use counting::Counted;
pub(crate) use counting::RowCounter;
pub(crate) use document_counter::DocumentCounter;
pub(crate) use fitted::Keys;
pub use fitted::{FittedVectorizer, VocabularyFile};
pub use fitter::{CountRows, Fitter, TrainingRows, WeighedRows};
use gram_index::LazyGrams;
pub(crate) use growing::{GrowingVocabulary, WeighTable};
pub use hashing::{murmurhash3_32, HashedCounter, Hashing};
pub use interner::Interner;
pub(crate) use matrix::{fill_renumbered, fill_rows, pick_rows, renumber};
pub(crate) use matrix::{for_each_renumbered, kept_columns, row_chunks};
pub use matrix::{matrix_row, Matrix, MatrixBuilder, RowSource, SparseRow};
#[cfg(feature = "cluster")]
pub(crate) use shard::CountedShard;
#[cfg(feature = "cluster")]
pub(crate) use subset::fit_counts;
pub(crate) use subset::{
    count_part, count_rows, counting_config, fit_part, weigh_part, weigh_rows, FittedPart,
};
pub use term_list::TermList;
pub use weighting::{Idf, Norm, Tf, Weighting};

#[cfg(test)]
mod tests;
