//! How results look: every front end (the program, `serve`) renders them here, as text, JSON or
//! HTML, so that a result reads the same whichever front end produced it.
//!
//! - [`prediction`]: one document's class, or label set, as a TSV or JSON line, and the same
//!   JSON object inside a `serve` answer.
//! - [`model`]: a model as `inspect` shows it, as text or JSON; what tuning chose; the summary
//!   lines of the models `merge` and `update` write.
//! - [`json_text`] and [`json_line`]: any JSON output, with its `schema_version` first.

mod json;
pub mod model;
pub mod prediction;

pub use json::{json_line, json_text, write_json, SCHEMA_VERSION};
pub use prediction::{explained, Decided, JsonPrediction, LineFormat, PredictionWriter, Ranked};
