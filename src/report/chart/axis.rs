//! Axes: fitting ticks to the data, laying out a plot with margins sized to its labels, and
//! drawing the axes, grid, tick labels and axis titles.

use std::fmt::Write;

use super::svg::{escape, text_width, title_height, FONT, PAD};
use super::ticks::{self, Ticks};

/// How an axis maps values to positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scale {
    /// Equal distances for equal differences.
    Linear,
    /// Equal distances for equal ratios; values at or below zero are not drawn.
    Log,
}

/// What an axis shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Axis<'a> {
    /// Its title.
    pub label: &'a str,
    /// Linear or logarithmic.
    pub scale: Scale,
    /// Fixed ends (a probability's 0 and 1, say); otherwise round numbers around the data.
    pub range: Option<(f64, f64)>,
}

impl<'a> Axis<'a> {
    /// A linear axis fitted to the data.
    pub(crate) fn linear(label: &'a str) -> Self {
        Axis {
            label,
            scale: Scale::Linear,
            range: None,
        }
    }

    /// A logarithmic axis fitted to the data, ticked at powers of ten.
    pub(crate) fn log(label: &'a str) -> Self {
        Axis {
            scale: Scale::Log,
            ..Axis::linear(label)
        }
    }

    /// A linear axis from `lo` to `hi` whatever the data.
    pub(crate) fn fixed(label: &'a str, lo: f64, hi: f64) -> Self {
        Axis {
            range: Some((lo, hi)),
            ..Axis::linear(label)
        }
    }

    /// Whether the axis can place `value`.
    pub(crate) fn shows(&self, value: f64) -> bool {
        value.is_finite() && (self.scale == Scale::Linear || value > 0.0)
    }
}

/// At most this many intervals between ticks.
const INTERVALS: usize = 5;

/// An axis fitted to its values: ticks, and the span they cover.
#[derive(Debug, Clone)]
pub struct Fitted {
    scale: Scale,
    ticks: Ticks,
    lo: f64,
    hi: f64,
}

impl Fitted {
    /// Ticks around `values` (or the axis's fixed range).
    pub fn new(axis: &Axis, values: impl Iterator<Item = f64>) -> Fitted {
        let (lo, hi) = match axis.range {
            Some(range) => range,
            None => values
                .filter(|&v| axis.shows(v))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                    (lo.min(v), hi.max(v))
                }),
        };
        let (lo, hi) = match (lo.is_finite(), axis.scale) {
            (true, _) => (lo, hi),
            (false, Scale::Linear) => (0.0, 1.0),
            (false, Scale::Log) => (1.0, 10.0),
        };
        let ticks = match axis.scale {
            Scale::Linear => ticks::linear(lo, hi, INTERVALS),
            Scale::Log => ticks::logarithmic(lo, hi, 8),
        };
        let (lo, hi) = (ticks.values[0], ticks.values[ticks.values.len() - 1]);
        Fitted {
            scale: axis.scale,
            ticks,
            lo,
            hi,
        }
    }

    /// Where `value` lies between the axis's ends, 0 to 1.
    pub fn fraction(&self, value: f64) -> f64 {
        match self.scale {
            Scale::Linear => (value - self.lo) / (self.hi - self.lo),
            Scale::Log => (value.log10() - self.lo.log10()) / (self.hi.log10() - self.lo.log10()),
        }
    }

    fn widest_label(&self) -> f64 {
        let widths = self.ticks.labels.iter().map(|l| text_width(l, FONT));
        widths.fold(0.0, f64::max)
    }

    fn last_label_width(&self) -> f64 {
        self.ticks
            .labels
            .last()
            .map_or(0.0, |l| text_width(l, FONT))
    }
}

/// A plot's place in its chart and its two axes.
#[derive(Debug, Clone)]
pub struct Frame {
    /// Left edge of the plot.
    pub left: f64,
    /// Top edge of the plot.
    pub top: f64,
    /// Plot width.
    pub width: f64,
    /// Plot height.
    pub height: f64,
    x: Fitted,
    y: Fitted,
}

/// Gap between a tick label and its axis.
const TICK_GAP: f64 = 6.0;

impl Frame {
    /// Lays out a plot of `width` × `height` with room for the title, the tick labels and the
    /// axis titles; `extra_left` more on the left (labels that reach there).
    pub fn new(x: Fitted, y: Fitted, width: f64, height: f64, extra_left: f64) -> Frame {
        let left = (PAD + FONT + 8.0 + y.widest_label() + TICK_GAP)
            .max(PAD + x.widest_label() / 2.0)
            .max(extra_left);
        Frame {
            left,
            top: title_height(),
            width,
            height,
            x,
            y,
        }
    }

