//! One document's result: its class (or label set) and values, as a TSV line, a JSON line, or
//! the JSON object a `serve` answer holds. `classify` and `serve` both build [`JsonPrediction`], so
//! the same text gets the same JSON from either.

use std::io::Write;

use serde::Serialize;

use super::json::json_line;
use crate::choice::Choice;
use crate::classifier::{Explanation, ScoredLabel};
use crate::error::{Error, Result};

/// The layout of `classify`'s output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineFormat {
    /// `id<TAB>label<TAB>probability`, and with explanations a fourth column.
    Tsv,
    /// One JSON object per line.
    Jsonl,
}

impl Choice for LineFormat {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        (
            "tsv",
            "`id<TAB>label<TAB>probability` (for an uncalibrated SVM, a score: a softmax of its \
             decision values, which ranks classes but is no probability), and with --explain a \
             fourth column, `score S: bias B, TERM +C, ..., other terms +R`",
            LineFormat::Tsv,
        ),
        (
            "jsonl",
            "`{\"schema_version\", \"id\", \"label\", \"probability\", \"scores\": [{\"label\", \
             \"probability\"}]}` per line (\"score\" instead of \"probability\" for an uncalibrated \
             SVM), classes in rank order, and with --explain `\"explanations\": [{\"label\", \
             \"score\", \"bias\", \"terms\": [{\"term\", \"contribution\"}], \"other_terms\"}]`; \
             `{\"schema_version\", \"id\", \"error\"}` for input that could not be read",
            LineFormat::Jsonl,
        ),
    ];
}

/// What was decided for one entry, ready to be written.
#[derive(Debug)]
pub(crate) enum Decided<'a> {
    /// A class, by index, with its explanation when one was asked for.
    Class {
        /// The class decided.
        best: usize,
        /// Its explanation.
        explanation: Option<Explanation>,
    },
    /// A multi-label model's labels, by index, each with its explanation when asked for.
    Labels {
        /// The labels given, in label order.
        chosen: Vec<usize>,
        /// Their explanations, in the same order.
        explanations: Option<Vec<Explanation>>,
    },
    /// The entry could not be read.
    Failed(&'a Error),
    /// The entry was skipped for another reason (a binary file): nothing is written.
    Nothing,
}

/// One class and its value, in the ranking of a result: a probability, or an uncalibrated
/// SVM's score.
#[derive(Debug, Serialize)]
pub(crate) struct Ranked<'a> {
    label: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    probability: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
}

/// One document's result as JSON: the chosen class and its value, and the top classes in rank
/// order. The values are called probabilities, or scores for an uncalibrated SVM. The fields
/// after `scores` are set by the front end that has them: `serve` gives a multi-label model's
/// `labels` and one `explanation`, `classify` the `explanations` of the classes it gave.
#[derive(Debug, Serialize)]
pub struct JsonPrediction<'a> {
    /// The document's id, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<&'a str>,
    /// The class given, or none (`null`) when its value is below a threshold.
    pub label: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    probability: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    scores: Vec<Ranked<'a>>,
    /// For a multi-label model: every label above its threshold, with its score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub labels: Option<Vec<ScoredLabel>>,
    /// The explanation of the class given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<Explanation>,
    /// The explanation of each class given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanations: Option<Vec<Explanation>>,
}

impl<'a> JsonPrediction<'a> {
    /// The result that gives class `best` of `labels`, with the `top` classes by `values`
    /// (probabilities, or scores when not `probabilistic`), ties in class order.
    pub fn new(
        id: Option<&'a str>,
        labels: &'a [String],
        values: &[f64],
        best: usize,
        (top, probabilistic): (usize, bool),
    ) -> Self {
        let mut ranked: Vec<usize> = (0..values.len()).collect();
        ranked.sort_by(|&a, &b| values[b].total_cmp(&values[a]));
        ranked.truncate(top);
        let scores = ranked
            .iter()
            .map(|&c| {
                let (probability, score) = named(values[c], probabilistic);
                Ranked {
                    label: &labels[c],
                    probability,
                    score,
                }
            })
            .collect();
        let (probability, score) = named(values[best], probabilistic);
        JsonPrediction {
            id,
            label: Some(&labels[best]),
            probability,
            score,
            scores,
            labels: None,
            explanation: None,
            explanations: None,
        }
    }
}

/// `value` as a probability or as a score.
fn named(value: f64, probabilistic: bool) -> (Option<f64>, Option<f64>) {
    if probabilistic {
        (Some(value), None)
    } else {
        (None, Some(value))
    }
}

/// Writes one result line per entry, reusing one buffer.
#[derive(Debug)]
pub(crate) struct PredictionWriter {
    labels: Vec<String>,
    format: LineFormat,
    top: usize,
    /// Whether the values are probabilities in earnest, or an uncalibrated SVM's scores.
    probabilistic: bool,
    line: Vec<u8>,
}

impl PredictionWriter {
    /// A writer of results over `labels` in `format`, ranking the `top` classes in JSON.
    pub(crate) fn new(
        labels: &[String],
        format: LineFormat,
        top: usize,
        probabilistic: bool,
    ) -> Self {
        PredictionWriter {
            labels: labels.to_vec(),
            format,
            top,
            probabilistic,
            line: Vec::new(),
        }
    }

