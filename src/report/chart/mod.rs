//! Charts as SVG elements with no scripts, fonts or links: line charts (linear or logarithmic
//! axes), bar charts and heatmaps.
//!
//! Ticks fall on round numbers (1, 2 or 5 × 10ᵏ apart, or powers of ten on a logarithmic
//! axis), and margins are sized from the estimated width of the labels they hold, so nothing
//! is clipped. Every tick label carries `class="tick x"` or `class="tick y"` and every drawn
//! datum `class="data"`, which the browser tests look for.
//!
//! The charts are written here by hand rather than with the `plotters` crate. Its SVG backend
//! costs little to compile (about 11 s on two cores, 5 s of CPU, for plotters with
//! `svg_backend` and `ab_glyph`), but it would not do the part that matters: without a font
//! file compiled in, it estimates text width as crudely as any hand-written code, and it sizes
//! label areas from numbers the caller gives rather than from the labels, so the margins would
//! still be ours to compute. Its SVG has no hooks for the browser tests, and the three kinds of
//! chart the reports need come to a few hundred lines.

mod axis;
mod bar;
mod heatmap;
mod legend;
mod line;
mod svg;
mod ticks;

pub(crate) use axis::Axis;
pub(crate) use bar::{bar_chart, BarChart, Bars};
pub(crate) use heatmap::{heatmap, Heatmap};
pub(crate) use legend::Mark;
pub(crate) use line::{line_chart, LineChart, Series};
pub(crate) use svg::{escape, standalone};
pub(crate) use ticks::count;
