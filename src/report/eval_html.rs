//! An evaluation as one self-contained HTML page: the figures, a confusion-matrix heatmap,
//! per-class precision, recall and F1, ROC and precision-recall curves, and a reliability
//! diagram of the probabilities.

use std::fmt::Write;

use super::chart::{
    bar_chart, count, escape, heatmap, line_chart, Axis, BarChart, Bars, Heatmap, LineChart, Series,
};
use super::page::{self, table, Header};
use crate::eval::{ClassCurves, Curves, MultiLabelMetrics, Reliability, Report, ScoreKind};

/// What an evaluation page shows.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EvalPage<'a> {
    /// Accuracy, per-class figures and the confusion matrix.
    pub report: &'a Report,
    /// ROC and precision-recall curves, when the scores were kept.
    pub curves: Option<&'a Curves>,
    /// The reliability of the probabilities, when the model gives probabilities.
    pub reliability: Option<&'a Reliability>,
}

/// One class's (or one label's) figures, a row of the per-class chart and table.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ClassRow<'a> {
    /// The class.
    pub label: &'a str,
    /// Precision.
    pub precision: f64,
    /// Recall.
    pub recall: f64,
    /// F1.
    pub f1: f64,
    /// Documents of the class.
    pub support: u64,
    /// ROC AUC, one against the rest, when computed and defined.
    pub roc_auc: Option<f64>,
    /// Average precision, when computed and defined.
    pub average_precision: Option<f64>,
}

impl<'a> ClassRow<'a> {
    /// The rows of a single-label evaluation, with the curves' figures when there are curves.
    pub(crate) fn of(report: &'a Report, curves: Option<&Curves>) -> Vec<ClassRow<'a>> {
        report
            .per_class
            .iter()
            .enumerate()
            .map(|(c, m)| {
                let curve = curves.and_then(|k| k.per_class.get(c));
                ClassRow {
                    label: &m.label,
                    precision: m.precision,
                    recall: m.recall,
                    f1: m.f1,
                    support: m.support,
                    roc_auc: curve.and_then(|k| k.roc_auc),
                    average_precision: curve.and_then(|k| k.average_precision),
                }
            })
            .collect()
    }
}

/// Renders the page under `header` (the model, the corpus, the settings).
pub(crate) fn eval_report(eval: &EvalPage, header: &Header) -> String {
    let mut page = page::open(header);
    summary(&mut page, eval);
    confusion(&mut page, eval.report);
    per_class_section(
        &mut page,
        "Per class",
        &ClassRow::of(eval.report, eval.curves),
    );
    if let Some(curves) = eval.curves {
        curve_charts(&mut page, curves);
    }
    reliability(&mut page, eval);
    page::close(&mut page);
    page
}

/// Renders a multi-label evaluation under `header`: the averaged figures, then each label's
/// precision, recall and F1, and with `curves` each label's ROC AUC and average precision and
/// the curves.
pub(crate) fn multilabel_report(
    metrics: &MultiLabelMetrics,
    curves: Option<&Curves>,
    header: &Header,
) -> String {
    let mut page = page::open(header);
    page.push_str("<h2>Figures</h2>\n");
    let figure = |name: &str, value: f64| vec![name.to_string(), format!("{value:.4}")];
    let mut rows = vec![
        vec!["documents".to_string(), count(metrics.documents)],
        vec!["labels".to_string(), count(metrics.labels)],
        figure("micro-F1", metrics.micro_f1),
        figure("macro-F1", metrics.macro_f1),
        figure("per-document (samples) F1", metrics.samples_f1),
        figure("subset accuracy", metrics.subset_accuracy),
        vec![
            "Hamming loss".to_string(),
            format!("{:.6}", metrics.hamming_loss),
        ],
    ];
    if let Some(c) = curves {
        let micro = c.micro.as_ref();
        rows.extend([
            vec!["macro ROC AUC".into(), optional(c.macro_roc_auc)],
            vec![
                "macro average precision".into(),
                optional(c.macro_average_precision),
            ],
            vec![
                "micro ROC AUC".into(),
                optional(micro.and_then(|m| m.roc_auc)),
            ],
            vec![
                "micro average precision".into(),
                optional(micro.and_then(|m| m.average_precision)),
            ],
        ]);
    }
    table(&mut page, &["figure", "value"], &rows);
    let of_label = |label: &str| curves.and_then(|k| k.per_class.iter().find(|c| c.label == label));
    let rows: Vec<ClassRow> = metrics
        .per_label
        .iter()
        .map(|l| ClassRow {
            label: &l.label,
            precision: l.precision,
            recall: l.recall,
            f1: l.f1,
            support: l.support,
            roc_auc: of_label(&l.label).and_then(|c| c.roc_auc),
            average_precision: of_label(&l.label).and_then(|c| c.average_precision),
        })
        .collect();
    per_class_section(&mut page, "Per label", &rows);
    if let Some(curves) = curves {
        label_curve_charts(&mut page, curves);
    }
    page::close(&mut page);
    page
}

fn optional(value: Option<f64>) -> String {
    value.map_or("–".to_string(), |v| format!("{v:.4}"))
}

fn summary(page: &mut String, eval: &EvalPage) {
    let r = eval.report;
    page.push_str("<h2>Figures</h2>\n");
    let mut rows = vec![
        vec!["documents".to_string(), count(r.docs)],
        vec!["accuracy".to_string(), format!("{:.4}", r.accuracy)],
        vec!["macro-F1".to_string(), format!("{:.4}", r.macro_f1)],
        vec!["micro-F1".to_string(), format!("{:.4}", r.micro_f1)],
    ];
    if let Some(c) = eval.curves {
        rows.push(vec!["macro ROC AUC".into(), optional(c.macro_roc_auc)]);
        let ap = optional(c.macro_average_precision);
        rows.push(vec!["macro average precision".into(), ap]);
    }
    if let Some(rel) = eval.reliability {
        let ece = format!("{:.4}", rel.expected_calibration_error);
        rows.push(vec!["expected calibration error".into(), ece]);
    }
    table(page, &["figure", "value"], &rows);
}

fn confusion(page: &mut String, report: &Report) {
    page.push_str("<h2>Confusion matrix</h2>\n");
    page.push_str(
        "<p class=\"note\">Rows are true classes, columns predicted ones; a cell's shade is its \
         share of the row (its class's documents).</p>\n",
    );
    page.push_str(&heatmap(&Heatmap {
        title: "Confusion matrix",
        x_label: "predicted class",
        y_label: "true class",
        labels: &report.confusion.labels,
        counts: &report.confusion.matrix,
    }));
}

/// Per-class (or per-label) precision, recall and F1 as grouped bars, and a table of every
/// figure of `rows`, under the heading `title`.
pub(crate) fn per_class_section(page: &mut String, title: &str, rows: &[ClassRow]) {
    let _ = writeln!(page, "<h2>{}</h2>", escape(title));
    let labels: Vec<String> = rows.iter().map(|r| r.label.to_string()).collect();
    let column = |f: fn(&ClassRow) -> f64| rows.iter().map(f).collect::<Vec<f64>>();
    let (p, r, f1) = (
        column(|r| r.precision),
        column(|r| r.recall),
        column(|r| r.f1),
    );
    page.push_str(&bar_chart(&BarChart {
        title: "Precision, recall and F1",
        x_label: "class",
        y: Axis::fixed("score", 0.0, 1.0),
        categories: &labels,
        series: &[
            Bars {
                name: "precision",
                values: &p,
            },
            Bars {
                name: "recall",
                values: &r,
            },
            Bars {
                name: "F1",
                values: &f1,
            },
        ],
    }));
    let curves = rows
        .iter()
        .any(|r| r.roc_auc.is_some() || r.average_precision.is_some());
    let mut header = vec!["class", "precision", "recall", "F1", "support"];
    if curves {
        header.extend(["ROC AUC", "average precision"]);
    }
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut row = vec![
                escape(r.label),
                format!("{:.4}", r.precision),
                format!("{:.4}", r.recall),
                format!("{:.4}", r.f1),
                count(r.support),
            ];
            if curves {
                row.extend([optional(r.roc_auc), optional(r.average_precision)]);
            }
            row
        })
        .collect();
    table(page, &header, &body);
}

