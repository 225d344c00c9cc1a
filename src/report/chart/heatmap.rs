//! A heatmap of counts, as a confusion matrix is read: one row per true class, one column per
//! predicted class, each cell shaded by its share of the row.

use std::fmt::Write;

use super::svg::{
    close, escape, open, shortened, slanted_extent, slanted_label, text_width, title_height, FONT,
    PAD,
};
use super::ticks::count;

/// What to draw.
#[derive(Debug, Clone)]
pub(crate) struct Heatmap<'a> {
    /// Shown above the matrix.
    pub title: &'a str,
    /// Under the column labels.
    pub x_label: &'a str,
    /// Beside the row labels.
    pub y_label: &'a str,
    /// Row and column labels (a square matrix).
    pub labels: &'a [String],
    /// `counts[row][column]`.
    pub counts: &'a [Vec<u64>],
}

/// Longest row or column label drawn.
const LABEL_CHARS: usize = 28;

/// Shade of a share from 0 (white) to 1 (dark blue).
fn shade(share: f64) -> String {
    let s = share.clamp(0.0, 1.0);
    let mix = |from: f64, to: f64| (from + (to - from) * s).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(255.0, 8.0),
        mix(255.0, 69.0),
        mix(255.0, 148.0)
    )
}

/// Where the parts of the chart go.
struct Layout {
    /// Row and column labels as drawn, shortened.
    labels: Vec<String>,
    /// The side of one cell, and of the whole matrix.
    cell: f64,
    side: f64,
    /// The matrix's top left corner.
    left: f64,
    top: f64,
    /// Where the key starts, and how wide it is.
    key_x: f64,
    key_width: f64,
    /// The baseline of the title under the columns, and the chart's height.
    x_title_y: f64,
    height: f64,
}

impl Layout {
    /// Room for the labels beside the rows and slanted under the columns, and for the key.
    fn of(chart: &Heatmap) -> Self {
        let n = chart.labels.len().max(1);
        let cell = (560.0 / n as f64).clamp(12.0, 44.0);
        let labels: Vec<String> = (chart.labels.iter())
            .map(|l| shortened(l, LABEL_CHARS))
            .collect();
        let widest = (labels.iter())
            .map(|l| text_width(l, FONT))
            .fold(0.0, f64::max);
        let extents: Vec<(f64, f64)> = labels.iter().map(|l| slanted_extent(l)).collect();
        let reach_left = (extents.iter().enumerate())
            .map(|(i, e)| e.0 - (i as f64 + 0.5) * cell + PAD)
            .fold(0.0, f64::max);
        let left = (PAD + FONT + 8.0 + widest + 6.0).max(reach_left);
        let top = title_height();
        let side = cell * n as f64;
        let depth = extents.iter().map(|e| e.1).fold(0.0, f64::max);
        let x_title_y = top + side + 10.0 + depth + 18.0;
        Layout {
            labels,
            cell,
            side,
            left,
            top,
            key_x: left + side + 3.0 * PAD,
            key_width: 18.0 + 6.0 + text_width("100% of the row", FONT) + PAD,
            x_title_y,
            height: (x_title_y + PAD).max(top + 6.0 * 18.0 + 2.0 * FONT),
        }
    }
}

/// Renders the matrix as an SVG element, with a key of shades.
pub(crate) fn heatmap(chart: &Heatmap) -> String {
    let layout = Layout::of(chart);
    let mut svg = open(layout.key_x + layout.key_width, layout.height, chart.title);
    cells(&mut svg, chart, &layout);
    labels(&mut svg, chart, &layout);
    key(&mut svg, &layout);
    close(&mut svg);
    svg
}

/// One shaded cell per count, with the count written in it where it fits.
fn cells(svg: &mut String, chart: &Heatmap, layout: &Layout) {
    let (left, top, cell) = (layout.left, layout.top, layout.cell);
    let font = (cell * 0.42).min(FONT);
    for (r, row) in chart.counts.iter().enumerate() {
        let total: u64 = row.iter().sum();
        for (c, &value) in row.iter().enumerate() {
            let share = value as f64 / total.max(1) as f64;
            let (x, y) = (left + c as f64 * cell, top + r as f64 * cell);
            let _ = write!(
                svg,
                r##"<rect class="data" x="{x:.1}" y="{y:.1}" width="{cell:.1}" height="{cell:.1}" fill="{}" stroke="#fff"><title>{} → {}: {}</title></rect>"##,
                shade(share),
                escape(&chart.labels[r]),
                escape(&chart.labels[c]),
                count(value),
            );
            let text = count(value);
            if value > 0 && text_width(&text, font) < cell - 2.0 {
                let ink = if share > 0.5 { "#fff" } else { "#222" };
                let _ = write!(
                    svg,
                    r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="{font:.1}" fill="{ink}">{text}</text>"##,
                    x + cell / 2.0,
                    y + cell / 2.0 + font * 0.35,
                );
            }
            svg.push('\n');
        }
    }
}

/// The class labels beside the rows and slanted under the columns, and the axis titles.
fn labels(svg: &mut String, chart: &Heatmap, layout: &Layout) {
    let (left, top, cell, side) = (layout.left, layout.top, layout.cell, layout.side);
    for (i, label) in layout.labels.iter().enumerate() {
        let middle = top + (i as f64 + 0.5) * cell;
        let _ = writeln!(
            svg,
            r##"<text class="category" x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
            left - 6.0,
            middle + FONT * 0.35,
            escape(label)
        );
        slanted_label(
            svg,
            left + (i as f64 + 0.5) * cell,
            top + side + 12.0,
            label,
        );
    }
    let _ = writeln!(
        svg,
        r##"<text class="axis-title" x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>
<text class="axis-title" transform="translate({:.1} {:.1}) rotate(-90)" text-anchor="middle">{}</text>"##,
        left + side / 2.0,
        layout.x_title_y,
        escape(chart.x_label),
        PAD + FONT,
        top + side / 2.0,
        escape(chart.y_label),
    );
}

/// The key: six shades and the shares of the row they stand for.
fn key(svg: &mut String, layout: &Layout) {
    for (i, share) in [1.0, 0.8, 0.6, 0.4, 0.2, 0.0].into_iter().enumerate() {
        let y = layout.top + i as f64 * 18.0;
        let _ = writeln!(
            svg,
            r##"<rect x="{:.1}" y="{y:.1}" width="18" height="18" fill="{}" stroke="#ccc"/><text class="legend" x="{:.1}" y="{:.1}">{:.0}% of the row</text>"##,
            layout.key_x,
            shade(share),
            layout.key_x + 24.0,
            y + 9.0 + FONT * 0.35,
            share * 100.0,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_shaded_by_their_share_of_the_row() {
        let labels = ["a".to_string(), "b".to_string()];
        let counts = [vec![3, 1], vec![0, 2_000]];
        let svg = heatmap(&Heatmap {
            title: "confusion",
            x_label: "predicted",
            y_label: "true",
            labels: &labels,
            counts: &counts,
        });
        assert_eq!(svg.matches(r#"<rect class="data""#).count(), 4);
        assert!(svg.contains(&format!(r#"fill="{}""#, shade(0.75))));
        assert!(svg.contains("b → b: 2,000") && svg.contains(">2,000<"));
        assert_eq!(
            (shade(0.0).as_str(), shade(1.0).as_str()),
            ("#ffffff", "#084594")
        );
    }
}
