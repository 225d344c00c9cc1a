//! A model's figures on a labelled corpus, as `eval` shows them: tables, JSON, and the HTML
//! page with the header that says what was evaluated; a single-label model's classes and a
//! multi-label model's labels alike.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use super::json::json_text;
use super::tuning::chosen_text;
use crate::classifier::{Evaluation, TextClassifier};
use crate::error::Result;
use crate::eval::{
    figures_table, label_width, Curves, MultiLabelMetrics, Reliability, Report, ScoreKind,
};
use crate::model::{Decision, Tuned};
use crate::report::settings::{analysis_flags, weighting_flags};
use crate::report::{eval_report, multilabel_report, EvalPage, Header};

/// What an evaluation found. The `eval` job returns it; it is defined here, below the jobs, so
/// that every front end renders it with the same code.
#[derive(Debug, Clone)]
pub struct Evaluated {
    /// The figures, of classes or of labels.
    pub figures: Figures,
    /// ROC and precision-recall figures and points, when the scores were kept.
    pub curves: Option<Curves>,
    /// The reliability of a single-label model's probabilities, when the scores were kept and
    /// the model gives probabilities.
    pub reliability: Option<Reliability>,
}

/// A single-label model's figures, or a multi-label model's.
#[derive(Debug, Clone)]
pub enum Figures {
    /// Accuracy, per-class figures and the confusion matrix, the labels the model does not
    /// know, and the cost of the decisions under a cost matrix.
    Classes(Evaluation),
    /// Micro, macro and per-document figures, subset accuracy, Hamming loss and per-label
    /// figures.
    Labels(MultiLabelMetrics),
}

/// An evaluation with what it is shown with: the model and how it decided, and the files that
/// the page's header names.
#[derive(Debug, Clone, Copy)]
pub struct EvalView<'a> {
    /// What the evaluation found.
    pub evaluated: &'a Evaluated,
    /// The model evaluated.
    pub classifier: &'a TextClassifier,
    /// How a single-label model decided.
    pub decision: &'a Decision,
    /// The model's file.
    pub model: &'a Path,
    /// The labelled corpus.
    pub corpus: &'a Path,
}

/// `eval --json` of a single-label model: the report plus the labels the model does not know.
#[derive(Serialize)]
struct JsonReport<'a> {
    #[serde(flatten)]
    report: &'a Report,
    /// Documents whose label is not one of the model's classes, by label; not in the figures.
    unknown_labels: &'a BTreeMap<String, u64>,
    /// With a cost matrix: the cost of all decisions, and per document.
    #[serde(skip_serializing_if = "Option::is_none")]
    total_cost: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mean_cost: Option<f64>,
    /// What `train --tune` chose for the model, when it was tuned.
    #[serde(skip_serializing_if = "Option::is_none")]
    tuned: Option<&'a Tuned>,
    /// With --curves: ROC and precision-recall figures and points.
    #[serde(skip_serializing_if = "Option::is_none")]
    curves: Option<&'a Curves>,
    /// With --curves, for a model that gives probabilities: their reliability.
    #[serde(skip_serializing_if = "Option::is_none")]
    reliability: Option<&'a Reliability>,
}

/// `eval --json` of a multi-label model.
#[derive(Serialize)]
struct JsonMetrics<'a> {
    multi_label: bool,
    #[serde(flatten)]
    metrics: &'a MultiLabelMetrics,
    /// With --curves: each label's ROC and precision-recall figures and points, and the micro
    /// figures of every (document, label) pair pooled.
    #[serde(skip_serializing_if = "Option::is_none")]
    curves: Option<&'a Curves>,
}

