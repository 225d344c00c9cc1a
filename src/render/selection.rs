//! What `select` found: the JSON report of its steps, the selection curve as an SVG chart, and
//! its closing line.

use std::path::Path;

use serde::Serialize;

use super::json::json_text;
use crate::classifier::SelectionOutcome;
use crate::error::Result;
use crate::report::chart::{line_chart, standalone, Axis, LineChart, Series};
use crate::select::{Metric, RankBy};

/// One greedy step: the feature added and the dev metric after it.
#[derive(Serialize)]
struct StepReport<'a> {
    term: &'a str,
    metric: f64,
}

/// A selection as `select --report` writes it.
#[derive(Serialize)]
pub struct SelectionReport<'a> {
    classifier: &'a str,
    metric: Metric,
    rank_by: RankBy,
    candidates: usize,
    /// The dev metric with no features (priors only).
    baseline: f64,
    /// The dev metric of the classifier trained on every training feature.
    all_features: f64,
    /// The dev metric of the classifier trained on the selected features.
    selected_dev: f64,
    /// How many of the steps' features were kept.
    selected: usize,
    steps: Vec<StepReport<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    test: Option<f64>,
    /// Terms of the vocabulary fitted on the training part, named in the closing line only.
    #[serde(skip)]
    features: usize,
}

impl<'a> SelectionReport<'a> {
    /// The report of `outcome`, a selection judged by `metric` among candidates ranked by
    /// `rank_by`.
    pub fn new(outcome: &'a SelectionOutcome, metric: Metric, rank_by: RankBy) -> Self {
        SelectionReport {
            classifier: outcome.model.model().classifier.name(),
            metric,
            rank_by,
            candidates: outcome.candidates,
            baseline: outcome.baseline,
            all_features: outcome.all_features,
            selected_dev: outcome.selected_dev,
            selected: outcome.selected,
            steps: (outcome.steps.iter().zip(&outcome.terms))
                .map(|(s, term)| StepReport {
                    term,
                    metric: s.metric,
                })
                .collect(),
            test: outcome.test,
            features: outcome.features,
        }
    }

    /// The steps as indented JSON, `schema_version` first.
    pub fn json(&self) -> Result<String> {
        json_text(self)
    }

    /// The dev metric against the number of features selected, from the baseline with none,
    /// the features kept marked, as a standalone SVG document.
    pub fn curve(&self) -> String {
        let mut points = vec![(0.0, self.baseline)];
        let steps = self.steps.iter().enumerate();
        points.extend(steps.map(|(i, s)| ((i + 1) as f64, s.metric)));
        let marked = (self.selected > 0).then(|| points[self.selected.min(points.len() - 1)]);
        let title = format!(
            "Greedy forward selection ({}): dev {:?}",
            self.classifier, self.metric
        );
        let y_label = format!("dev {:?}", self.metric);
        standalone(&line_chart(&LineChart {
            title: &title,
            x: Axis::linear("features selected"),
            y: Axis::linear(&y_label),
            series: &[Series::line("", &points)],
            marked,
        }))
    }

    /// The closing line: what was selected, its dev metric beside every feature's, the test
    /// metric, and where the model went.
    pub fn summary(&self, model: &Path) -> String {
        let test = (self.test).map_or(String::new(), |t| format!("; test {t:.4}"));
        format!(
            "selected {} of {} candidates in {} steps: dev {:?} {:.4} ({:.4} with all {} \
             features){test} -> {}",
            self.selected,
            self.candidates,
            self.steps.len(),
            self.metric,
            self.selected_dev,
            self.all_features,
            self.features,
            model.display()
        )
    }
}

/// The warning for a dev or test corpus at `path` with `unknown` documents of classes the
/// training corpus lacks, which were left out.
pub fn left_out(path: &Path, unknown: u64) -> String {
    format!(
        "warning: {unknown} documents of {} have classes the training corpus lacks; left out",
        path.display()
    )
}
