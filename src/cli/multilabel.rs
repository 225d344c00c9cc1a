//! The multi-label forms of `eval` and `classify`: label sets instead of one class.

use std::io::Write;

use serde::Serialize;

use super::eval::EvalArgs;
use super::log::ReadLog;
use super::{DecisionArgs, Outcome};
use bowline::eval::MultiLabelMetrics;
use bowline::{Error, Result, Source, TextClassifier};

/// `eval` of a multi-label model: micro, macro and per-document F1, subset accuracy, Hamming
/// loss and per-label figures, as text or JSON. Class folders are read with the same file in
/// several folders as one document.
pub fn eval(classifier: &TextClassifier, args: &EvalArgs) -> Result<Outcome> {
    refuse_decision_flags(classifier, &args.decision)?;
    let mut read = args.input.options()?;
    read.merge_folders = true;
    let pipeline = args.runtime.start()?;
    let mut log = ReadLog::new(read.max_doc_bytes);
    let source = Source::open(&args.corpus, &read)?;
    let metrics = classifier.evaluate_labels(source, &mut super::reading(pipeline, &mut log))?;
    let shown = if args.json {
        super::json_text(&JsonMetrics {
            multi_label: true,
            metrics: &metrics,
        })?
    } else {
        text(&metrics)
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
    let width = m
        .per_label
        .iter()
        .map(|l| l.label.len())
        .max()
        .unwrap_or(5)
        .max(5);
    out += &format!(
        "{:<width$}  {:>9}  {:>6}  {:>6}  {:>7}\n",
        "label", "precision", "recall", "F1", "support"
    );
    for l in &m.per_label {
        out += &format!(
            "{:<width$}  {:>9.4}  {:>6.4}  {:>6.4}  {:>7}\n",
            l.label, l.precision, l.recall, l.f1, l.support
        );
    }
    out
}

/// One document's labels in `classify`'s output: TSV `id<TAB>labels<TAB>scores`, each list
/// joined by commas, or a JSON line `{"schema_version", "id", "labels": [{"label", "score"}]}`.
pub fn format_labels<'a>(
    line: &mut Vec<u8>,
    id: &str,
    given: impl Iterator<Item = (&'a str, f64)>,
    json: bool,
) -> Result<()> {
    let given: Vec<Given> = given.map(|(label, score)| Given { label, score }).collect();
    if json {
        return super::json_line(line, &JsonLabels { id, labels: given });
    }
    let id = id.replace('\t', "\\t").replace('\n', "\\n");
    let labels: Vec<&str> = given.iter().map(|g| g.label).collect();
    let scores: Vec<String> = given.iter().map(|g| format!("{:.6}", g.score)).collect();
    writeln!(line, "{id}\t{}\t{}", labels.join(","), scores.join(","))
        .map_err(|e| Error::io("-", e))
}

#[derive(Serialize)]
struct JsonLabels<'a> {
    id: &'a str,
    labels: Vec<Given<'a>>,
}

#[derive(Serialize)]
struct Given<'a> {
    label: &'a str,
    score: f64,
}
