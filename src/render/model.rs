//! A model described: what `inspect` shows of it as text or JSON (its kind and parameters,
//! classes, analysis, weighting, provenance, and the terms that tell each class), what tuning
//! chose, and the one-line summaries of a model that `train`, `merge` and `update` print.

mod describe;

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::vectorized::features;
use crate::analyze::AnalyzerConfig;
use crate::error::Result;
use crate::model::{Model, TermBasis, TrainingInfo};
use crate::vectorize::{FittedVectorizer, Hashing, VectorizerConfig};

/// A model as `inspect` shows it; serialized, the object `inspect --json` prints.
#[derive(Serialize)]
pub(crate) struct Inspection<'a> {
    model: String,
    kind: &'static str,
    /// Each class and its training documents.
    classes: Vec<ClassSize<'a>>,
    /// Terms in the vocabulary (for hashed terms, the columns some document reached), and the
    /// documents it was fitted on.
    terms: usize,
    documents: u32,
    /// How terms are hashed to columns, for a model trained with `--hash-bits`.
    #[serde(skip_serializing_if = "Option::is_none")]
    hashing: Option<Hashing>,
    /// The factor on word n-grams' values (`--ngram-weight`).
    ngram_weight: f64,
    analysis: &'a AnalyzerConfig,
    vectorizer: &'a VectorizerConfig,
    /// The classifier's own parameters.
    classifier: Value,
    /// Corpora, documents per class, version, date, and what `train --tune` chose.
    training: &'a TrainingInfo,
    top_terms: TopTerms<'a>,
    /// The classifier's kind and parameters in words, for the text.
    #[serde(skip)]
    kind_words: String,
}

#[derive(Serialize)]
struct ClassSize<'a> {
    label: &'a str,
    training_documents: u64,
}

#[derive(Serialize)]
struct TopTerms<'a> {
    ranked_by: TermBasis,
    meaning: &'static str,
    classes: Vec<ClassTop<'a>>,
}

#[derive(Serialize)]
struct ClassTop<'a> {
    label: &'a str,
    terms: Vec<TermValue>,
}

#[derive(Serialize)]
struct TermValue {
    /// The term, or for hashed terms its column, `#COLUMN`.
    term: String,
    value: f64,
}

impl<'a> Inspection<'a> {
    /// `model`, read from the file at `path`, with the `top` terms of each class.
    pub(crate) fn new(path: &Path, model: &'a Model, top: usize) -> Self {
        let vectorizer = &model.vectorizer;
        let docs = &model.info.docs_per_class;
        let description = model.classifier.describe();
        Inspection {
            model: path.display().to_string(),
            kind: model.classifier.name(),
            classes: (model.labels.iter().enumerate())
                .map(|(c, label)| ClassSize {
                    label,
                    training_documents: docs.get(c).copied().unwrap_or(0),
                })
                .collect(),
            terms: match vectorizer.hashing() {
                Some(_) => reached_columns(vectorizer),
                None => vectorizer.terms().len(),
            },
            documents: vectorizer.n_docs(),
            hashing: vectorizer.hashing(),
            ngram_weight: vectorizer.config().ngram_weight,
            analysis: vectorizer.analyzer(),
            vectorizer: vectorizer.config(),
            classifier: description.parameters,
            training: &model.info,
            top_terms: top_terms(model, top),
            kind_words: description.words,
        }
    }

    /// As indented JSON with `schema_version` first, and a final newline.
    pub(crate) fn json(&self) -> Result<String> {
        super::json::json_text(self)
    }

    /// As aligned text: a line per part of the model, then each class's top terms.
    pub(crate) fn text(&self) -> String {
        let i = self;
        let mut out = String::new();
        let mut line = |name: &str, value: String| {
            let _ = writeln!(out, "{name:<12}{value}");
        };
        line("model", i.model.clone());
        line("kind", format!("{}: {}", i.kind, i.kind_words));
        let sizes: Vec<String> = (i.classes.iter())
            .map(|c| format!("{} ({})", c.label, c.training_documents))
            .collect();
        line(
            "classes",
            format!(
                "{}, with their training documents: {}",
                sizes.len(),
                sizes.join(", ")
            ),
        );
        line("vocabulary", i.vocabulary_text());
        line("analysis", describe::analysis_text(i.analysis));
        line("weighting", describe::weighting_text(i.vectorizer));
        let t = i.training;
        line(
            "trained on",
            format!(
                "{} (bowline {}, written {})",
                t.corpora.join(", "),
                t.bowline_version,
                t.written
            ),
        );
        line(
            "tuned",
            t.tuned
                .as_ref()
                .map_or("no".into(), crate::render::chosen_text),
        );
        let top = &i.top_terms;
        let _ = writeln!(out, "\nTop terms of each class, by {}:", top.meaning);
        let all = top.classes.iter().flat_map(|c| &c.terms);
        let width = all.map(|t| t.term.chars().count()).max().unwrap_or(0);
        for class in &top.classes {
            let _ = writeln!(out, "{}", class.label);
            for term in &class.terms {
                let _ = writeln!(out, "  {:<width$}  {:>9.4}", term.term, term.value);
            }
        }
        out
    }

    /// The vocabulary in words: its terms, or how terms are hashed to columns.
    fn vocabulary_text(&self) -> String {
        match self.hashing {
            Some(h) => format!(
                "none: terms hashed (MurmurHash3) to 2^{} columns, {}; {} columns reached by {} \
                 documents; top terms are columns (#COLUMN)",
                h.bits(),
                if h.signed() { "signed" } else { "unsigned" },
                self.terms,
                self.documents
            ),
            None => format!("{} terms from {} documents", self.terms, self.documents),
        }
    }
}

/// Each class's `top` terms, by the measure the model's kind offers.
fn top_terms(model: &Model, top: usize) -> TopTerms<'_> {
    let vectorizer = &model.vectorizer;
    let terms = vectorizer.terms();
    let ranked = model.classifier.top_terms(top);
    TopTerms {
        ranked_by: ranked.basis,
        meaning: ranked.basis.describe(),
        classes: (model.labels.iter().zip(&ranked.classes))
            .map(|(label, kept)| ClassTop {
                label,
                terms: (kept.iter())
                    .map(|&(j, value)| TermValue {
                        term: match vectorizer.hashing() {
                            Some(_) => format!("#{}", vectorizer.outer_column(j)),
                            None => terms[j as usize].to_string(),
                        },
                        value,
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The columns of a hashed vocabulary that some training document reached.
fn reached_columns(vectorizer: &FittedVectorizer) -> usize {
    vectorizer.df().iter().filter(|&&d| d > 0).count()
}

/// What `merge` says of the model it wrote at `output` from `models` models.
pub fn merged(models: usize, model: &Model, output: &Path) -> String {
    format!(
        "merged {models} {} models: {} documents, {} classes, {} -> {}",
        model.classifier.name(),
        model.vectorizer.n_docs(),
        model.labels.len(),
        features(&model.vectorizer),
        output.display()
    )
}

/// What `update` says of the model it wrote at `target` after learning `documents` more.
pub fn updated(documents: usize, model: &Model, target: &Path) -> String {
    format!(
        "updated with {documents} documents: {} classes, {} -> {}",
        model.labels.len(),
        features(&model.vectorizer),
        target.display()
    )
}
