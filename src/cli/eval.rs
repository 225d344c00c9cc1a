//! `bowline eval`: a model against a labelled corpus.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::log::ReadLog;
use super::{DecisionArgs, InputArgs, Outcome, RuntimeArgs};
use crate::analyze::{run_stages, Analyzer};
use crate::corpus;
use crate::error::{Error, Result};
use crate::eval::{Confusion, Report};
use crate::model::{Decision, Model};
use crate::vectorize::transform_stages;

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
}

/// Runs the command.
pub fn run(args: EvalArgs) -> Result<Outcome> {
    let model = Model::load(&args.model)?;
    let decide = args.decision.decision(&model.labels)?;
    let read = args.input.options()?;
    let pipeline = args.runtime.start()?;
    let analyzer = Analyzer::new(model.vectorizer.analyzer().clone())?;
    let scorer = model.classifier.scorer();
    let (entries, _) = corpus::open(&args.corpus, &read)?;
    let fused = pipeline.is_fused();
    let stages = transform_stages(&analyzer, &model.vectorizer, read.max_doc_bytes, fused);
    let mut log = ReadLog::new(read.max_doc_bytes);
    let mut confusion = Confusion::new(model.labels.clone());
    let mut unknown: BTreeMap<String, u64> = BTreeMap::new();
    let mut scores = vec![0.0; model.labels.len()];
    let mut total_cost = 0.0;
    run_stages(entries, &pipeline, stages, |item| {
        log.note(&item.entry);
        if !item.entry.is_document() {
            return Ok(());
        }
        let label = item.entry.doc.label.as_deref().unwrap_or("(no label)");
        let Some(truth) = model.labels.iter().position(|l| l == label) else {
            *unknown.entry(label.to_string()).or_default() += 1;
            return Ok(());
        };
        let row = &item.counted.row;
        scorer.scores(&row.indices, &row.values, &mut scores);
        model.classifier.probabilities(&mut scores);
        let predicted = decide.decide(&scores);
        if let Decision::Costs(costs) = &decide {
            total_cost += costs.cost(predicted, truth);
        }
        confusion.add(truth, predicted);
        Ok(())
    })?;
    let report = confusion.report();
    let costed = matches!(decide, Decision::Costs(_));
    let total_cost = costed.then_some(total_cost);
    let mean_cost = total_cost.map(|total| total / report.docs.max(1) as f64);
    let shown = if args.json {
        let json = JsonReport {
            report: &report,
            unknown_labels: &unknown,
            total_cost,
            mean_cost,
        };
        serde_json::to_string_pretty(&json).map_err(|e| Error::Config(e.to_string()))? + "\n"
    } else {
        let mut text = report.text();
        if let (Some(total), Some(mean)) = (total_cost, mean_cost) {
            text += &format!("\ncost: {total} in all, {mean:.4} per document\n");
        }
        text
    };
    super::print_or_quiet(&shown)?;
    if !unknown.is_empty() {
        let listed: Vec<String> = unknown.iter().map(|(l, n)| format!("{l} ({n})")).collect();
        eprintln!(
            "bowline: warning: documents with labels the model does not know were not scored: {}",
            listed.join(", ")
        );
    }
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
    }
    Ok(log.outcome())
}
