//! `bowline select`: greedy forward feature selection against a dev split, then a model trained
//! on the selected features.
//!
//! The work is [`Builder::select`]'s; this command turns flags into its options and writes what
//! it found.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::log::ReadLog;
use super::train::{report_unconverged, ClassifierArgs};
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs, WeightingArgs};
use bowline::classifier::SelectOptions;
use bowline::model::Kind;
use bowline::report::chart::{line_chart, standalone, Axis, LineChart, Series};
use bowline::select::{Greedy, Metric, RankBy, Step};
use bowline::{Result, Source};

/// Flags of `bowline select`.
#[derive(Debug, Args)]
pub struct SelectArgs {
    /// A labelled corpus: class folders, a .tsv or a .jsonl file.
    pub corpus: PathBuf,
    /// Where to write the model trained on the selected features.
    #[arg(short, long, value_name = "MODEL")]
    pub output: PathBuf,
    /// Share of each class held out as the dev set, in (0, 1).
    #[arg(
        long,
        default_value_t = 0.2,
        value_name = "FRACTION",
        conflicts_with = "dev"
    )]
    pub dev_split: f64,
    /// A separate labelled dev corpus instead of a split.
    #[arg(long, value_name = "DEV_CORPUS")]
    pub dev: Option<PathBuf>,
    /// Seed of the dev split (a hash of each document's id) and of the SVM [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// What the dev set is judged by.
    #[arg(long, value_enum, default_value = "accuracy")]
    pub metric: Metric,
    /// Features at most.
    #[arg(long, default_value_t = 10_000, value_name = "K")]
    pub max_features: usize,
    /// Candidates: the top N terms of the ranking on the training part.
    #[arg(long, default_value_t = 20_000, value_name = "N")]
    pub candidates: usize,
    /// The ranking that picks the candidates (and breaks ties between them).
    #[arg(long, value_enum, default_value = "chi2")]
    pub rank_by: RankBy,
    /// A step improves when it betters the best dev metric so far by more than this.
    #[arg(long, default_value_t = 0.0, value_name = "T")]
    pub tol: f64,
    /// Stop after this many steps without improvement.
    #[arg(long, default_value_t = 500, value_name = "P")]
    pub patience: usize,
    /// Write the selected features, in order, with the dev metric after each, as JSON.
    #[arg(long, value_name = "SELECTION.json")]
    pub report: Option<PathBuf>,
    /// Write the selection curve (dev metric against number of features) as an SVG chart.
    #[arg(long, value_name = "CURVE.svg")]
    pub plot: Option<PathBuf>,
    /// Train the final model on train + dev instead of train alone.
    #[arg(long)]
    pub refit: bool,
    /// A labelled test corpus, only reported at the end.
    #[arg(long, value_name = "TEST_CORPUS")]
    pub test: Option<PathBuf>,
    #[command(flatten)]
    pub model: ClassifierArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub weighting: WeightingArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

#[derive(Serialize)]
struct StepReport<'a> {
    term: &'a str,
    metric: f64,
}

#[derive(Serialize)]
struct SelectionReport<'a> {
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
}