    /// Room needed right of the plot for the last x tick label, centred on the plot's edge.
    pub fn right_margin(&self) -> f64 {
        (self.x.last_label_width() / 2.0 + PAD).max(2.0 * PAD)
    }

    /// Room needed under the plot for x tick labels and the axis title.
    pub fn bottom_margin() -> f64 {
        TICK_GAP + FONT + 10.0 + FONT + PAD
    }

    /// The horizontal position of `x`.
    pub fn sx(&self, x: f64) -> f64 {
        self.left + self.x.fraction(x) * self.width
    }

    /// The vertical position of `y`.
    pub fn sy(&self, y: f64) -> f64 {
        self.top + self.height - self.y.fraction(y) * self.height
    }

    /// The bottom edge of the plot.
    pub fn base(&self) -> f64 {
        self.top + self.height
    }

    /// Draws the grid, the axes, the tick labels (`class="tick x"` or `"tick y"`) and the y
    /// axis title; the x axis title when `x_title` is some.
    pub fn draw(&self, svg: &mut String, x_title: Option<&str>, y_title: &str) {
        let (right, base) = (self.left + self.width, self.base());
        for (value, label) in self.y.ticks.values.iter().zip(&self.y.ticks.labels) {
            let y = self.sy(*value);
            let _ = writeln!(
                svg,
                r##"<line x1="{:.1}" y1="{y:.1}" x2="{right:.1}" y2="{y:.1}" stroke="#e4e4e4"/><text class="tick y" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                self.left,
                self.left - TICK_GAP,
                y + FONT * 0.35,
                escape(label),
            );
        }
        if x_title.is_some() {
            for (value, label) in self.x.ticks.values.iter().zip(&self.x.ticks.labels) {
                let x = self.sx(*value);
                let _ = writeln!(
                    svg,
                    r##"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}" stroke="#e4e4e4"/><text class="tick x" x="{x:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
                    self.top,
                    base + 4.0,
                    base + TICK_GAP + FONT,
                    escape(label),
                );
            }
        }
        let _ = writeln!(
            svg,
            r##"<path d="M{:.1} {:.1}V{base:.1}H{right:.1}" fill="none" stroke="#333"/>"##,
            self.left, self.top,
        );
        if let Some(title) = x_title {
            let _ = writeln!(
                svg,
                r##"<text class="axis-title" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
                self.left + self.width / 2.0,
                base + TICK_GAP + FONT + 10.0 + FONT,
                escape(title),
            );
        }
        let _ = writeln!(
            svg,
            r##"<text class="axis-title" transform="translate({:.1} {:.1}) rotate(-90)" text-anchor="middle">{}</text>"##,
            PAD + FONT,
            self.top + self.height / 2.0,
            escape(y_title),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_left_margin_holds_the_widest_y_label() {
        let x = Fitted::new(&Axis::linear("x"), [0.0, 10.0].into_iter());
        let narrow = Fitted::new(&Axis::linear("y"), [0.0, 1.0].into_iter());
        let wide = Fitted::new(&Axis::linear("y"), [0.0, 8_000_000.0].into_iter());
        let (a, b) = (
            Frame::new(x.clone(), narrow, 400.0, 300.0, 0.0),
            Frame::new(x, wide, 400.0, 300.0, 0.0),
        );
        assert!(b.left > a.left);
        // "8,000,000" reaches no further left than the y title's right side.
        assert!(b.left - TICK_GAP - text_width("8,000,000", FONT) >= PAD + FONT);
        // Data at the ends of the ticks lands on the plot's edges.
        assert_eq!((b.sx(0.0), b.sx(10.0)), (b.left, b.left + 400.0));
        assert_eq!(b.sy(0.0), b.base());
    }

    #[test]
    fn a_log_axis_places_decades_evenly() {
        let log = Fitted::new(&Axis::log("rank"), [1.0, 1000.0, 0.0].into_iter());
        assert_eq!(log.ticks.labels, ["10⁰", "10¹", "10²", "10³"]);
        assert!((log.fraction(10.0) - 1.0 / 3.0).abs() < 1e-12);
        assert!((log.fraction(100.0) - 2.0 / 3.0).abs() < 1e-12);
    }
}