fn curve_charts(page: &mut String, curves: &Curves) {
    let ranked = match curves.score {
        ScoreKind::Probability => "each class's probability",
        ScoreKind::DecisionValue => "the SVM's decision value w·x + b for each class",
    };
    let _ = writeln!(
        page,
        "<h2>ROC and precision-recall curves</h2>\n<p class=\"note\">One class against the \
         rest, documents ranked by {ranked}. Macro ROC AUC {}, macro average precision {} \
         (over the classes present).</p>",
        optional(curves.macro_roc_auc),
        optional(curves.macro_average_precision)
    );
    let shown: Vec<&ClassCurves> = curves.per_class.iter().collect();
    roc_and_pr_charts(page, &shown);
}

/// Labels drawn beside the micro curves: one colour each in the palette, with the micro
/// curves'.
const LABELS_DRAWN: usize = 19;

/// A multi-label model's curves: the micro curves of every (document, label) pair pooled, and
/// those of the labels with the most documents (a legend of 90 Reuters topics would not read).
fn label_curve_charts(page: &mut String, curves: &Curves) {
    let mut by_support: Vec<&ClassCurves> = curves.per_class.iter().collect();
    by_support.sort_by_key(|c| std::cmp::Reverse(c.positives));
    by_support.truncate(LABELS_DRAWN);
    let micro = curves.micro.as_ref();
    let _ = writeln!(
        page,
        "<h2>ROC and precision-recall curves</h2>\n<p class=\"note\">Each label against the \
         documents without it, ranked by the label's score (an SVM margin or naive Bayes' log \
         posterior odds). Macro ROC AUC {}, macro average precision {} (over the labels \
         present); micro, every (document, label) pair pooled: ROC AUC {}, average precision \
         {}. Drawn: the micro curves and the {} labels with the most documents.</p>",
        optional(curves.macro_roc_auc),
        optional(curves.macro_average_precision),
        optional(micro.and_then(|m| m.roc_auc)),
        optional(micro.and_then(|m| m.average_precision)),
        by_support.len()
    );
    let shown: Vec<&ClassCurves> = micro.into_iter().chain(by_support).collect();
    roc_and_pr_charts(page, &shown);
}

