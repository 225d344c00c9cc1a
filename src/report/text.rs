//! [`CorpusStats`] as aligned tables for a terminal.

use std::fmt::Write;

use super::stats::CorpusStats;

/// Terms shown per class in the text report; JSON and HTML show them all.
const TERMS_PER_CLASS: usize = 10;

/// Renders every section of the report as plain text.
pub(crate) fn text_report(stats: &CorpusStats) -> String {
    let mut out = String::new();
    totals(&mut out, stats);
    classes(&mut out, stats);
    lengths(&mut out, stats);
    laws(&mut out, stats);
    top_terms(&mut out, stats);
    ngrams(&mut out, stats);
    distinctive(&mut out, stats);
    out
}

/// Rows of cells with the first column left-aligned and the others right-aligned.
fn table(out: &mut String, rows: &[Vec<String>]) {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for row in rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            if c == 0 {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str("  ");
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out.push('\n');
}

fn row(cells: &[&dyn std::fmt::Display]) -> Vec<String> {
    cells.iter().map(|c| c.to_string()).collect()
}

fn totals(out: &mut String, stats: &CorpusStats) {
    let _ = writeln!(out, "Totals");
    let rows: Vec<Vec<String>> = stats
        .totals
        .figures()
        .into_iter()
        .map(|(name, value)| vec![name.to_string(), value])
        .collect();
    table(out, &rows);
}

fn classes(out: &mut String, stats: &CorpusStats) {
    let _ = writeln!(out, "Classes");
    let mut rows = vec![row(&[
        &"class",
        &"docs",
        &"share",
        &"tokens",
        &"mean length",
        &"median length",
    ])];
    for (name, c) in &stats.classes {
        rows.push(row(&[
            name,
            &c.documents,
            &format!("{:.1}%", 100.0 * c.share),
            &c.tokens,
            &format!("{:.1}", c.mean_length),
            &format!("{:.1}", c.median_length),
        ]));
    }
    table(out, &rows);
}

fn lengths(out: &mut String, stats: &CorpusStats) {
    let l = &stats.lengths;
    let _ = writeln!(out, "Document length (tokens)");
    let rows = [
        row(&[&"min", &"q1", &"median", &"q3", &"p95", &"max", &"mean"]),
        row(&[
            &l.min,
            &format!("{:.1}", l.q1),
            &format!("{:.1}", l.median),
            &format!("{:.1}", l.q3),
            &format!("{:.1}", l.p95),
            &l.max,
            &format!("{:.1}", l.mean),
        ]),
    ];
    table(out, &rows);
    let h = &l.histogram;
    let most = h.counts.iter().copied().max().unwrap_or(0).max(1);
    let mut rows = Vec::new();
    for (i, &count) in h.counts.iter().enumerate() {
        let bin = if i + 1 == h.counts.len() {
            format!("{}+", h.edges[i])
        } else {
            format!("{}-{}", h.edges[i], h.edges[i + 1] - 1)
        };
        rows.push((bin, count));
    }
    let width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let digits = most.to_string().len();
    for (bin, count) in rows {
        let bar = "#".repeat((40 * count).div_ceil(most) as usize);
        let _ = writeln!(out, "{bin:>width$}  {count:>digits$}  {bar}");
    }
    out.push('\n');
}

fn laws(out: &mut String, stats: &CorpusStats) {
    let (z, h) = (&stats.zipf, &stats.heaps);
    let _ = writeln!(out, "Laws");
    let rows = [
        row(&[
            &"Zipf exponent",
            &format!("{:.4}", z.exponent),
            &"R²",
            &format!("{:.4}", z.r_squared),
        ]),
        row(&[
            &"Heaps K",
            &format!("{:.4}", h.k),
            &"R²",
            &format!("{:.4}", h.r_squared),
        ]),
        row(&[&"Heaps β", &format!("{:.4}", h.beta), &"", &""]),
    ];
    table(out, &rows);
}

fn top_terms(out: &mut String, stats: &CorpusStats) {
    let _ = writeln!(out, "Most frequent terms");
    let mut rows = vec![row(&[&"term", &"count", &"documents"])];
    for t in &stats.top_terms {
        rows.push(row(&[&t.term, &t.count, &t.documents]));
    }
    table(out, &rows);
}

fn ngrams(out: &mut String, stats: &CorpusStats) {
    if stats.ngrams.is_empty() {
        return;
    }
    let _ = writeln!(out, "n-grams");
    let mut rows = vec![row(&[&"n", &"occurrences", &"distinct"])];
    for g in &stats.ngrams {
        rows.push(row(&[&g.n, &g.tokens, &g.distinct]));
    }
    table(out, &rows);
}

fn distinctive(out: &mut String, stats: &CorpusStats) {
    let _ = writeln!(out, "Most distinctive terms per class (log-odds z-score)");
    let mut rows = Vec::new();
    for (name, c) in &stats.classes {
        let terms: Vec<&str> = c
            .distinctive_terms
            .iter()
            .take(TERMS_PER_CLASS)
            .map(|t| t.term.as_str())
            .collect();
        rows.push(vec![name.clone(), terms.join(" ")]);
    }
    // The term lists are left-aligned: they are words, not figures.
    let width = rows.iter().map(|r| r[0].chars().count()).max().unwrap_or(0);
    for r in &rows {
        let _ = writeln!(out, "{:width$}  {}", r[0], r[1]);
    }
}
