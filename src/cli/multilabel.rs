//! The multi-label forms of `eval` and `classify`: label sets instead of one class.

use std::io::Write;

use serde::Serialize;

use super::eval::EvalArgs;
use super::log::ReadLog;
use super::{DecisionArgs, Outcome};
use bowline::eval::{figures_table, label_width, Curves, MultiLabelMetrics};
use bowline::report::multilabel_report;
use bowline::{Error, Result, Source, TextClassifier};

/// `eval` of a multi-label model: micro, macro and per-document F1, subset accuracy, Hamming
/// loss and per-label figures, as text or JSON; with `--curves` (and on the `--html` page) each
/// label's ROC AUC and average precision, ranked by its score, with their macro and micro
/// means. Class folders are read with the same file in several folders as one document.
pub fn eval(classifier: &TextClassifier, args: &EvalArgs) -> Result<Outcome> {
    refuse_decision_flags(classifier, &args.decision)?;
    if let Some(page) = &args.html {
        bowline::io::refuse_overwriting_inputs(page, &[&args.model, &args.corpus])?;
    }
    let mut read = args.input.labelled_options()?;
    read.merge_folders = true;
    let pipeline = args.runtime.start()?;
    let mut log = ReadLog::new(read.max_doc_bytes);
    let source = Source::open(&args.corpus, &read)?;
    let (metrics, curves) = {
        let reading = &mut super::reading(pipeline, &mut log);
        if args.curves || args.html.is_some() {
            let (metrics, scores) = classifier.evaluate_labels_with_scores(source, reading)?;
            (metrics, Some(scores.curves()))
        } else {
            (classifier.evaluate_labels(source, reading)?, None)
        }
    };
    if let Some(path) = &args.html {
        let decided = "every label above its threshold (chosen in training)".to_string();
        let header = super::eval::header(args, classifier, decided);
        let html = multilabel_report(&metrics, curves.as_ref(), &header);
        bowline::io::write_atomically(path, |out| out.write_all(html.as_bytes()))?;
    }
    let curves = curves.filter(|_| args.curves);
    let shown = if args.json {
        super::json_text(&JsonMetrics {
            multi_label: true,
            metrics: &metrics,
            curves: curves.as_ref(),
        })?
    } else {
        let mut shown = text(&metrics);
        if let Some(curves) = &curves {
            shown += &super::eval::curves_text(curves, "label");
        }
        shown
    };
    super::print_or_quiet(&shown)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
    }
    Ok(log.outcome())
}

/// Refuses `--threshold` and `--costs` for a multi-label model, which decides by its own
/// per-label thresholds.
pub fn refuse_decision_flags(classifier: &TextClassifier, flags: &DecisionArgs) -> Result<()> {
    if classifier.is_multi_label() && (flags.costs.is_some() || flags.threshold.is_some()) {
        return Err(Error::Config(
            "a multi-label model decides by its per-label thresholds; --threshold and --costs \
             do not apply"
                .into(),
        ));
    }
    Ok(())
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

/// The figures as tables.
fn text(m: &MultiLabelMetrics) -> String {
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
