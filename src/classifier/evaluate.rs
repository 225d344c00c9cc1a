//! Evaluating a model on a labelled corpus.

use std::collections::BTreeMap;

use super::{Reading, TextClassifier};
use crate::error::{Error, Result};
use crate::eval::{Confusion, Report, ScoreKind, ScoreTable};
use crate::flow::Source;
use crate::model::Decision;

/// A model's figures on a labelled corpus.
#[derive(Debug, Clone)]
pub struct Evaluation {
    /// Accuracy, per-class figures and the confusion matrix.
    pub report: Report,
    /// Documents whose label is not one of the model's classes, by label; not in the figures.
    pub unknown_labels: BTreeMap<String, u64>,
    /// With a cost matrix: the cost of all decisions.
    pub total_cost: Option<f64>,
    /// Every scored document's per-class scores, when the evaluation keeps them (as `bowline
    /// eval --curves` does).
    pub scores: Option<ScoreTable>,
}

impl Evaluation {
    /// With a cost matrix: the mean cost of a decision.
    pub(crate) fn mean_cost(&self) -> Option<f64> {
        self.total_cost
            .map(|total| total / self.report.docs.max(1) as f64)
    }
}

impl TextClassifier {
    /// Classifies the labelled documents of `source` with `decision` and compares the classes
    /// with their labels. A document without a label counts as the label `(no label)`.
    pub fn evaluate(
        &self,
        source: Source,
        reading: &mut Reading,
        decision: &Decision,
    ) -> Result<Evaluation> {
        self.evaluate_keeping(source, reading, decision, false)
    }

    /// [`evaluate`](TextClassifier::evaluate), keeping every scored document's per-class
    /// scores for ROC and precision-recall curves and a reliability diagram
    /// ([`Evaluation::scores`]): documents × classes `f64` values, small for an evaluation set
    /// (1.2 MB for 7,532 documents of 20 classes). The scores are those of
    /// [`TextClassifier::curve_score`].
    pub(crate) fn evaluate_with_scores(
        &self,
        source: Source,
        reading: &mut Reading,
        decision: &Decision,
    ) -> Result<Evaluation> {
        self.evaluate_keeping(source, reading, decision, true)
    }

    /// What ranks documents for a class in ROC and precision-recall curves: the class
    /// probability when the model gives probabilities (naive Bayes posteriors, a calibrated
    /// SVM's Platt probabilities, k-NN's vote shares), and an uncalibrated SVM's decision value
    /// w·x + b, which its softmax "probabilities" would rank differently across documents.
    pub(crate) fn curve_score(&self) -> ScoreKind {
        if self.model.classifier.gives_probabilities() {
            ScoreKind::Probability
        } else {
            ScoreKind::DecisionValue
        }
    }

    fn evaluate_keeping(
        &self,
        source: Source,
        reading: &mut Reading,
        decision: &Decision,
        keep_scores: bool,
    ) -> Result<Evaluation> {
        let name = source.name.clone();
        let mut tally = Tally::new(self, decision, keep_scores);
        let mut decision_values = vec![0.0; self.model.labels.len()];
        self.classify(source, reading, |item, probabilities| {
            let Some(probabilities) = probabilities else {
                return Ok(());
            };
            let label = item.entry.doc.label.as_deref();
            tally.add(label, probabilities, || {
                let row = &item.counted.row;
                let classifier = &self.model.classifier;
                classifier.scores(&row.indices, &row.values, &mut decision_values);
                &decision_values
            });
            Ok(())
        })?;
        tally.finish(&name)
    }
}

/// The figures of an evaluation as its documents are scored, one at a time and in order: what
/// [`TextClassifier::evaluate`] adds up, and what a cluster adds up from its workers' scores.
pub(crate) struct Tally<'a> {
    labels: &'a [String],
    decision: &'a Decision,
    confusion: Confusion,
    unknown_labels: BTreeMap<String, u64>,
    total_cost: f64,
    kind: ScoreKind,
    scores: Option<ScoreTable>,
}

impl<'a> Tally<'a> {
    /// An empty tally of `classifier`'s decisions by `decision`, keeping every document's curve
    /// scores when `keep_scores`.
    pub(crate) fn new(
        classifier: &'a TextClassifier,
        decision: &'a Decision,
        keep_scores: bool,
    ) -> Self {
        let labels = &classifier.model.labels;
        let kind = classifier.curve_score();
        Tally {
            labels,
            decision,
            confusion: Confusion::new(labels.clone()),
            unknown_labels: BTreeMap::new(),
            total_cost: 0.0,
            kind,
            scores: keep_scores.then(|| ScoreTable::new(labels.clone(), kind)),
        }
    }

    /// Adds a document with `label` (`None` counts as `(no label)`) and its class
    /// `probabilities`; `decision_values` gives its decision values when the curves rank by
    /// them.
    pub(crate) fn add<'v>(
        &mut self,
        label: Option<&str>,
        probabilities: &'v [f64],
        decision_values: impl FnOnce() -> &'v [f64],
    ) {
        let label = label.unwrap_or("(no label)");
        let Some(truth) = self.labels.iter().position(|l| l == label) else {
            *self.unknown_labels.entry(label.to_string()).or_default() += 1;
            return;
        };
        let predicted = self.decision.decide(probabilities);
        if let Decision::Costs(costs) = self.decision {
            self.total_cost += costs.cost(predicted, truth);
        }
        self.confusion.add(truth, predicted);
        if let Some(table) = &mut self.scores {
            let row = match self.kind {
                ScoreKind::Probability => probabilities,
                ScoreKind::DecisionValue => decision_values(),
            };
            table.push(row, truth as u32);
        }
    }

    /// The evaluation of the documents added; an error naming `name` when none was scored.
    pub(crate) fn finish(self, name: &std::path::Path) -> Result<Evaluation> {
        if self.confusion.total() == 0 {
            let known = if self.unknown_labels.is_empty() {
                "it holds no labelled document".to_string()
            } else {
                let labels: Vec<&str> = self.unknown_labels.keys().map(String::as_str).collect();
                format!(
                    "none of its labels is a class of the model ({})",
                    labels.join(", ")
                )
            };
            return Err(Error::input(name, format!("nothing to evaluate: {known}")));
        }
        let costed = matches!(self.decision, Decision::Costs(_));
        Ok(Evaluation {
            report: self.confusion.report(),
            unknown_labels: self.unknown_labels,
            total_cost: costed.then_some(self.total_cost),
            scores: self.scores,
        })
    }
}