/// The ROC and the precision-recall chart of the curves `shown`, one series each.
fn roc_and_pr_charts(page: &mut String, shown: &[&ClassCurves]) {
    let with_roc: Vec<_> = shown.iter().filter(|c| c.roc.is_some()).collect();
    let roc_points: Vec<Vec<(f64, f64)>> = with_roc
        .iter()
        .filter_map(|c| c.roc.as_ref())
        .map(|roc| {
            roc.fpr
                .iter()
                .copied()
                .zip(roc.tpr.iter().copied())
                .collect()
        })
        .collect();
    let roc_names: Vec<String> = with_roc
        .iter()
        .map(|c| format!("{} ({})", c.label, optional(c.roc_auc)))
        .collect();
    let chance = [(0.0, 0.0), (1.0, 1.0)];
    let mut series: Vec<Series> = roc_points
        .iter()
        .zip(&roc_names)
        .map(|(points, name)| Series::line(name, points))
        .collect();
    series.push(Series::dashed("chance", &chance, "#999"));
    page.push_str(&line_chart(&LineChart {
        title: "ROC curves (AUC in the legend)",
        x: Axis::fixed("false-positive rate", 0.0, 1.0),
        y: Axis::fixed("true-positive rate", 0.0, 1.0),
        series: &series,
        marked: None,
    }));
    let with_pr: Vec<_> = shown
        .iter()
        .filter(|c| c.precision_recall.is_some())
        .collect();
    // Average precision is the area under this step function: precision Pₖ from recall Rₖ₋₁
    // to Rₖ.
    let pr_points: Vec<Vec<(f64, f64)>> = with_pr
        .iter()
        .filter_map(|c| c.precision_recall.as_ref())
        .map(|pr| {
            let steps = pr.recall.windows(2).zip(&pr.precision[1..]);
            steps.flat_map(|(r, &p)| [(r[0], p), (r[1], p)]).collect()
        })
        .collect();
    let pr_names: Vec<String> = with_pr
        .iter()
        .map(|c| format!("{} ({})", c.label, optional(c.average_precision)))
        .collect();
    let series: Vec<Series> = pr_points
        .iter()
        .zip(&pr_names)
        .map(|(points, name)| Series::line(name, points))
        .collect();
    page.push_str(&line_chart(&LineChart {
        title: "Precision-recall curves (average precision in the legend)",
        x: Axis::fixed("recall", 0.0, 1.0),
        y: Axis::fixed("precision", 0.0, 1.0),
        series: &series,
        marked: None,
    }));
}

fn reliability(page: &mut String, eval: &EvalPage) {
    page.push_str("<h2>Reliability of the probabilities</h2>\n");
    let Some(rel) = eval.reliability else {
        let why = match eval.curves.map(|c| c.score) {
            Some(ScoreKind::DecisionValue) => {
                "The model is an uncalibrated SVM: its values are scores, not probabilities, so \
                 they have no reliability to show. Train it with --calibrate for probabilities."
            }
            _ => "The scores were not kept.",
        };
        let _ = writeln!(page, "<p class=\"note\">{why}</p>");
        return;
    };
    let _ = writeln!(
        page,
        "<p class=\"note\">Documents binned by the probability of their most probable class; \
         a reliable model's dots lie on the diagonal. Expected calibration error {:.4}.</p>",
        rel.expected_calibration_error
    );
    let points: Vec<(f64, f64)> = rel
        .bins
        .iter()
        .filter_map(|b| Some((b.mean_confidence?, b.accuracy?)))
        .collect();
    let diagonal = [(0.0, 0.0), (1.0, 1.0)];
    let mut model = Series::line("model", &points);
    model.mark = super::chart::Mark::Dots;
    page.push_str(&line_chart(&LineChart {
        title: "Reliability diagram",
        x: Axis::fixed("probability of the most probable class", 0.0, 1.0),
        y: Axis::fixed("fraction right", 0.0, 1.0),
        series: &[
            model,
            Series::dashed("perfectly reliable", &diagonal, "#999"),
        ],
        marked: None,
    }));
    let rows: Vec<Vec<String>> = rel
        .bins
        .iter()
        .map(|b| {
            vec![
                format!("{:.1}–{:.1}", b.lower, b.upper),
                count(b.documents),
                optional(b.mean_confidence),
                optional(b.accuracy),
            ]
        })
        .collect();
    let header = [
        "probability",
        "documents",
        "mean probability",
        "fraction right",
    ];
    table(page, &header, &rows);
}
