//! Line and bar charts as self-contained SVG documents: no scripts, fonts or links.

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
    /// A second line drawn dashed (a fitted law, say), if any.
    pub reference: Option<&'a [(f64, f64)]>,
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
    let all = || chart.points.iter().chain(chart.reference.unwrap_or(&[]));
    let (x0, x1) = range(all().map(|p| p.0));
    let (y0, y1) = range(all().map(|p| p.1));
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
    if let Some(reference) = chart.reference {
        let path: Vec<String> = reference
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", sx(x), sy(y)))
            .collect();
        let _ = writeln!(
            svg,
            r##"<polyline fill="none" stroke="#d62728" stroke-width="1.5" stroke-dasharray="6 4" points="{}"/>"##,
            path.join(" ")
        );
    }
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
    close(&mut svg, HEIGHT - 12.0, chart.x_label, chart.y_label);
    svg
}

/// What to draw as bars: one labelled value per bar, in order.
#[derive(Debug, Clone)]
pub struct BarChart<'a> {
    /// Shown above the plot.
    pub title: &'a str,
    /// Under the labels.
    pub x_label: &'a str,
    /// Beside the y axis.
    pub y_label: &'a str,
    /// (label, value ≥ 0) per bar.
    pub bars: &'a [(String, f64)],
}

/// Room under a bar chart for slanted labels.
const BAR_BOTTOM: f64 = 130.0;

/// Renders vertical bars from zero, with five y ticks and each label slanted under its bar.
pub fn bar_chart(chart: &BarChart) -> String {
    let height = TOP + (HEIGHT - TOP - BOTTOM) + BAR_BOTTOM;
    let (plot_w, plot_h) = (WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
    let top = chart.bars.iter().map(|b| b.1).fold(0.0, f64::max);
    let top = if top > 0.0 { top } else { 1.0 };
    let slot = plot_w / chart.bars.len().max(1) as f64;
    let base = TOP + plot_h;
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="white"/>
<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>
<line x1="{LEFT}" y1="{base}" x2="{}" y2="{base}" stroke="black"/>"##,
        WIDTH / 2.0,
        escape(chart.title),
        LEFT + plot_w,
    );
    for i in 0..=4 {
        let value = top * f64::from(i) / 4.0;
        let y = base - plot_h * f64::from(i) / 4.0;
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text><line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/>"##,
            LEFT - 6.0,
            y + 4.0,
            format_tick((value * 100.0).round() / 100.0),
            LEFT + plot_w,
        );
    }
    for (i, (label, value)) in chart.bars.iter().enumerate() {
        let h = value.max(0.0) / top * plot_h;
        let x = LEFT + slot * i as f64;
        let _ = writeln!(
            svg,
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{h:.1}" fill="#1f77b4"><title>{}: {}</title></rect><text transform="translate({:.1} {:.1}) rotate(-40)" text-anchor="end">{}</text>"##,
            x + slot * 0.1,
            base - h,
            slot * 0.8,
            escape(label),
            format_tick(*value),
            x + slot * 0.5,
            base + 14.0,
            escape(label),
        );
    }
    close(&mut svg, height - 10.0, chart.x_label, chart.y_label);
    svg
}

/// Writes the axis titles, the x title's baseline at `x_title_y`, and ends the SVG.
fn close(svg: &mut String, x_title_y: f64, x_label: &str, y_label: &str) {
    let plot_h = HEIGHT - TOP - BOTTOM;
    let _ = write!(
        svg,
        r##"<text x="{:.1}" y="{x_title_y:.1}" text-anchor="middle">{}</text>
<text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle">{}</text>
</svg>
"##,
        LEFT + (WIDTH - LEFT - RIGHT) / 2.0,
        escape(x_label),
        TOP + plot_h / 2.0,
        escape(y_label)
    );
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
            reference: None,
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
            reference: Some(&[]),
        });
        assert!(!empty.contains("NaN"));
    }

    #[test]
    fn bars_scale_to_the_largest_value_and_keep_their_labels() {
        let bars = [("a<b".to_string(), 2.0), ("c".to_string(), 4.0)];
        let svg = bar_chart(&BarChart {
            title: "balance",
            x_label: "class",
            y_label: "documents",
            bars: &bars,
        });
        assert_eq!(svg.matches("<rect x=").count(), 2);
        // The plot is 325 high: the larger bar fills it, the other is half of it.
        assert!(svg.contains(r#"height="325.0""#) && svg.contains(r#"height="162.5""#));
        assert!(svg.contains("a&lt;b: 2"));
        let empty = bar_chart(&BarChart {
            title: "",
            x_label: "",
            y_label: "",
            bars: &[],
        });
        assert!(!empty.contains("NaN") && !empty.contains("inf"));
    }
}
