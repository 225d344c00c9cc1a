//! `bowline eval`: a model against a labelled corpus.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::log::ReadLog;
use super::{DecisionArgs, InputArgs, Outcome, RuntimeArgs};
use bowline::classifier::Evaluation;
use bowline::eval::{Curves, Reliability, Report, ScoreKind};
use bowline::model::{Decision, Tuned};
use bowline::report::settings::{analysis_flags, weighting_flags};
use bowline::report::{eval_report, EvalPage, Header};
use bowline::{Result, Source, TextClassifier};

/// Bins of the reliability diagram.
const RELIABILITY_BINS: usize = 10;

/// Flags of `bowline eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// A model written by `bowline train`.
    pub model: PathBuf,
    /// A labelled corpus: class folders, a .tsv or a .jsonl file.
    pub corpus: PathBuf,
    /// Print the figures as JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Add ROC AUC and average precision of each class against the rest, and their macro
    /// means; with --json, the ROC and precision-recall curves' points and the reliability of
    /// the probabilities too.
    ///
    /// Documents are ranked by a score per class: its probability for naive Bayes (the
    /// posterior), a calibrated SVM (Platt) and k-NN (the share of the neighbours' votes); its
    /// decision value w·x + b for an uncalibrated SVM, whose values are no probabilities (so
    /// they have no reliability). The figures are those of scikit-learn's roc_auc_score and
    /// average_precision_score; a class with no document in the corpus has neither and is left
    /// out of the macro means. A multi-label model ranks by each label's score (an SVM margin,
    /// naive Bayes' log posterior odds), a label's documents against those without it, and
    /// adds the micro figures of every (document, label) pair pooled (scikit-learn's
    /// average="micro"). This and --html keep every document's scores in memory:
    /// documents × classes numbers of 8 bytes (1.2 MB for 7,532 documents of 20 classes).
    #[arg(long)]
    pub curves: bool,
    /// Also write a self-contained HTML report to this file: a confusion-matrix heatmap,
    /// per-class precision, recall and F1, ROC and precision-recall curves and a reliability
    /// diagram, as inline SVG (nothing is fetched from the network). The curves' scores are
    /// those of --curves.
    #[arg(long, value_name = "REPORT.html")]
    pub html: Option<PathBuf>,
    /// With --costs, also report the total and mean cost of the decisions.
    #[command(flatten)]
    pub decision: DecisionArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
    #[cfg(feature = "cluster")]
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// `eval --json`: the report plus the labels the model does not know.
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

/// Runs the command.
pub fn run(args: EvalArgs) -> Result<Outcome> {
    let classifier = TextClassifier::load(&args.model)?;
    if classifier.is_multi_label() {
        return super::multilabel::eval(&classifier, &args);
    }
    let decide = args.decision.decision(classifier.labels())?;
    if let Some(page) = &args.html {
        bowline::io::refuse_overwriting_inputs(page, &[&args.model, &args.corpus])?;
    }
    let read = args.input.labelled_options()?;
    let pipeline = args.runtime.start()?;
    let keep_scores = args.curves || args.html.is_some();
    #[cfg(feature = "cluster")]
    if let Some(cluster) = args.cluster.cluster()? {
        let scoring = bowline::cluster::Scoring {
            model: args.model.clone(),
            inputs: vec![args.corpus.clone()],
            options: read,
            pipeline,
        };
        let logging = (scoring.options.max_doc_bytes, args.runtime.quiet);
        return super::cluster::run_logged(
            &cluster,
            logging,
            |note| bowline::cluster::evaluate(&cluster, &scoring, &decide, keep_scores, note),
            |evaluation| report(&args, &classifier, &decide, &evaluation),
        );
    }
    let mut log = ReadLog::new(read.max_doc_bytes);
    let source = Source::open(&args.corpus, &read)?;
    let evaluation = {
        let reading = &mut super::reading(pipeline, &mut log);
        if keep_scores {
            classifier.evaluate_with_scores(source, reading, &decide)?
        } else {
            classifier.evaluate(source, reading, &decide)?
        }
    };
    report(&args, &classifier, &decide, &evaluation)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
    }
    Ok(log.outcome())
}

