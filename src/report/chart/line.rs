//! Line charts: several series of points over two axes, linear or logarithmic, with a legend.

use std::fmt::Write;

use super::axis::{Axis, Fitted, Frame};
use super::legend::{Legend, Mark};
use super::svg::{close, escape, open, FONT, PALETTE};

/// One series of points.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Series<'a> {
    /// Its name in the legend; a chart whose only series has no name has no legend.
    pub name: &'a str,
    /// The points, in drawing order.
    pub points: &'a [(f64, f64)],
    /// How it is drawn.
    pub mark: Mark,
    /// Its colour; the palette's next one when none.
    pub colour: Option<&'a str>,
}

impl<'a> Series<'a> {
    /// A solid line in the palette's next colour.
    pub(crate) fn line(name: &'a str, points: &'a [(f64, f64)]) -> Self {
        Series {
            name,
            points,
            mark: Mark::Line,
            colour: None,
        }
    }

    /// A dashed line: a fitted law or a reference.
    pub(crate) fn dashed(name: &'a str, points: &'a [(f64, f64)], colour: &'a str) -> Self {
        Series {
            name,
            points,
            mark: Mark::Dashed,
            colour: Some(colour),
        }
    }
}

/// What to draw.
#[derive(Debug, Clone)]
pub(crate) struct LineChart<'a> {
    /// Shown above the plot.
    pub title: &'a str,
    /// The horizontal axis.
    pub x: Axis<'a>,
    /// The vertical axis.
    pub y: Axis<'a>,
    /// The series, drawn in order.
    pub series: &'a [Series<'a>],
    /// A point to mark with a dot and its value, if any.
    pub marked: Option<(f64, f64)>,
}

/// Plot size of a line chart.
const PLOT: (f64, f64) = (520.0, 320.0);

/// Renders the chart as an SVG element (see [`standalone`](super::standalone) for a file).
pub(crate) fn line_chart(chart: &LineChart) -> String {
    let shown = |p: &&(f64, f64)| chart.x.shows(p.0) && chart.y.shows(p.1);
    let all = || {
        chart
            .series
            .iter()
            .flat_map(|s| s.points.iter().filter(shown))
    };
    let x = Fitted::new(&chart.x, all().map(|p| p.0));
    let y = Fitted::new(&chart.y, all().map(|p| p.1));
    let frame = Frame::new(x, y, PLOT.0, PLOT.1, 0.0);
    let colours: Vec<&str> = (0..chart.series.len())
        .map(|i| chart.series[i].colour.unwrap_or(PALETTE[i % PALETTE.len()]))
        .collect();
    let named = chart.series.len() > 1 || chart.series.iter().any(|s| !s.name.is_empty());
    let legend = Legend {
        entries: match named {
            true => chart
                .series
                .iter()
                .zip(&colours)
                .map(|(s, c)| (s.name, s.mark, *c))
                .collect(),
            false => Vec::new(),
        },
    };
    let right = frame.right_margin();
    let width = frame.left + frame.width + right + legend.width();
    let height = (frame.base() + Frame::bottom_margin()).max(frame.top + legend.height());
    let mut svg = open(width, height, chart.title);
    frame.draw(&mut svg, Some(chart.x.label), chart.y.label);
    for (series, colour) in chart.series.iter().zip(&colours) {
        let points: Vec<String> = series
            .points
            .iter()
            .filter(shown)
            .map(|&(x, y)| format!("{:.1},{:.1}", frame.sx(x), frame.sy(y)))
            .collect();
        let dashes = match series.mark {
            Mark::Dashed => r#" stroke-dasharray="6 4""#,
            _ => "",
        };
        let _ = writeln!(
            svg,
            r##"<polyline class="data" fill="none" stroke="{colour}" stroke-width="1.6"{dashes} points="{}"><title>{}</title></polyline>"##,
            points.join(" "),
            escape(series.name)
        );
        if series.mark == Mark::Dots {
            for point in &points {
                let (cx, cy) = point.split_once(',').unwrap_or(("0", "0"));
                let _ = writeln!(
                    svg,
                    r##"<circle class="data" cx="{cx}" cy="{cy}" r="3.5" fill="{colour}"/>"##
                );
            }
        }
    }
    if let Some((x, y)) = chart.marked {
        let (cx, cy) = (frame.sx(x), frame.sy(y));
        let label = format!("{} at {:.4}", super::ticks::number(x, 0), y);
        // The label goes left of the point when it would run past the plot's right edge.
        let fits_right = cx + 6.0 + super::svg::text_width(&label, FONT) < frame.left + frame.width;
        let (lx, anchor) = if fits_right {
            (cx + 6.0, "start")
        } else {
            (cx - 6.0, "end")
        };
        let _ = writeln!(
            svg,
            r##"<circle class="data" cx="{cx:.1}" cy="{cy:.1}" r="4" fill="#d62728"/><text class="marked" x="{lx:.1}" y="{:.1}" text-anchor="{anchor}" fill="#d62728">{label}</text>"##,
            (cy - 6.0).max(frame.top + FONT),
        );
    }
    legend.draw(&mut svg, frame.left + frame.width + right, frame.top);
    close(&mut svg);
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_has_its_lines_a_legend_and_round_ticks() {
        let points = [(0.0, 0.5), (1.0, 0.7), (2.0, 0.65)];
        let fitted = [(0.0, 0.55), (2.0, 0.7)];
        let series = [
            Series::line("dev accuracy", &points),
            Series::dashed("fitted & smoothed", &fitted, "#d62728"),
        ];
        let svg = line_chart(&LineChart {
            title: "dev accuracy & features",
            x: Axis::linear("features"),
            y: Axis::linear("accuracy"),
            series: &series,
            marked: Some((1.0, 0.7)),
        });
        assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("dev accuracy &amp; features"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches(r#"class="legend""#).count(), 2);
        assert!(svg.contains("fitted &amp; smoothed") && svg.contains("1 at 0.7000"));
        // y from 0.5 to 0.7 in steps of 0.05; x from 0 to 2 in steps of 0.5.
        for tick in [">0.50<", ">0.55<", ">0.70<", ">1.5<", ">2.0<"] {
            assert!(svg.contains(tick), "{tick} missing:\n{svg}");
        }
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
        let empty = line_chart(&LineChart {
            title: "",
            x: Axis::log("rank"),
            y: Axis::linear("y"),
            series: &[Series::line("", &[])],
            marked: None,
        });
        assert!(!empty.contains("NaN") && !empty.contains(r#"class="legend""#));
    }

    #[test]
    fn a_log_axis_drops_points_it_cannot_place() {
        let points = [(0.0, 5.0), (1.0, 1000.0), (100.0, 10.0)];
        let series = [Series::line("terms", &points)];
        let svg = line_chart(&LineChart {
            title: "Zipf",
            x: Axis::log("rank"),
            y: Axis::log("frequency"),
            series: &series,
            marked: None,
        });
        assert!(svg.contains(">10³<") && svg.contains(">10²<"));
        let line = svg.split("points=\"").nth(1).unwrap();
        assert_eq!(line[..line.find('"').unwrap()].split(' ').count(), 2);
    }
}
