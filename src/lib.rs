//! bowline: streaming text classification.
//!
//! Documents flow through a fixed sequence of modules, each answering one question:
//!
//! - [`corpus`]: where do documents come from? Class folders, TSV, JSONL, plain lines, stdin;
//!   bytes are decoded (UTF-8, else Windows-1252) and bad files are reported, never fatal.
//! - [`analyze`]: how does text become terms? Tokenize, lowercase, stop words, stem, n-grams,
//!   configured by a serializable [`analyze::AnalyzerConfig`].
//! - [`pipeline`]: how does the work spread over threads? Stages joined by bounded channels,
//!   output in input order, errors and panics stopping the whole run.
//! - [`index`]: where can a corpus be kept, analyzed? A tantivy index with bowline's analyzer as
//!   its tokenizer, read back as documents by every command.
//! - [`vectorize`]: how do terms become numbers? Vocabulary, document frequencies, TF-IDF
//!   weighting, CSR matrices, the svmlight format.
//!
//! # Example
//!
//! Fit a TF-IDF vectorizer on three documents and look at the result:
//!
//! ```
//! use bowline::analyze::{Analyzer, AnalyzerConfig, Terms};
//! use bowline::vectorize::{Fitter, VectorizerConfig};
//!
//! let analyzer = Analyzer::new(AnalyzerConfig::default())?;
//! let mut worker = analyzer.worker();
//! let mut fitter = Fitter::new(VectorizerConfig::default())?;
//! let mut terms = Terms::new();
//! for text in ["The cats are sleeping.", "A cat sleeps; dogs bark.", "Dogs barked loudly!"] {
//!     worker.analyze(text, &mut terms);
//!     fitter.add(&terms);
//! }
//! let (vectorizer, matrix) = fitter.finish(analyzer.config().clone())?;
//! assert_eq!(*vectorizer.terms(), ["bark", "cat", "dog", "loud", "sleep"]);
//! assert_eq!((matrix.rows(), matrix.cols(), matrix.nnz()), (3, 5, 9));
//! # Ok::<(), bowline::Error>(())
//! ```
//!
//! The `bowline` binary is a thin layer over [`cli`], which wires these modules together; the
//! pipeline reads and analyzes a corpus in parallel while the calling thread builds the matrix.

pub mod analyze;
pub mod classifier;
pub mod corpus;
mod error;
pub mod eval;
pub mod flow;
pub mod index;
pub mod io;
pub mod model;
mod packed;
pub mod pipeline;
mod prefetch;
pub mod report;
pub mod select;
pub mod vectorize;

pub use classifier::{Builder, Prediction, Reading, TextClassifier};
pub use error::{Error, Result};
pub use flow::Source;
pub use model::{Kind, Model};
