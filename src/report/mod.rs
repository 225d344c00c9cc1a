//! Rendering figures for people: SVG charts that need no scripts, fonts or network.

mod chart;

pub use chart::{line_chart, LineChart};
