//! `bowline select`: greedy forward feature selection against a dev split, then a model trained
//! on the selected features.
//!
//! The corpus is counted once; the vocabulary, pruning and idf are fitted on the training part,
//! candidates are the top terms of a ranking on the training part, and the dev part judges every
//! step. Multinomial and Bernoulli naive Bayes are selected for exactly, without refitting (see
//! `select::greedy`). For complement NB and the SVM, refitting for every candidate is out of
//! reach (20,000 candidates × thousands of steps), so the order comes from multinomial NB's
//! greedy run, and the chosen classifier is refitted on prefixes of that order (10 features,
//! then half again each time, and the naive Bayes optimum) to pick the prefix with the best dev
//! metric. The test set, when given, is only reported, never used for a decision.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::labelled::{metric_of, Labelled, Reading};
use super::train::{report_unconverged, ClassifierArgs, ClassifierChoice, Trainer};
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs, WeightingArgs};
use crate::analyze::Analyzer;
use crate::error::{Error, Result};
use crate::eval::dev_split;
use crate::model::{Classifier, Model, NbKind, Selected, TrainingInfo};
use crate::report::{line_chart, LineChart};
use crate::select::{Event, Greedy, Metric, Presence, Problem, RankBy, Step};
use crate::vectorize::{
    fill_renumbered, fit_part, matrix_row, weigh_part, FittedPart, FittedVectorizer, Matrix,
    VectorizerConfig,
};

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

/// The parts: training and dev rows, the vectorizer fitted on the training rows, and both
/// matrices weighted by it.
struct Split {
    train: Vec<usize>,
    dev: Vec<usize>,
    part: FittedPart,
    x_train: Matrix,
    x_dev: Matrix,
    y_train: Vec<u32>,
    y_dev: Vec<u32>,
}

impl Split {
    /// Fits `config` on the training rows and weighs both parts with it.
    fn new(
        labelled: &Labelled,
        train: Vec<usize>,
        dev: Vec<usize>,
        config: &VectorizerConfig,
    ) -> Result<Self> {
        let counted = &labelled.corpus;
        let part = fit_part(counted, &train, config)?;
        Ok(Split {
            x_train: weigh_part(counted, &part, &train)?,
            x_dev: weigh_part(counted, &part, &dev)?,
            y_train: labelled.classes_of(&train),
            y_dev: labelled.classes_of(&dev),
            train,
            dev,
            part,
        })
    }

    /// The top `n` terms of the training part by `by`: the candidates.
    fn candidates(&self, by: RankBy, n: usize, classes: usize) -> Vec<usize> {
        let all: Vec<usize> = (0..self.y_train.len()).collect();
        let presence = Presence::count(&self.x_train, &self.y_train, &all, classes);
        presence
            .top(by, None, n, 1)
            .into_iter()
            .map(|(j, _)| j)
            .collect()
    }
}

/// The training and dev rows: a separate dev corpus appended to the counted one, or a split.
fn train_and_dev(
    args: &SelectArgs,
    labelled: &mut Labelled,
    analyzer: &Analyzer,
    reading: &mut Reading,
) -> Result<(Vec<usize>, Vec<usize>)> {
    match &args.dev {
        Some(path) => {
            let train = (0..labelled.classes.len()).collect();
            Ok((train, labelled.append(path, analyzer, reading)?))
        }
        None => {
            let seed = args.seed.unwrap_or(1);
            let held = dev_split(
                &labelled.corpus.ids,
                &labelled.classes,
                args.dev_split,
                seed,
            )?;
            Ok((0..held.len()).partition(|&i| !held[i]))
        }
    }
}

/// The naive Bayes event model and smoothing that order the features: the classifier's own for
/// multinomial and Bernoulli NB, multinomial NB's defaults for the others.
fn event_of(trainer: &Trainer) -> (Event, f64) {
    match trainer {
        Trainer::NaiveBayes(NbKind::Bernoulli, alpha, _) => (Event::Bernoulli, *alpha),
        Trainer::NaiveBayes(NbKind::Multinomial, alpha, _) => (Event::Multinomial, *alpha),
        _ => (Event::Multinomial, ClassifierChoice::Mnb.alpha()),
    }
}

