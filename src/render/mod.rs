//! How results look: every front end (the program, `serve`) renders them here, as text, JSON or
//! HTML, so that a result reads the same whichever front end produced it.
//!
//! - [`prediction`]: one document's class, or label set, as a TSV or JSON line, and the same
//!   JSON object inside a `serve` answer.
//! - [`json_text`] and [`json_line`]: any JSON output, with its `schema_version` first.
//! - [`corpus`]: a corpus's figures (`stats`) as tables, JSON or an HTML page, and what `index`
//!   says of the documents it kept.
//! - [`ranking`]: `rank`'s listings of terms as tables or JSON.
//! - [`selection`]: what `select` found, as a JSON report, an SVG curve and a closing line.
//! - [`vectorized`]: what `vectorize` says of the matrix it wrote, and a vectorizer's features
//!   as summary lines name them.

pub mod corpus;
mod json;
pub mod prediction;
pub mod ranking;
pub mod selection;
pub mod vectorized;

pub use corpus::{corpus_json, corpus_page, corpus_text, indexed};
pub use json::{json_line, json_text, write_json, SCHEMA_VERSION};
pub use prediction::{explained, Decided, JsonPrediction, LineFormat, PredictionWriter, Ranked};
pub use ranking::{ranking_json, ranking_table};
pub use selection::{left_out, SelectionReport};
