//! A legend: one row per series, a sample of its mark beside its name, right of the plot.

use std::fmt::Write;

use super::svg::{escape, text_width, FONT, PAD};

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mark {
    /// A solid line.
    Line,
    /// A dashed line: a fitted law or a reference such as chance.
    Dashed,
    /// A line with a dot at each point.
    Dots,
    /// A filled square: a bar.
    Bar,
}

/// Height of one legend row.
pub const ROW: f64 = 17.0;
const SAMPLE: f64 = 22.0;

/// A legend's entries: (name, mark, colour).
pub struct Legend<'a> {
    /// The entries in order.
    pub entries: Vec<(&'a str, Mark, &'a str)>,
}

impl Legend<'_> {
    /// Its width, sample and gaps included; 0 when there is nothing to show.
    pub fn width(&self) -> f64 {
        if self.entries.is_empty() {
            return 0.0;
        }
        let widest = self
            .entries
            .iter()
            .map(|e| text_width(e.0, FONT))
            .fold(0.0, f64::max);
        PAD + SAMPLE + 6.0 + widest + PAD
    }

    /// Its height.
    pub fn height(&self) -> f64 {
        self.entries.len() as f64 * ROW
    }

    /// Draws it with its top left corner at (x, y).
    pub fn draw(&self, svg: &mut String, x: f64, y: f64) {
        for (i, &(name, mark, colour)) in self.entries.iter().enumerate() {
            let (left, middle) = (x + PAD, y + ROW * (i as f64 + 0.5));
            let mut sample = match mark {
                Mark::Bar => format!(
                    r##"<rect x="{left:.1}" y="{:.1}" width="{SAMPLE}" height="10" fill="{colour}"/>"##,
                    middle - 5.0
                ),
                _ => format!(
                    r##"<line x1="{left:.1}" y1="{middle:.1}" x2="{:.1}" y2="{middle:.1}" stroke="{colour}" stroke-width="2"{}/>"##,
                    left + SAMPLE,
                    if mark == Mark::Dashed {
                        r#" stroke-dasharray="6 4""#
                    } else {
                        ""
                    }
                ),
            };
            if mark == Mark::Dots {
                let _ = write!(
                    sample,
                    r##"<circle cx="{:.1}" cy="{middle:.1}" r="3.5" fill="{colour}"/>"##,
                    left + SAMPLE / 2.0
                );
            }
            let _ = writeln!(
                svg,
                r##"{sample}<text class="legend" x="{:.1}" y="{:.1}">{}</text>"##,
                left + SAMPLE + 6.0,
                middle + FONT * 0.35,
                escape(name)
            );
        }
    }
}
