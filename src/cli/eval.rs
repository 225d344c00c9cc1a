//! `bowline eval`: a model against a labelled corpus.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::log::ReadLog;
use super::{DecisionArgs, InputArgs, Outcome, RuntimeArgs};
use bowline::eval::Report;
use bowline::model::Tuned;
use bowline::{Result, Source, TextClassifier};

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
    /// With --costs, also report the total and mean cost of the decisions.
    #[command(flatten)]
    pub decision: DecisionArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
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
}

/// Runs the command.
pub fn run(args: EvalArgs) -> Result<Outcome> {
    let classifier = TextClassifier::load(&args.model)?;
    if classifier.is_multi_label() {
        return super::multilabel::eval(&classifier, &args);
    }
    let decide = args.decision.decision(classifier.labels())?;
    let read = args.input.options()?;
    let pipeline = args.runtime.start()?;
    let mut log = ReadLog::new(read.max_doc_bytes);
    let source = Source::open(&args.corpus, &read)?;
    let evaluation =
        classifier.evaluate(source, &mut super::reading(pipeline, &mut log), &decide)?;
    let (report, unknown) = (&evaluation.report, &evaluation.unknown_labels);
    let (total_cost, mean_cost) = (evaluation.total_cost, evaluation.mean_cost());
    let tuned = classifier.model().info.tuned.as_ref();
    let shown = if args.json {
        let json = JsonReport {
            report,
            unknown_labels: unknown,
            total_cost,
            mean_cost,
            tuned,
        };
        super::json_text(&json)?
    } else {
        let mut text = report.text();
        if let Some(t) = tuned {
            text += &format!(
                "\ntuned: {} (cross-validated accuracy {:.4} on the training corpus, {} folds, \
                 best of {} trials)\n",
                t.flags, t.accuracy, t.folds, t.trials
            );
        }
        if let (Some(total), Some(mean)) = (total_cost, mean_cost) {
            text += &format!("\ncost: {total} in all, {mean:.4} per document\n");
        }
        text
    };
    super::print_or_quiet(&shown)?;
    if !unknown.is_empty() {
        let listed: Vec<String> = unknown.iter().map(|(l, n)| format!("{l} ({n})")).collect();
        super::log::warn(&format!(
            "warning: documents with labels the model does not know were not scored: {}",
            listed.join(", ")
        ));
    }
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
    }
    Ok(log.outcome())
}
