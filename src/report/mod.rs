//! Corpus statistics, and rendering figures for people: aligned text tables, JSON, and HTML
//! pages with SVG charts that need no scripts, fonts or network.

pub(crate) mod chart;
mod eval_html;
mod html;
mod page;
pub(crate) mod settings;
pub mod stats;
mod text;

pub(crate) use eval_html::{eval_report, multilabel_report, EvalPage};
pub(crate) use html::html_report;
pub(crate) use page::Header;
pub(crate) use text::text_report;
