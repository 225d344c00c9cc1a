#![deny(missing_docs)]
//! bowline: streaming text classification.
//!
//! Train a classifier from `(label, text)` pairs and classify a string:
//!
//! ```
//! use bowline::{Kind, TextClassifier};
//! let pairs = [("spam", "free prize now"), ("spam", "call now, free prize"), ("ham", "lunch at noon"), ("ham", "lunch?")];
//! let model = TextClassifier::builder(Kind::Mnb).fit(pairs)?;
//! assert_eq!(model.predict("a free prize")?.label, "spam");
//! # Ok::<(), bowline::Error>(())
//! ```
//!
//! [`TextClassifier`] is the facade: [`predict`](TextClassifier::predict) and
//! [`predict_batch`](TextClassifier::predict_batch) (on the pipeline's worker threads, in input
//! order), [`update`](TextClassifier::update) with more labelled documents,
//! [`evaluate`](TextClassifier::evaluate), [`save`](TextClassifier::save) and
//! [`load`](TextClassifier::load) of the same model file the `bowline` program writes. A
//! [`Builder`] chooses the [`Kind`] (multinomial, complement or Bernoulli naive Bayes, a linear
//! SVM, k-nearest neighbours), the analysis and the weighting, then trains
//! ([`fit`](Builder::fit), [`fit_source`](Builder::fit_source)), cross-validates
//! ([`cross_validate`](Builder::cross_validate)) or selects features
//! ([`select`](Builder::select)). [`classifier::OnlineLearner`] learns a stream one document at a
//! time.
//!
//! ```
//! use bowline::{Kind, TextClassifier};
//! let mut model = TextClassifier::builder(Kind::Svm).fit([
//!     ("space", "the rocket reached orbit"),
//!     ("space", "a rocket launch to orbit and the moon"),
//!     ("cooking", "bake the bread in a hot oven"),
//!     ("cooking", "roast onions in the oven"),
//! ])?;
//! model.update([("cooking", "simmer onions in the oven")])?;
//! let predictions = model.predict_batch(["a rocket in orbit", "onions in the oven"])?;
//! let labels: Vec<&str> = predictions.iter().map(|p| p.label.as_str()).collect();
//! assert_eq!(labels, ["space", "cooking"]);
//! # Ok::<(), bowline::Error>(())
//! ```
//!
//! # The flow
//!
//! Documents go through modules in one direction; each answers one question and uses only the
//! ones before it:
//!
//! - [`corpus`]: where do documents come from? Class folders, TSV, JSONL, plain lines, stdin;
//!   bytes are decoded (UTF-8, else Windows-1252) and bad files are reported, never fatal.
//! - [`analyze`]: how does text become terms? Tokenize, lowercase, stop words, stem, n-grams,
//!   configured by a serializable [`analyze::AnalyzerConfig`].
//! - [`pipeline`]: how does work spread over threads? Stages joined by bounded channels, output
//!   in input order, errors and panics stopping the whole run. It knows nothing of text.
//! - [`vectorize`]: how do terms become numbers? Vocabulary, document frequencies, TF-IDF
//!   weighting, CSR matrices, the svmlight format.
//! - [`model`]: how are classes scored? The kinds of classifier, decisions, the model file.
//! - [`eval`], [`select`]: how good is a model, and which features does it need?
//! - [`index`]: a corpus kept in a tantivy index, analyzed by bowline's analyzer.
//! - [`flow`]: how are the stages wired? The document that travels through the pipeline, the
//!   stages that read, analyze and count it, and the sources they start from.
//! - [`report`]: figures and charts about a corpus.
//! - [`classifier`]: the facade above them all.
//! - [`active`]: which pool documents a person should label next.
//! - `serve` (cargo feature `serve`, on by default): the HTTP service on the facade.
//!
//! The parts can be used on their own. Fit a TF-IDF vectorizer on three documents, with the
//! English stop list and words alone (the default analysis keeps every word and adds word pairs):
//!
//! ```
//! use bowline::analyze::{Analyzer, AnalyzerConfig, Language, StopWords, Terms};
//! use bowline::vectorize::{Fitter, VectorizerConfig};
//!
//! let analyzer = Analyzer::new(AnalyzerConfig {
//!     stop_words: StopWords::Builtin(Language::English),
//!     ngram_max: 1,
//!     ..AnalyzerConfig::default()
//! })?;
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
//! Run a corpus on disk through the pipeline, reporting each file that could not be read:
//!
//! ```no_run
//! use bowline::corpus::ReadOptions;
//! use bowline::{Kind, Reading, Source, TextClassifier};
//!
//! let source = Source::open("corpora".as_ref(), &ReadOptions::default())?;
//! let mut reading = Reading::default().on_entry(|entry| {
//!     if !entry.is_document() {
//!         eprintln!("skipped {}", entry.doc.id);
//!     }
//! });
//! let fitted = TextClassifier::builder(Kind::Svm).fit_source(source, &mut reading)?;
//! fitted.classifier.save("corpora.model")?;
//! # Ok::<(), bowline::Error>(())
//! ```
//!
//! The `bowline` program is built with the default features `cli` and `serve`; without them
//! (`default-features = false`) the library compiles none of the program's dependencies.

pub mod active;
pub mod analyze;
mod choice;
pub mod classifier;
#[cfg(feature = "cluster")]
pub mod cluster;
pub mod corpus;
mod error;
pub mod eval;
pub mod flow;
pub mod index;
pub mod io;
pub mod jobs;
pub mod model;
pub mod packed;
pub mod pipeline;
mod prefetch;
#[cfg(feature = "python")]
mod python;
pub mod render;
pub mod report;
pub mod select;
#[cfg(feature = "serve")]
pub mod serve;
pub mod vectorize;

pub use choice::Choice;
pub use classifier::{Builder, Prediction, Reading, TextClassifier};
pub use error::{Error, Result};
pub use flow::Source;
pub use model::{Kind, Model};
#[cfg(feature = "serve")]
pub use serve::{log_serving, serve_labelling, serve_until_stopped, ServeConfig, Server};
