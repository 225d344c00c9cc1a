//! Bar charts: one bar per category, or a group of bars per category (one per series), from
//! zero, each category's label slanted under it.

use std::fmt::Write;

use super::axis::{Axis, Fitted, Frame};
use super::legend::{Legend, Mark};
use super::svg::{close, escape, open, shortened, slanted_extent, slanted_label, PAD, PALETTE};
use super::ticks::number;

/// One series of values, one per category.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bars<'a> {
    /// Its name in the legend (no legend for a single series).
    pub name: &'a str,
    /// Values (≥ 0), one per category.
    pub values: &'a [f64],
}

/// What to draw as bars.
#[derive(Debug, Clone)]
pub(crate) struct BarChart<'a> {
    /// Shown above the plot.
    pub title: &'a str,
    /// Under the category labels.
    pub x_label: &'a str,
    /// The value axis (linear; fixed or fitted from zero to the largest value).
    pub y: Axis<'a>,
    /// The categories, in order.
    pub categories: &'a [String],
    /// One or more series.
    pub series: &'a [Bars<'a>],
}

/// Longest category label drawn (the full one is in the bar's tooltip).
const LABEL_CHARS: usize = 28;

/// Renders the chart as an SVG element.
pub(crate) fn bar_chart(chart: &BarChart) -> String {
    let n = chart.categories.len().max(1);
    let groups = chart.series.len().max(1);
    let width = (n as f64 * (groups as f64 * 10.0 + 8.0)).clamp(480.0, 1600.0);
    let slot = width / n as f64;
    let labels: Vec<String> = chart
        .categories
        .iter()
        .map(|c| shortened(c, LABEL_CHARS))
        .collect();
    let extents: Vec<(f64, f64)> = labels.iter().map(|l| slanted_extent(l)).collect();
    // A slanted label reaches left of its bar; the first ones may reach past the plot's edge.
    let reach_left = extents
        .iter()
        .enumerate()
        .map(|(i, e)| e.0 - (i as f64 + 0.5) * slot + PAD)
        .fold(0.0, f64::max);
    let values = chart.series.iter().flat_map(|s| s.values.iter().copied());
    let y = Fitted::new(&chart.y, values.chain([0.0]));
    let x = Fitted::new(&Axis::linear(""), [0.0, 1.0].into_iter());
    let frame = Frame::new(x, y, width, 300.0, reach_left);
    let label_depth = extents.iter().map(|e| e.1).fold(0.0, f64::max);
    let legend = Legend {
        entries: match chart.series.len() > 1 {
            true => (chart.series.iter().enumerate())
                .map(|(i, s)| (s.name, Mark::Bar, PALETTE[i % PALETTE.len()]))
                .collect(),
            false => Vec::new(),
        },
    };
    let total_width = frame.left + width + 2.0 * PAD + legend.width();
    let x_title_y = frame.base() + 10.0 + label_depth + 18.0;
    let height = (x_title_y + PAD).max(frame.top + legend.height());
    let mut svg = open(total_width, height, chart.title);
    frame.draw(&mut svg, None, chart.y.label);
    let bar = slot * 0.8 / groups as f64;
    for (i, (category, label)) in chart.categories.iter().zip(&labels).enumerate() {
        let start = frame.left + slot * i as f64 + slot * 0.1;
        for (g, series) in chart.series.iter().enumerate() {
            let value = series.values.get(i).copied().unwrap_or(0.0).max(0.0);
            let top = frame.sy(value);
            let name = match chart.series.len() {
                1 => String::new(),
                _ => format!(" {}", series.name),
            };
            let _ = writeln!(
                svg,
                r##"<rect class="data" x="{:.1}" y="{top:.1}" width="{bar:.1}" height="{:.1}" fill="{}"><title>{}{}: {}</title></rect>"##,
                start + bar * g as f64,
                frame.base() - top,
                PALETTE[g % PALETTE.len()],
                escape(category),
                escape(&name),
                number(value, if value.fract() == 0.0 { 0 } else { 4 }),
            );
        }
        slanted_label(&mut svg, start + slot * 0.4, frame.base() + 12.0, label);
    }
    let _ = writeln!(
        svg,
        r##"<text class="axis-title" x="{:.1}" y="{x_title_y:.1}" text-anchor="middle">{}</text>"##,
        frame.left + width / 2.0,
        escape(chart.x_label)
    );
    legend.draw(&mut svg, frame.left + width + PAD, frame.top);
    close(&mut svg);
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_scale_to_round_ticks_and_keep_their_labels() {
        let categories = ["a<b".to_string(), "c".to_string()];
        let series = [Bars {
            name: "documents",
            values: &[2.0, 4.0],
        }];
        let svg = bar_chart(&BarChart {
            title: "balance",
            x_label: "class",
            y: Axis::linear("documents"),
            categories: &categories,
            series: &series,
        });
        assert_eq!(svg.matches(r#"<rect class="data""#).count(), 2);
        // Ticks 0, 1, 2, 3, 4 over a plot 300 high: the larger bar fills it, the other half.
        assert!(svg.contains(r#"height="300.0""#) && svg.contains(r#"height="150.0""#));
        assert!(svg.contains("a&lt;b: 2") && !svg.contains(r#"class="legend""#));
        let empty = bar_chart(&BarChart {
            title: "",
            x_label: "",
            y: Axis::linear(""),
            categories: &[],
            series: &[],
        });
        assert!(!empty.contains("NaN") && !empty.contains("inf"));
    }

    #[test]
    fn long_first_labels_widen_the_left_margin_and_groups_get_a_legend() {
        let categories = ["comp.os.ms-windows.misc".to_string(), "x".to_string()];
        let (p, r) = ([0.9, 0.5], [0.8, 0.4]);
        let series = [
            Bars {
                name: "precision",
                values: &p,
            },
            Bars {
                name: "recall",
                values: &r,
            },
        ];
        let svg = bar_chart(&BarChart {
            title: "per class",
            x_label: "class",
            y: Axis::fixed("score", 0.0, 1.0),
            categories: &categories,
            series: &series,
        });
        assert_eq!(svg.matches(r#"class="legend""#).count(), 2);
        let left: f64 = {
            let at = svg.find(r#"<path d="M"#).unwrap() + r#"<path d="M"#.len();
            svg[at..].split(' ').next().unwrap().parse().unwrap()
        };
        let (reach, _) = slanted_extent("comp.os.ms-windows.misc");
        assert!(left + 240.0 * 0.5 - reach >= PAD, "left margin {left}");
    }
}
