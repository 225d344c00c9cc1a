//! Corpus statistics, and rendering figures for people: aligned text tables, JSON, and HTML
//! pages with SVG charts that need no scripts, fonts or network.

mod chart;
mod html;
pub mod stats;
mod text;

pub use chart::{bar_chart, line_chart, BarChart, LineChart};
pub use html::html_report;
pub use text::text_report;
