//! [`CorpusStats`] as one self-contained HTML page: a header naming the corpus, the analysis,
//! the bowline version and the date, then inline SVG charts and tables.

use std::fmt::Write;

use super::chart::{bar_chart, count, escape, line_chart, Axis, BarChart, Bars, LineChart, Series};
use super::page::{self, table, Header};
use super::settings::analysis_flags;
use super::stats::{CorpusStats, TermCount};

/// Renders the whole report under `header` (its title and what the caller knows: the corpus),
/// to which the analysis is added.
pub(crate) fn html_report(stats: &CorpusStats, header: &Header) -> String {
    let header = header
        .clone()
        .fact("analysis", analysis_flags(&stats.analysis));
    let mut page = page::open(&header);
    totals(&mut page, stats);
    classes(&mut page, stats);
    lengths(&mut page, stats);
    laws(&mut page, stats);
    terms(&mut page, stats);
    page::close(&mut page);
    page
}

/// A figure for a table: whole numbers with their thousands separated.
fn figure(value: &str) -> String {
    value.parse::<u64>().map_or_else(|_| escape(value), count)
}

fn totals(page: &mut String, stats: &CorpusStats) {
    page.push_str("<h2>Totals</h2>\n");
    let rows: Vec<Vec<String>> = stats
        .totals
        .figures()
        .into_iter()
        .map(|(name, value)| vec![name.to_string(), figure(&value)])
        .collect();
    table(page, &["figure", "value"], &rows);
}

fn classes(page: &mut String, stats: &CorpusStats) {
    page.push_str("<h2>Class balance</h2>\n");
    let names: Vec<String> = stats.classes.keys().cloned().collect();
    let documents: Vec<f64> = stats.classes.values().map(|c| c.documents as f64).collect();
    page.push_str(&bar_chart(&BarChart {
        title: "Documents per class",
        x_label: "class",
        y: Axis::linear("documents"),
        categories: &names,
        series: &[Bars {
            name: "documents",
            values: &documents,
        }],
    }));
    let rows: Vec<Vec<String>> = stats
        .classes
        .iter()
        .map(|(name, c)| {
            vec![
                escape(name),
                count(c.documents),
                format!("{:.1}%", 100.0 * c.share),
                count(c.tokens),
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
    let bins: Vec<String> = (0..h.counts.len())
        .map(|i| match h.counts.len() == i + 1 {
            true => format!("{}+", count(h.edges[i])),
            false => format!("{}–{}", count(h.edges[i]), count(h.edges[i + 1] - 1)),
        })
        .collect();
    let documents: Vec<f64> = h.counts.iter().map(|&c| c as f64).collect();
    page.push_str(&bar_chart(&BarChart {
        title: "Document length histogram",
        x_label: "tokens per document",
        y: Axis::linear("documents"),
        categories: &bins,
        series: &[Bars {
            name: "documents",
            values: &documents,
        }],
    }));
    let row = vec![
        count(l.min),
        format!("{:.1}", l.q1),
        format!("{:.1}", l.median),
        format!("{:.1}", l.q3),
        format!("{:.1}", l.p95),
        count(l.max),
        format!("{:.1}", l.mean),
    ];
    let header = ["min", "q1", "median", "q3", "p95", "max", "mean"];
    table(page, &header, &[row]);
}

fn laws(page: &mut String, stats: &CorpusStats) {
    let (z, h) = (&stats.zipf, &stats.heaps);
    let observed: Vec<(f64, f64)> = z
        .points
        .iter()
        .map(|&(r, f)| (r as f64, f as f64))
        .collect();
    // A power law is a straight line on log axes: its two ends draw it.
    let fitted = |rank: f64| (z.intercept - z.exponent * rank.ln()).exp();
    let last_rank = z.points.last().map_or(1, |p| p.0).max(2) as f64;
    let line = [(1.0, fitted(1.0)), (last_rank, fitted(last_rank))];
    let _ = writeln!(
        page,
        "<h2>Zipf's law</h2>\n<p>Exponent {:.4}, R² {:.4} (least squares on log frequency against \
         log rank, every rank).</p>",
        z.exponent, z.r_squared
    );
    let law = format!("fitted: frequency ∝ rank^−{:.2}", z.exponent);
    page.push_str(&line_chart(&LineChart {
        title: "Term frequency by rank",
        x: Axis::log("rank"),
        y: Axis::log("frequency"),
        series: &[
            Series::line("terms", &observed),
            Series::dashed(&law, &line, "#d62728"),
        ],
        marked: None,
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
    let law = format!("fitted: {:.2} · terms^{:.3}", h.k, h.beta);
    page.push_str(&line_chart(&LineChart {
        title: "Vocabulary growth",
        x: Axis::linear("terms read"),
        y: Axis::linear("distinct terms"),
        series: &[
            Series::line("distinct terms", &growth),
            Series::dashed(&law, &fitted, "#d62728"),
        ],
        marked: None,
    }));
}

fn term_rows(terms: &[TermCount]) -> Vec<Vec<String>> {
    terms
        .iter()
        .map(|t| vec![escape(&t.term), count(t.count), count(t.documents)])
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
            .map(|g| vec![g.n.to_string(), count(g.tokens), count(g.distinct)])
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
            .map(|t| vec![escape(&t.term), format!("{:.2}", t.z), count(t.count)])
            .collect();
        table(page, &["term", "z", "count"], &rows);
        page.push_str("</div>\n</div>\n");
    }
}
