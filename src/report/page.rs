//! The frame of an HTML report: its style, a header saying what the page describes and who
//! wrote it when, and tables. Pages have no scripts, fonts, images or links, so they open
//! offline and anywhere.

use std::fmt::Write;

use super::chart::escape;

const STYLE: &str = "body{font-family:sans-serif;margin:2em auto;max-width:64em;padding:0 1em;\
color:#222}table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{padding:2px 10px;\
text-align:right;border-bottom:1px solid #eee;font-variant-numeric:tabular-nums}\
td:first-child,th:first-child{text-align:left}table.facts td{text-align:left}\
table.facts td:first-child{color:#666}svg{display:block;margin:1em 0;max-width:100%;\
height:auto}.classes{display:flex;flex-wrap:wrap;gap:2em}.note{color:#555}";

/// What a report describes, shown at its top: a title and named facts (the corpus, the
/// settings, the model), to which the page adds the bowline version and the date.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Header {
    /// The page's title.
    pub title: String,
    /// (name, value) pairs, in order.
    pub facts: Vec<(String, String)>,
}

impl Header {
    /// A header with `title` and no facts yet.
    pub(crate) fn new(title: &str) -> Self {
        Header {
            title: title.to_string(),
            facts: Vec::new(),
        }
    }

    /// Adds a fact.
    pub(crate) fn fact(mut self, name: &str, value: impl Into<String>) -> Self {
        self.facts.push((name.to_string(), value.into()));
        self
    }
}

/// Opens a page with its header.
pub fn open(header: &Header) -> String {
    let title = escape(&header.title);
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n\
         <table class=\"facts\">\n"
    );
    let written = crate::model::utc_now();
    let date = written.split('T').next().unwrap_or(&written);
    let version = format!("{} (written {date})", env!("CARGO_PKG_VERSION"));
    let facts = header.facts.iter().map(|(n, v)| (n.as_str(), v.as_str()));
    for (name, value) in facts.chain([("bowline", version.as_str())]) {
        let _ = writeln!(
            page,
            "<tr><td>{}</td><td>{}</td></tr>",
            escape(name),
            escape(value)
        );
    }
    page.push_str("</table>\n");
    page
}

/// Ends a page.
pub fn close(page: &mut String) {
    page.push_str("</body>\n</html>\n");
}

/// A table from a header row and body rows of already escaped cells.
pub fn table(page: &mut String, header: &[&str], rows: &[Vec<String>]) {
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