    /// The result line for the entry `id`, given what was `decided` and the class `values`:
    /// its class, or in JSON the reason it has none (nothing for an entry skipped for another
    /// reason).
    pub(crate) fn line(&mut self, id: &str, decided: Decided, values: &[f64]) -> Result<&[u8]> {
        self.line.clear();
        let json = self.format == LineFormat::Jsonl;
        match decided {
            Decided::Class { best, explanation } if json => {
                let shape = (self.top, self.probabilistic);
                let mut prediction =
                    JsonPrediction::new(Some(id), &self.labels, values, best, shape);
                prediction.explanations = explanation.map(|e| vec![e]);
                json_line(&mut self.line, &prediction)?;
            }
            Decided::Class { best, explanation } => {
                let (label, value) = (&self.labels[best], values[best]);
                let id = escaped(id);
                write!(self.line, "{id}\t{label}\t{value:.6}").map_err(|e| Error::io("-", e))?;
                if let Some(explanation) = explanation {
                    let column = escaped(&explained(&explanation));
                    write!(self.line, "\t{column}").map_err(|e| Error::io("-", e))?;
                }
                self.line.push(b'\n');
            }
            Decided::Labels {
                chosen,
                explanations,
            } => {
                let labels = &self.labels;
                let given = chosen.iter().map(|&c| (labels[c].as_str(), values[c]));
                label_set_line(&mut self.line, id, given, explanations, json)?;
            }
            Decided::Failed(error) if json => {
                let failure = Failure {
                    id: failed_id(id, error),
                    error: error.to_string(),
                };
                json_line(&mut self.line, &failure)?;
            }
            Decided::Failed(_) | Decided::Nothing => {}
        }
        Ok(&self.line)
    }
}

/// One document's labels: TSV `id<TAB>labels<TAB>scores`, each list joined by commas, or a JSON
/// line `{"schema_version", "id", "labels": [{"label", "score"}]}`. With explanations, each
/// given label's follows: in TSV a fourth column of them joined by ` | `, in JSON an
/// `explanations` array.
fn label_set_line<'a>(
    line: &mut Vec<u8>,
    id: &str,
    given: impl Iterator<Item = (&'a str, f64)>,
    explanations: Option<Vec<Explanation>>,
    json: bool,
) -> Result<()> {
    let given: Vec<Given> = given.map(|(label, score)| Given { label, score }).collect();
    if json {
        let labels = JsonLabels {
            id,
            labels: given,
            explanations,
        };
        return json_line(line, &labels);
    }
    let labels: Vec<&str> = given.iter().map(|g| g.label).collect();
    let scores: Vec<String> = given.iter().map(|g| format!("{:.6}", g.score)).collect();
    let id = escaped(id);
    write!(line, "{id}\t{}\t{}", labels.join(","), scores.join(","))
        .map_err(|e| Error::io("-", e))?;
    if let Some(explanations) = explanations {
        let columns: Vec<String> = explanations
            .iter()
            .map(|e| format!("{}: {}", e.label, explained(e)))
            .collect();
        write!(line, "\t{}", escaped(&columns.join(" | "))).map_err(|e| Error::io("-", e))?;
    }
    line.push(b'\n');
    Ok(())
}

#[derive(Serialize)]
struct JsonLabels<'a> {
    id: &'a str,
    labels: Vec<Given<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    explanations: Option<Vec<Explanation>>,
}

#[derive(Serialize)]
struct Given<'a> {
    label: &'a str,
    score: f64,
}

#[derive(Serialize)]
struct Failure {
    id: String,
    error: String,
}

/// Tabs and newlines in a column would break the line; they are escaped.
fn escaped(text: &str) -> String {
    text.replace('\t', "\\t").replace('\n', "\\n")
}

/// An explanation as one readable column: `score S: bias B, TERM +C, ..., other terms +R`, whose
/// parts add up to the score. Every figure has the same decimals, four or more, enough to show
/// four significant digits of the largest (complement NB's scores are small fractions).
pub fn explained(explanation: &Explanation) -> String {
    let contributions = explanation.terms.iter().map(|t| t.contribution);
    let figures = [explanation.score, explanation.bias, explanation.other_terms];
    let largest = (contributions.clone().chain(figures))
        .map(f64::abs)
        .fold(0.0, f64::max);
    let decimals = if largest > 0.0 {
        (3 - largest.log10().floor() as i64).clamp(4, 12) as usize
    } else {
        4
    };
    let mut column = format!(
        "score {:.decimals$}: bias {:+.decimals$}",
        explanation.score, explanation.bias
    );
    for term in &explanation.terms {
        column += &format!(", {} {:+.decimals$}", term.term, term.contribution);
    }
    column + &format!(", other terms {:+.decimals$}", explanation.other_terms)
}

/// The id of an entry that failed: for a line error, the line number, as the line's id would
/// have been; otherwise the entry's id (a file path).
fn failed_id(id: &str, error: &Error) -> String {
    match error {
        Error::Line { line, .. } => line.to_string(),
        _ => id.to_string(),
    }
}
