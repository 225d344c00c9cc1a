//! How results look: every front end (the program, `serve`) renders them here, as text, JSON or
//! HTML, so that a result reads the same whichever front end produced it.
//!
//! - [`prediction`]: one document's class, or label set, as a TSV or JSON line, and the same
//!   JSON object inside a `serve` answer.
//! - [`evaluation`]: a model's figures on a labelled corpus, as tables, JSON and an HTML page.
//! - [`cv`]: a cross-validation's folds, as a table or JSON.
//! - [`chosen_text`]: what tuning chose for a model, and why.
//! - [`model`]: a model as `inspect` shows it, as text or JSON; what tuning chose; the summary
//!   lines of the models `merge` and `update` write.
//! - [`json_text`] and [`json_line`]: any JSON output, with its `schema_version` first.

pub mod cv;
pub mod evaluation;
mod json;
pub mod model;
pub mod prediction;
mod tuned;

pub use json::{json_line, json_text, write_json, SCHEMA_VERSION};
pub use prediction::{explained, Decided, JsonPrediction, LineFormat, PredictionWriter, Ranked};
pub use tuned::chosen_text;