impl EvalView<'_> {
    /// The figures as tables; with `curves`, the ROC and precision-recall figures too.
    pub fn text(&self, curves: bool) -> String {
        let shown = self.evaluated.curves.as_ref().filter(|_| curves);
        match &self.evaluated.figures {
            Figures::Classes(evaluation) => {
                let mut text = evaluation.report.text();
                if let Some(curves) = shown {
                    text += &curves_text(curves, "class");
                }
                if let Some(t) = self.tuned() {
                    text += &format!("\ntuned: {}\n", chosen_text(t));
                }
                if let (Some(total), Some(mean)) = (evaluation.total_cost, evaluation.mean_cost()) {
                    text += &format!("\ncost: {total} in all, {mean:.4} per document\n");
                }
                text
            }
            Figures::Labels(metrics) => {
                let mut text = labels_text(metrics);
                if let Some(curves) = shown {
                    text += &curves_text(curves, "label");
                }
                text
            }
        }
    }

    /// The figures as JSON; with `curves`, the curves' figures and points and the reliability
    /// of the probabilities too.
    pub fn json(&self, curves: bool) -> Result<String> {
        let evaluated = self.evaluated;
        let shown = evaluated.curves.as_ref().filter(|_| curves);
        match &evaluated.figures {
            Figures::Classes(evaluation) => json_text(&JsonReport {
                report: &evaluation.report,
                unknown_labels: &evaluation.unknown_labels,
                total_cost: evaluation.total_cost,
                mean_cost: evaluation.mean_cost(),
                tuned: self.tuned(),
                curves: shown,
                reliability: evaluated.reliability.as_ref().filter(|_| curves),
            }),
            Figures::Labels(metrics) => json_text(&JsonMetrics {
                multi_label: true,
                metrics,
                curves: shown,
            }),
        }
    }

    /// The self-contained HTML page: the figures and charts under a header that names the
    /// model, the corpus and the settings. The page has every curve that was computed.
    pub fn page(&self) -> String {
        let evaluated = self.evaluated;
        match &evaluated.figures {
            Figures::Classes(evaluation) => {
                let page = EvalPage {
                    report: &evaluation.report,
                    curves: evaluated.curves.as_ref(),
                    reliability: evaluated.reliability.as_ref(),
                };
                eval_report(&page, &self.header(decided(self.decision)))
            }
            Figures::Labels(metrics) => {
                let decided = "every label above its threshold (chosen in training)".to_string();
                multilabel_report(metrics, evaluated.curves.as_ref(), &self.header(decided))
            }
        }
    }

    /// The warning that documents whose labels the model does not know were left out of the
    /// figures, when some were.
    pub fn unknown_labels(&self) -> Option<String> {
        let Figures::Classes(evaluation) = &self.evaluated.figures else {
            return None;
        };
        let unknown = &evaluation.unknown_labels;
        if unknown.is_empty() {
            return None;
        }
        let listed: Vec<String> = unknown.iter().map(|(l, n)| format!("{l} ({n})")).collect();
        Some(format!(
            "warning: documents with labels the model does not know were not scored: {}",
            listed.join(", ")
        ))
    }

    /// What `train --tune` chose for the model, when it was tuned.
    fn tuned(&self) -> Option<&Tuned> {
        self.classifier.model().info.tuned.as_ref()
    }

    /// What the HTML page says it describes: the model, the corpus, the settings.
    fn header(&self, decided: String) -> Header {
        let model = self.classifier.model();
        let mut kind = model.classifier.name().to_string();
        if let Some(svm) = model.classifier.svm() {
            kind += if svm.is_calibrated() {
                ", calibrated"
            } else {
                ", uncalibrated"
            };
        }
        let info = &model.info;
        let vectorizer = &model.vectorizer;
        Header::new("Evaluation report")
            .fact("model", self.model.display().to_string())
            .fact("kind", format!("{kind}, {} classes", model.labels.len()))
            .fact(
                "trained on",
                format!("{} (written {})", info.corpora.join(", "), info.written),
            )
            .fact("corpus", self.corpus.display().to_string())
            .fact("analysis", analysis_flags(vectorizer.analyzer()))
            .fact("weighting", weighting_flags(vectorizer.config()))
            .fact("decision", decided)
    }
}

/// How a single-label model decided, in words.
fn decided(decision: &Decision) -> String {
    match decision {
        Decision::MostProbable => "the most probable class".to_string(),
        Decision::Threshold { at, .. } => format!("a threshold of {at} on the positive class"),
        Decision::Costs(_) => "the least expected cost (--costs)".to_string(),
    }
}

/// A multi-label model's figures as tables.
fn labels_text(m: &MultiLabelMetrics) -> String {
    let mut out = format!(
        "documents {}  labels {}  micro-F1 {:.4}  macro-F1 {:.4}  samples-F1 {:.4}\n\
         subset accuracy {:.4}  Hamming loss {:.6}\n\
         micro precision {:.4}  micro recall {:.4}  macro precision {:.4}  macro recall {:.4}\n\n",
        m.documents,
        m.labels,
        m.micro_f1,
        m.macro_f1,
        m.samples_f1,
        m.subset_accuracy,
        m.hamming_loss,
        m.micro_precision,
        m.micro_recall,
        m.macro_precision,
        m.macro_recall
    );
    let width = label_width(m.per_label.iter().map(|l| l.label.as_str()));
    let rows = m.per_label.iter();
    out += &figures_table(
        "label",
        width,
        rows.map(|l| (l.label.as_str(), l.precision, l.recall, l.f1, l.support)),
    );
    out
}

/// ROC AUC and average precision per class (or label, as `unit` says), their macro means and,
/// for a multi-label model, the micro figures, as a table.
fn curves_text(curves: &Curves, unit: &str) -> String {
    let figure = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.4}"));
    let width = (curves.per_class.iter())
        .map(|c| c.label.len())
        .chain([unit.len(), 5])
        .max()
        .unwrap_or(5);
    let ranked = match curves.score {
        ScoreKind::Probability => "probabilities",
        ScoreKind::DecisionValue => "decision values",
    };
    let against = match curves.micro {
        Some(_) => "against the documents without it",
        None => "against the rest",
    };
    let mut text = format!(
        "\none {unit} {against}, ranked by {ranked}\n{:<width$}  {:>7}  {:>9}  {:>9}\n",
        unit, "ROC AUC", "avg prec.", "positives"
    );
    let mut row = |name: &str, auc: Option<f64>, ap: Option<f64>, positives: Option<u64>| {
        let positives = positives.map_or(String::new(), |p| p.to_string());
        let line = format!(
            "{name:<width$}  {:>7}  {:>9}  {positives:>9}",
            figure(auc),
            figure(ap)
        );
        text += line.trim_end();
        text.push('\n');
    };
    for c in &curves.per_class {
        row(&c.label, c.roc_auc, c.average_precision, Some(c.positives));
    }
    row(
        "macro",
        curves.macro_roc_auc,
        curves.macro_average_precision,
        None,
    );
    if let Some(micro) = &curves.micro {
        row("micro", micro.roc_auc, micro.average_precision, None);
    }
    text
}
