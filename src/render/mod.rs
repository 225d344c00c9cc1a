//! How results look: every front end (the program, `serve`) renders them here, as text, JSON or
//! HTML, so that a result reads the same whichever front end produced it.
//!
//! - [`prediction`]: one document's class, or label set, as a TSV or JSON line, and the same
//!   JSON object inside a `serve` answer.
//! - [`evaluation`]: a model's figures on a labelled corpus, as tables, JSON and an HTML page.
//! - [`cv`]: a cross-validation's folds, as a table or JSON.
//! - [`model`]: a model as `inspect` shows it, as text or JSON, and the summary lines
//!   of the models `merge` and `update` write.
//! - [`training`]: what `train` says of the model it made, and of SVM classes that did not
//!   converge.
//! - [`tuning`]: a search's trials as a table or JSON, and what tuning chose and why.
//! - [`prequential`]: a stream's test-then-train figures, a line per window.
//! - `json_text` and `json_line`: any JSON output, with its `schema_version` first.
//! - [`corpus`]: a corpus's figures (`stats`) as tables, JSON or an HTML page, and what `index`
//!   says of the documents it kept.
//! - [`reading`]: what a run says of its reading, an entry's warnings and a summary line.
//! - [`ranking`]: `rank`'s listings of terms as tables or JSON.
//! - [`selection`]: what `select` found, as a JSON report, an SVG curve and a closing line.
//! - [`suggestion`]: the pool documents `suggest` picked, as a table or JSON.
//! - [`labelling`]: the page of `bowline label`, one self-contained HTML file.
//! - [`vectorized`]: what `vectorize` says of the matrix it wrote, and a vectorizer's features
//!   as summary lines name them.

pub mod corpus;
pub mod cv;
pub mod evaluation;
mod json;
pub mod labelling;
pub mod model;
pub mod prediction;
pub mod prequential;
pub mod ranking;
pub mod reading;
pub mod selection;
pub mod suggestion;
pub mod training;
pub mod tuning;
pub mod vectorized;

pub use corpus::{corpus_json, corpus_page, corpus_text, indexed};
pub(crate) use json::write_json;
pub use labelling::{labelling_page, LABELLING_POLICY};
pub use prediction::{explained, JsonPrediction, LineFormat};
pub(crate) use prediction::{Decided, PredictionWriter};
pub use prequential::prequential_line;
pub use ranking::{ranking_json, ranking_table};
pub use selection::{left_out, SelectionReport};
pub use suggestion::{suggestions_json, suggestions_table};
pub(crate) use tuning::chosen_text;
pub use tuning::{trials_json, trials_table};