/// Runs the command.
pub fn run(args: SelectArgs) -> Result<Outcome> {
    let choice = args.model.choice(ClassifierChoice::Mnb);
    if choice == ClassifierChoice::Knn {
        return Err(Error::Config(
            "select does not choose features for k-NN; train it with `train`".into(),
        ));
    }
    let svm_seed = (choice == ClassifierChoice::Svm)
        .then_some(args.seed)
        .flatten();
    let greedy = Greedy {
        metric: args.metric,
        max_features: args.max_features,
        tol: args.tol,
        patience: args.patience,
    };
    greedy.validate()?;
    let analyzer = Analyzer::new(args.analysis.config_over(&choice.analysis())?)?;
    let config = args.weighting.config_over(&choice.vectorizer())?;
    let trainer = args.model.trainer(choice, svm_seed, config.weighting)?;
    let (mut labelled, mut reading) = Labelled::open(
        &args.corpus,
        "selection",
        &analyzer,
        &args.input,
        &args.runtime,
    )?;
    let (train, dev) = train_and_dev(&args, &mut labelled, &analyzer, &mut reading)?;
    let split = Split::new(&labelled, train, dev, &config)?;
    let counted = &labelled.corpus;
    let classes = counted.classes.len();
    let candidates = split.candidates(args.rank_by, args.candidates, classes);
    let (event, alpha) = event_of(&trainer);
    let (y_train, y_dev) = (&split.y_train, &split.y_dev);
    let problem = Problem::new(
        event,
        alpha,
        &split.x_train,
        y_train,
        &split.x_dev,
        y_dev,
        classes,
        &candidates,
    );
    let progress = progress_bar(args.max_features.min(candidates.len()) as u64);
    let selection = problem.run(&greedy, |step, metric| {
        progress.set_position(step as u64);
        progress.set_message(format!("dev {metric:.4}"));
    });
    progress.finish_and_clear();
    let order: Vec<usize> = selection.steps.iter().map(|s| s.feature).collect();
    let exact = matches!(choice, ClassifierChoice::Mnb | ClassifierChoice::Bnb);
    let best = if exact {
        selection.best
    } else {
        best_prefix(
            &trainer,
            &split,
            &order,
            selection.best,
            args.metric,
            &counted.classes,
        )?
    };
    let full = trainer.fit(&split.x_train, y_train, classes)?;
    let all_features = metric_of(&full, &counted.classes, &split.x_dev, y_dev, args.metric);
    let mut keep = order[..best.max(1).min(order.len())].to_vec();
    keep.sort_unstable();
    let on_train = select_columns(
        &trainer,
        &split.part,
        &keep,
        &split.x_train,
        y_train,
        classes,
    )?;
    let selected_dev = metric_of(
        &on_train,
        &counted.classes,
        &split.x_dev,
        y_dev,
        args.metric,
    );
    let (final_rows, vectorizer, classifier) = if args.refit {
        refit(&trainer, &labelled, &split, &keep, &config)?
    } else {
        (split.train.clone(), split.part.vectorizer.clone(), on_train)
    };
    let model = save_model(&args, &labelled, &final_rows, vectorizer, classifier)?;
    let test = match &args.test {
        Some(path) => Some(test_metric(
            &mut labelled,
            &model,
            path,
            args.metric,
            &analyzer,
            &mut reading,
        )?),
        None => None,
    };
    let terms = split.part.vectorizer.terms();
    let report = SelectionReport {
        classifier: model.classifier.name(),
        metric: args.metric,
        rank_by: args.rank_by,
        candidates: candidates.len(),
        baseline: selection.baseline,
        all_features,
        selected_dev,
        selected: keep.len(),
        steps: selection
            .steps
            .iter()
            .map(|s| StepReport {
                term: &terms[s.feature],
                metric: s.metric,
            })
            .collect(),
        test,
    };
    write_outputs(&args, &report, &selection.steps)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", reading.log.summary());
        print_summary(&args, &report, selection.steps.len(), terms.len());
    }
    Ok(reading.log.outcome())
}

