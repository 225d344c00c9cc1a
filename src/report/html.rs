//! [`CorpusStats`] as one self-contained HTML page: inline SVG charts and tables, no scripts,
//! fonts, images or links, so it opens offline and anywhere.

use std::fmt::Write;

use super::chart::{bar_chart, line_chart, BarChart, LineChart};
use super::stats::{CorpusStats, TermCount};

const STYLE: &str = "body{font-family:sans-serif;margin:2em auto;max-width:60em;color:#222}\
table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{padding:2px 10px;text-align:right;\
border-bottom:1px solid #eee}td:first-child,th:first-child{text-align:left}\
svg{display:block;margin:1em 0}.classes{display:flex;flex-wrap:wrap;gap:2em}";

/// Renders the whole report.
pub fn html_report(stats: &CorpusStats) -> String {
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>bowline corpus report</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>Corpus report</h1>\n"
    );
    totals(&mut page, stats);
    classes(&mut page, stats);
    lengths(&mut page, stats);
    laws(&mut page, stats);
    terms(&mut page, stats);
    page.push_str("</body>\n</html>\n");
    page
}

/// Escapes text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A table from a header row and body rows of already escaped cells.
fn table(page: &mut String, header: &[&str], rows: &[Vec<String>]) {
    page.push_str("<table>\n<tr>");
    for cell in header {
        let _ = write!(page, "<th>{cell}</th>");
    }
    page.push_str("</tr>\n");
    for row in rows {
        page.push_str("<tr>");
        for cell in row {
            let _ = write!(page, "<td>{cell}</td>");
        }
        page.push_str("</tr>\n");
    }
    page.push_str("</table>\n");
}

fn totals(page: &mut String, stats: &CorpusStats) {
    page.push_str("<h2>Totals</h2>\n");
    let rows: Vec<Vec<String>> = stats
        .totals
        .figures()
        .into_iter()
        .map(|(name, value)| vec![name.to_string(), value])
        .collect();
    table(page, &["figure", "value"], &rows);
}

fn classes(page: &mut String, stats: &CorpusStats) {
    page.push_str("<h2>Class balance</h2>\n");
    let bars: Vec<(String, f64)> = stats
        .classes
        .iter()
        .map(|(name, c)| (name.clone(), c.documents as f64))
        .collect();
    page.push_str(&bar_chart(&BarChart {
        title: "Documents per class",
        x_label: "class",
        y_label: "documents",
        bars: &bars,
    }));
    let rows: Vec<Vec<String>> = stats
        .classes
        .iter()
        .map(|(name, c)| {
            vec![
                escape(name),
                c.documents.to_string(),
                format!("{:.1}%", 100.0 * c.share),
                c.tokens.to_string(),
                format!("{:.1}", c.mean_length),
                format!("{:.1}", c.median_length),
            ]
        })
        .collect();
    let header = [
        "class",
        "documents",
        "share",
        "tokens",
        "mean length",
        "median length",
    ];
    table(page, &header, &rows);
}

fn lengths(page: &mut String, stats: &CorpusStats) {
    let l = &stats.lengths;
    page.push_str("<h2>Document length</h2>\n");
    let h = &l.histogram;
    let bars: Vec<(String, f64)> = h
        .counts
        .iter()
        .enumerate()
        .map(|(i, &count)| {
            let label = match h.counts.len() == i + 1 {
                true => format!("{}+", h.edges[i]),
                false => format!("{}–{}", h.edges[i], h.edges[i + 1] - 1),
            };
            (label, count as f64)
        })
        .collect();
    page.push_str(&bar_chart(&BarChart {
        title: "Document length histogram",
        x_label: "tokens per document",
        y_label: "documents",
        bars: &bars,
    }));
    let row = vec![
        l.min.to_string(),
        format!("{:.1}", l.q1),
        format!("{:.1}", l.median),
        format!("{:.1}", l.q3),
        format!("{:.1}", l.p95),
        l.max.to_string(),
        format!("{:.1}", l.mean),
    ];
    let header = ["min", "q1", "median", "q3", "p95", "max", "mean"];
    table(page, &header, &[row]);
}