/// Runs the command.
pub fn run(args: SelectArgs) -> Result<Outcome> {
    let mut inputs = vec![args.corpus.as_path()];
    inputs.extend(args.dev.iter().chain(&args.test).map(|p| p.as_path()));
    bowline::io::refuse_overwriting_inputs(&args.output, &inputs)?;
    let kind = args.model.choice(Kind::Mnb);
    let svm_seed = (kind == Kind::Svm).then_some(args.seed).flatten();
    let greedy = Greedy {
        metric: args.metric,
        max_features: args.max_features,
        tol: args.tol,
        patience: args.patience,
    };
    let analysis = args.analysis.config_over(&kind.default_analysis())?;
    let config = args.weighting.config_over(&kind.default_vectorizer())?;
    let builder = args.model.builder(kind, analysis, config, svm_seed)?;
    let read = args.input.labelled_options()?;
    let pipeline = args.runtime.start()?;
    let mut log = ReadLog::new(read.max_doc_bytes);
    let source = Source::open(&args.corpus, &read)?;
    let open = |path: &Option<PathBuf>| path.as_deref().map(|p| Source::open(p, &read)).transpose();
    let options = SelectOptions {
        greedy,
        candidates: args.candidates,
        rank_by: args.rank_by,
        dev: open(&args.dev)?,
        dev_split: args.dev_split,
        seed: args.seed.unwrap_or(1),
        refit: args.refit,
        test: open(&args.test)?,
    };
    let progress = progress_bar(args.max_features.min(args.candidates) as u64);
    let mut reading = super::reading(pipeline, &mut log);
    let outcome = builder.select(source, options, &mut reading, |step, metric| {
        progress.set_position(step as u64);
        progress.set_message(format!("dev {metric:.4}"));
    })?;
    drop(reading);
    progress.finish_and_clear();
    for (path, unknown) in &outcome.left_out {
        super::log::warn(&format!(
            "warning: {unknown} documents of {} have classes the training corpus lacks; left out",
            path.display()
        ));
    }
    let model = outcome.model.model();
    report_unconverged(&model.classifier, &model.labels);
    outcome.model.save(&args.output)?;
    let report = SelectionReport {
        classifier: model.classifier.name(),
        metric: args.metric,
        rank_by: args.rank_by,
        candidates: outcome.candidates,
        baseline: outcome.baseline,
        all_features: outcome.all_features,
        selected_dev: outcome.selected_dev,
        selected: outcome.selected,
        steps: outcome
            .steps
            .iter()
            .zip(&outcome.terms)
            .map(|(s, term)| StepReport {
                term,
                metric: s.metric,
            })
            .collect(),
        test: outcome.test,
    };
    write_outputs(&args, &report, &outcome.steps)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
        print_summary(&args, &report, outcome.steps.len(), outcome.features);
    }
    Ok(log.outcome())
}

/// The closing line on stderr.
fn print_summary(args: &SelectArgs, report: &SelectionReport, steps: usize, terms: usize) {
    let test = report
        .test
        .map_or(String::new(), |t| format!("; test {t:.4}"));
    eprintln!(
        "bowline: selected {} of {} candidates in {steps} steps: dev {:?} {:.4} ({:.4} with all \
         {terms} features){test} -> {}",
        report.selected,
        report.candidates,
        report.metric,
        report.selected_dev,
        report.all_features,
        args.output.display()
    );
}

/// Writes the JSON report and the SVG curve when asked for.
fn write_outputs(args: &SelectArgs, report: &SelectionReport, steps: &[Step]) -> Result<()> {
    if let Some(path) = &args.report {
        let json = super::json_text(report)?;
        bowline::io::write_atomically(path, |out| std::io::Write::write_all(out, json.as_bytes()))?;
    }
    if let Some(path) = &args.plot {
        let mut points = vec![(0.0, report.baseline)];
        points.extend(
            steps
                .iter()
                .enumerate()
                .map(|(i, s)| ((i + 1) as f64, s.metric)),
        );
        let marked = (report.selected > 0).then(|| points[report.selected.min(points.len() - 1)]);
        let title = format!(
            "Greedy forward selection ({}): dev {:?}",
            report.classifier, report.metric
        );
        let y_label = format!("dev {:?}", report.metric);
        let svg = standalone(&line_chart(&LineChart {
            title: &title,
            x: Axis::linear("features selected"),
            y: Axis::linear(&y_label),
            series: &[Series::line("", &points)],
            marked,
        }));
        bowline::io::write_atomically(path, |out| std::io::Write::write_all(out, svg.as_bytes()))?;
    }
    Ok(())
}

/// Steps done on stderr when it is a terminal, hidden otherwise.
fn progress_bar(steps: u64) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(steps);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} features, {msg}, {elapsed}")
    {
        bar.set_style(style);
    }
    bar
}