/// Builds and saves the final model, reporting an SVM class that stopped at the iteration cap.
fn save_model(
    args: &SelectArgs,
    labelled: &Labelled,
    rows: &[usize],
    vectorizer: FittedVectorizer,
    classifier: Classifier,
) -> Result<Model> {
    let labels = &labelled.corpus.classes;
    if let Classifier::Selected(selected) = &classifier {
        if let Classifier::Svm(svm) = selected.inner.as_ref() {
            report_unconverged(svm, labels);
        }
    }
    let mut docs_per_class = vec![0u64; labels.len()];
    rows.iter()
        .for_each(|&i| docs_per_class[labelled.classes[i] as usize] += 1);
    let model = Model {
        vectorizer,
        labels: labels.clone(),
        classifier,
        info: TrainingInfo::now(vec![args.corpus.display().to_string()], docs_per_class),
    };
    model.save(&args.output)?;
    Ok(model)
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

/// The final model's rows, vectorizer and classifier when it is trained on train + dev: the
/// vectorizer is fitted on both, and the selected terms keep their places in it.
fn refit(
    trainer: &Trainer,
    labelled: &Labelled,
    split: &Split,
    keep: &[usize],
    config: &VectorizerConfig,
) -> Result<(Vec<usize>, FittedVectorizer, Classifier)> {
    let counted = &labelled.corpus;
    let rows: Vec<usize> = split.train.iter().chain(&split.dev).copied().collect();
    let part = fit_part(counted, &rows, config)?;
    let terms = split.part.vectorizer.terms();
    let mut kept: Vec<usize> = keep
        .iter()
        .filter_map(|&j| part.vectorizer.column(&terms[j]))
        .map(|c| c as usize)
        .collect();
    kept.sort_unstable();
    let x = weigh_part(counted, &part, &rows)?;
    let labels = labelled.classes_of(&rows);
    let classifier = select_columns(trainer, &part, &kept, &x, &labels, counted.classes.len())?;
    Ok((rows, part.vectorizer, classifier))
}

/// For classifiers selected by naive Bayes's order: the prefix of `order` whose refitted model
/// has the best dev metric, among 10 features, then half again each time, and `nb_best`.
fn best_prefix(
    trainer: &Trainer,
    split: &Split,
    order: &[usize],
    nb_best: usize,
    metric: Metric,
    labels: &[String],
) -> Result<usize> {
    let (y_train, y_dev) = (&split.y_train, &split.y_dev);
    let mut sizes = vec![nb_best.max(1)];
    let mut size = 10usize;
    while size < order.len() {
        sizes.push(size);
        size += size / 2;
    }
    sizes.push(order.len());
    let better = |v: f64| if metric == Metric::LogLoss { -v } else { v };
    let (mut best, mut best_value) = (order.len(), f64::NEG_INFINITY);
    for &k in &sizes {
        let columns = &order[..k.min(order.len())];
        let (x_train, x_dev) = (
            columns_of(&split.x_train, columns)?,
            columns_of(&split.x_dev, columns)?,
        );
        let model = trainer.fit(&x_train, y_train, labels.len())?;
        let value = better(metric_of(&model, labels, &x_dev, y_dev, metric));
        if value > best_value {
            (best, best_value) = (columns.len(), value);
        }
    }
    Ok(best)
}

/// A classifier trained on columns `keep` (ascending) of `x`, which `part` weighed, wrapped so
/// that it scores rows weighed by `part` over the whole vocabulary.
fn select_columns(
    trainer: &Trainer,
    part: &FittedPart,
    keep: &[usize],
    x: &Matrix,
    labels: &[u32],
    classes: usize,
) -> Result<Classifier> {
    let inner = trainer.fit(&columns_of(x, keep)?, labels, classes)?;
    let mut columns = vec![u32::MAX; part.vectorizer.terms().len()];
    keep.iter()
        .enumerate()
        .for_each(|(new, &old)| columns[old] = new as u32);
    Ok(Classifier::Selected(Selected {
        columns,
        inner: Box::new(inner),
    }))
}

/// Columns `columns` of `x`, renumbered in the given order.
fn columns_of(x: &Matrix, columns: &[usize]) -> Result<Matrix> {
    let mut position = vec![u32::MAX; x.cols()];
    columns
        .iter()
        .enumerate()
        .for_each(|(new, &old)| position[old] = new as u32);
    let row = |i: usize| matrix_row(x, i);
    fill_renumbered(x.rows(), columns.len(), &position, row, |_, _| {})
}

/// The final model's metric on a test corpus.
fn test_metric(
    labelled: &mut Labelled,
    model: &Model,
    path: &std::path::Path,
    metric: Metric,
    analyzer: &Analyzer,
    reading: &mut Reading,
) -> Result<f64> {
    let rows = labelled.append(path, analyzer, reading)?;
    let part = FittedPart {
        vectorizer: model.vectorizer.clone(),
        remap: counted_remap(labelled, model),
    };
    let x = weigh_part(&labelled.corpus, &part, &rows)?;
    let truth = labelled.classes_of(&rows);
    Ok(metric_of(
        &model.classifier,
        &model.labels,
        &x,
        &truth,
        metric,
    ))
}

/// For each column of the counted corpus, its column in the model's vocabulary.
fn counted_remap(labelled: &Labelled, model: &Model) -> Vec<u32> {
    let terms = labelled.corpus.vectorizer.terms();
    terms
        .iter()
        .map(|t| model.vectorizer.column(t).unwrap_or(u32::MAX))
        .collect()
}

/// Writes the JSON report and the SVG curve when asked for.
fn write_outputs(args: &SelectArgs, report: &SelectionReport, steps: &[Step]) -> Result<()> {
    if let Some(path) = &args.report {
        let json =
            serde_json::to_string_pretty(report).map_err(|e| Error::Config(e.to_string()))?;
        crate::io::write_atomically(path, |out| std::io::Write::write_all(out, json.as_bytes()))?;
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
        let svg = line_chart(&LineChart {
            title: &title,
            x_label: "features selected",
            y_label: &format!("dev {:?}", report.metric),
            points: &points,
            marked,
            reference: None,
        });
        crate::io::write_atomically(path, |out| std::io::Write::write_all(out, svg.as_bytes()))?;
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