fn laws(page: &mut String, stats: &CorpusStats) {
    let (z, h) = (&stats.zipf, &stats.heaps);
    let log10 = |v: u64| (v.max(1) as f64).log10();
    let points: Vec<(f64, f64)> = z
        .points
        .iter()
        .map(|&(r, f)| (log10(r), log10(f)))
        .collect();
    let fitted = |rank: f64| (z.intercept - z.exponent * rank.ln()) / std::f64::consts::LN_10;
    let last_rank = z.points.last().map_or(1, |p| p.0) as f64;
    let line = [(0.0, fitted(1.0)), (last_rank.log10(), fitted(last_rank))];
    let _ = writeln!(
        page,
        "<h2>Zipf's law</h2>\n<p>Exponent {:.4}, R² {:.4} (least squares on log frequency against \
         log rank, every rank).</p>",
        z.exponent, z.r_squared
    );
    page.push_str(&line_chart(&LineChart {
        title: "Term frequency by rank (log-log), fitted line dashed",
        x_label: "log10 rank",
        y_label: "log10 frequency",
        points: &points,
        marked: None,
        reference: Some(&line),
    }));
    let growth: Vec<(f64, f64)> = h
        .points
        .iter()
        .map(|&(n, v)| (n as f64, v as f64))
        .collect();
    let fitted: Vec<(f64, f64)> = growth
        .iter()
        .map(|&(n, _)| (n, h.k * n.powf(h.beta)))
        .collect();
    let _ = writeln!(
        page,
        "<h2>Heaps' law</h2>\n<p>K {:.4}, β {:.4}, R² {:.4} (distinct terms = K · terms^β).</p>",
        h.k, h.beta, h.r_squared
    );
    page.push_str(&line_chart(&LineChart {
        title: "Vocabulary growth, fitted curve dashed",
        x_label: "terms read",
        y_label: "distinct terms",
        points: &growth,
        marked: None,
        reference: Some(&fitted),
    }));
}

fn term_rows(terms: &[TermCount]) -> Vec<Vec<String>> {
    terms
        .iter()
        .map(|t| {
            vec![
                escape(&t.term),
                t.count.to_string(),
                t.documents.to_string(),
            ]
        })
        .collect()
}

fn terms(page: &mut String, stats: &CorpusStats) {
    page.push_str("<h2>Most frequent terms</h2>\n");
    table(
        page,
        &["term", "count", "documents"],
        &term_rows(&stats.top_terms),
    );
    if !stats.ngrams.is_empty() {
        page.push_str("<h2>n-grams</h2>\n");
        let rows: Vec<Vec<String>> = stats
            .ngrams
            .iter()
            .map(|g| {
                vec![
                    g.n.to_string(),
                    g.tokens.to_string(),
                    g.distinct.to_string(),
                ]
            })
            .collect();
        table(page, &["n", "occurrences", "distinct"], &rows);
    }
    page.push_str("<h2>Terms per class</h2>\n");
    for (name, c) in &stats.classes {
        let _ = writeln!(
            page,
            "<h3>{}</h3>\n<div class=\"classes\">\n<div>",
            escape(name)
        );
        page.push_str("<p>Most frequent</p>\n");
        table(
            page,
            &["term", "count", "documents"],
            &term_rows(&c.top_terms),
        );
        page.push_str("</div>\n<div>\n<p>Most distinctive (log-odds z-score)</p>\n");
        let rows: Vec<Vec<String>> = c
            .distinctive_terms
            .iter()
            .map(|t| vec![escape(&t.term), format!("{:.2}", t.z), t.count.to_string()])
            .collect();
        table(page, &["term", "z", "count"], &rows);
        page.push_str("</div>\n</div>\n");
    }
}
