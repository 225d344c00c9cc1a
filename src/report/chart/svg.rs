//! Writing SVG: escaping, estimated text widths (so margins fit their labels), colours, and
//! the elements the charts share.

use std::fmt::Write;

/// Font size of tick labels, legends and axis titles, in pixels.
pub const FONT: f64 = 12.0;
/// Font size of a chart's title.
pub const TITLE_FONT: f64 = 15.0;
/// Space kept between a chart's edge and anything drawn.
pub const PAD: f64 = 8.0;

/// Colours for series, in order: Tableau's ten, then their lighter partners, so twenty series
/// stay apart.
pub const PALETTE: [&str; 20] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94",
    "#f7b6d2", "#c7c7c7", "#dbdb8d", "#9edae5",
];

/// Escapes text for SVG and HTML.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A generous estimate of the width of `text` in a sans-serif font of `size` pixels, from the
/// widths of DejaVu Sans (the widest common sans-serif): margins sized by it hold the text in
/// any usual font.
pub fn text_width(text: &str, size: f64) -> f64 {
    let ems: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | ' ' => 0.34,
            'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' => 0.45,
            '⁰'..='⁹' | '¹' | '²' | '³' | '⁻' => 0.45,
            'm' | 'w' | 'M' | 'W' | '%' | '@' => 0.98,
            c if c.is_ascii_uppercase() => 0.75,
            c if c.is_ascii() => 0.64,
            // Letters of other scripts, CJK included, can be a full em wide.
            _ => 1.0,
        })
        .sum();
    ems * size
}

/// `text`, cut to `max` characters with an ellipsis when longer.
pub fn shortened(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    kept + "…"
}

/// Opens an SVG of `width` × `height` with a white background and its title, centred on top.
pub fn open(width: f64, height: f64, title: &str) -> String {
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<svg width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="{FONT}" role="img">
<title>{title}</title>
<rect width="100%" height="100%" fill="white"/>
<text x="{:.1}" y="{:.1}" text-anchor="middle" font-size="{TITLE_FONT}">{title}</text>
"##,
        width / 2.0,
        PAD + TITLE_FONT,
        title = escape(title),
    );
    svg
}

/// Height taken by the title at the top.
pub fn title_height() -> f64 {
    PAD + TITLE_FONT + 14.0
}

/// A label slanted 40° upward to the left, its end at (x, y): under a bar or a matrix column.
pub fn slanted_label(svg: &mut String, x: f64, y: f64, label: &str) {
    let _ = writeln!(
        svg,
        r##"<text class="category" transform="translate({x:.1} {y:.1}) rotate(-40)" text-anchor="end">{}</text>"##,
        escape(label)
    );
}

/// How far a slanted label reaches (left of its end, below it).
pub fn slanted_extent(label: &str) -> (f64, f64) {
    let (sin, cos) = 40f64.to_radians().sin_cos();
    let width = text_width(label, FONT);
    (width * cos + FONT * sin, width * sin + FONT * cos)
}

/// Ends an SVG document.
pub fn close(svg: &mut String) {
    svg.push_str("</svg>\n");
}

/// An SVG chart as a file of its own, which needs the namespace an HTML page does not.
pub(crate) fn standalone(svg: &str) -> String {
    svg.replacen("<svg ", "<svg xmlns=\"http://www.w3.org/2000/svg\" ", 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_grow_with_the_text_and_long_labels_are_cut() {
        assert!(text_width("1,000,000", FONT) > text_width("1,000", FONT));
        assert!(text_width("WWW", FONT) > text_width("iii", FONT));
        assert_eq!(shortened("comp.os.ms-windows.misc", 10), "comp.os.m…");
        assert_eq!(shortened("sci.space", 10), "sci.space");
        assert!(standalone("<svg width=\"1\"></svg>").starts_with("<svg xmlns="));
    }
}
