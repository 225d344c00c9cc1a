//! Corpus statistics, and rendering figures for people: aligned text tables, JSON, and HTML
//! pages with SVG charts that need no scripts, fonts or network.

pub mod chart;
mod eval_html;
mod html;
mod page;
pub mod settings;
pub mod stats;
mod text;

pub use eval_html::{eval_report, multilabel_report, per_class_section, ClassRow, EvalPage};
pub use html::html_report;
pub use page::Header;
pub use text::text_report;
