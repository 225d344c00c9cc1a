//! A line chart as a self-contained SVG document.

use std::fmt::Write;

/// What to draw: points (x, y) joined in order, with axis titles and one marked point.
#[derive(Debug, Clone)]
pub struct LineChart<'a> {
    /// Shown above the plot.
    pub title: &'a str,
    /// Under the x axis.
    pub x_label: &'a str,
    /// Beside the y axis.
    pub y_label: &'a str,
    /// The line's points, in drawing order.
    pub points: &'a [(f64, f64)],
    /// A point to mark with a dot and its value, if any.
    pub marked: Option<(f64, f64)>,
}

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 420.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 55.0;

/// Escapes text for SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The range of `values`, widened when empty or flat so that scaling never divides by zero.
fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !lo.is_finite() {
        (0.0, 1.0)
    } else if hi - lo < 1e-12 {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    }
}

/// Renders the chart: axes with five ticks each, the line, and the marked point.
pub fn line_chart(chart: &LineChart) -> String {
    let (x0, x1) = range(chart.points.iter().map(|p| p.0));
    let (y0, y1) = range(chart.points.iter().map(|p| p.1));
    let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let sx = |x: f64| LEFT + (x - x0) / (x1 - x0) * plot_w;
    let sy = |y: f64| TOP + plot_h - (y - y0) / (y1 - y0) * plot_h;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>
<line x1="{LEFT}" y1="{}" x2="{}" y2="{}" stroke="black"/>
<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{}" stroke="black"/>
"##,
        WIDTH / 2.0,
        escape(chart.title),
        TOP + plot_h,
        LEFT + plot_w,
        TOP + plot_h,
        TOP + plot_h
    );
    for i in 0..=4 {
        let fraction = f64::from(i) / 4.0;
        let (x, y) = (x0 + fraction * (x1 - x0), y0 + fraction * (y1 - y0));
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text><text x="{:.1}" y="{:.1}" text-anchor="end">{:.4}</text><line x1="{LEFT}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#ddd"/>"##,
            sx(x),
            TOP + plot_h + 18.0,
            format_tick(x),
            LEFT - 6.0,
            sy(y) + 4.0,
            y,
            sy(y),
            LEFT + plot_w,
            sy(y)
        );
    }
    let path: Vec<String> = chart
        .points
        .iter()
        .map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y)))
        .collect();
    let _ = writeln!(
        svg,
        r##"<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="{}"/>"##,
        path.join(" ")
    );
    if let Some((x, y)) = chart.marked {
        let _ = writeln!(
            svg,
            r##"<circle cx="{:.1}" cy="{:.1}" r="4" fill="#d62728"/><text x="{:.1}" y="{:.1}" fill="#d62728">{} at {:.4}</text>"##,
            sx(x),
            sy(y),
            sx(x) + 6.0,
            sy(y) - 6.0,
            format_tick(x),
            y
        );
    }
    let _ = write!(
        svg,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>
<text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">{}</text>
</svg>
"##,
        LEFT + plot_w / 2.0,
        HEIGHT - 12.0,
        escape(chart.x_label),
        TOP + plot_h / 2.0,
        escape(chart.y_label)
    );
    svg
}

/// A tick label: whole numbers without decimals.
fn format_tick(value: f64) -> String {
    if (value - value.round()).abs() < 1e-9 {
        format!("{}", value.round() as i64)
    } else {
        format!("{value:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_is_one_svg_with_the_line_and_the_marked_point() {
        let points = [(0.0, 0.5), (1.0, 0.7), (2.0, 0.65)];
        let svg = line_chart(&LineChart {
            title: "dev accuracy & features",
            x_label: "features",
            y_label: "accuracy",
            points: &points,
            marked: Some((1.0, 0.7)),
        });
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("dev accuracy &amp; features"));
        assert_eq!(svg.matches("<polyline").count(), 1);
        assert!(svg.contains("1 at 0.7000"));
        // The first point is at the left edge and the lowest value at the bottom of the plot.
        assert!(svg.contains("points=\"70.0,365.0 "));
        assert!(!svg.contains("NaN"));
        let empty = line_chart(&LineChart {
            title: "",
            x_label: "",
            y_label: "",
            points: &[],
            marked: None,
        });
        assert!(!empty.contains("NaN"));
    }
}