/// Writes the HTML page when asked, prints the figures and warns of unknown labels.
fn report(
    args: &EvalArgs,
    classifier: &TextClassifier,
    decide: &Decision,
    evaluation: &Evaluation,
) -> Result<()> {
    let curves = evaluation.scores.as_ref().map(|s| s.curves());
    let reliability = (evaluation.scores.as_ref()).and_then(|s| s.reliability(RELIABILITY_BINS));
    if let Some(path) = &args.html {
        let page = EvalPage {
            report: &evaluation.report,
            curves: curves.as_ref(),
            reliability: reliability.as_ref(),
        };
        let html = eval_report(&page, &header(args, classifier, decided(decide)));
        bowline::io::write_atomically(path, |out| std::io::Write::write_all(out, html.as_bytes()))?;
    }
    let shown = match args.curves {
        true => (curves.as_ref(), reliability.as_ref()),
        false => (None, None),
    };
    super::print_or_quiet(&render(args, classifier, evaluation, shown)?)?;
    let unknown = &evaluation.unknown_labels;
    if !unknown.is_empty() {
        let listed: Vec<String> = unknown.iter().map(|(l, n)| format!("{l} ({n})")).collect();
        super::log::warn(&format!(
            "warning: documents with labels the model does not know were not scored: {}",
            listed.join(", ")
        ));
    }
    Ok(())
}

/// The figures as JSON or as tables.
fn render(
    args: &EvalArgs,
    classifier: &TextClassifier,
    evaluation: &Evaluation,
    (curves, reliability): (Option<&Curves>, Option<&Reliability>),
) -> Result<String> {
    let (report, unknown) = (&evaluation.report, &evaluation.unknown_labels);
    let (total_cost, mean_cost) = (evaluation.total_cost, evaluation.mean_cost());
    let tuned = classifier.model().info.tuned.as_ref();
    if args.json {
        return super::json_text(&JsonReport {
            report,
            unknown_labels: unknown,
            total_cost,
            mean_cost,
            tuned,
            curves,
            reliability,
        });
    }
    let mut text = report.text();
    if let Some(curves) = curves {
        text += &curves_text(curves, "class");
    }
    if let Some(t) = tuned {
        text += &format!("\ntuned: {}\n", super::tune::chosen_text(t));
    }
    if let (Some(total), Some(mean)) = (total_cost, mean_cost) {
        text += &format!("\ncost: {total} in all, {mean:.4} per document\n");
    }
    Ok(text)
}

/// ROC AUC and average precision per class (or label, as `unit` says), their macro means and,
/// for a multi-label model, the micro figures, as a table.
pub(crate) fn curves_text(curves: &Curves, unit: &str) -> String {
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

/// How a single-label model decided, in words.
fn decided(decision: &Decision) -> String {
    match decision {
        Decision::MostProbable => "the most probable class".to_string(),
        Decision::Threshold { at, .. } => format!("a threshold of {at} on the positive class"),
        Decision::Costs(_) => "the least expected cost (--costs)".to_string(),
    }
}

/// What the HTML page says it describes: the model, the corpus, the settings.
pub(crate) fn header(args: &EvalArgs, classifier: &TextClassifier, decided: String) -> Header {
    let model = classifier.model();
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
        .fact("model", args.model.display().to_string())
        .fact("kind", format!("{kind}, {} classes", model.labels.len()))
        .fact(
            "trained on",
            format!("{} (written {})", info.corpora.join(", "), info.written),
        )
        .fact("corpus", args.corpus.display().to_string())
        .fact("analysis", analysis_flags(vectorizer.analyzer()))
        .fact("weighting", weighting_flags(vectorizer.config()))
        .fact("decision", decided)
}
