//! Greedy forward feature selection against a dev split, then a model trained on the selected
//! features.
//!
//! The corpus is counted once; the vocabulary, pruning and idf are fitted on the training part,
//! candidates are the top terms of a ranking on the training part, and the dev part judges every
//! step. Multinomial and Bernoulli naive Bayes are selected for exactly, without refitting (see
//! [`crate::select`]). For complement NB and the SVM, refitting for every candidate is out of
//! reach (20,000 candidates × thousands of steps), so the order comes from multinomial NB's
//! greedy run, and the chosen classifier is refitted on prefixes of that order (10 features,
//! then half again each time, and the naive Bayes optimum) to pick the prefix with the best dev
//! metric. The test set, when given, is only reported, never used for a decision.

use std::path::PathBuf;

use super::{Builder, Labelled, Reading, TextClassifier};
use crate::analyze::Analyzer;
use crate::error::{Error, Result};
use crate::eval::dev_split;
use crate::flow::Source;
use crate::model::{Classifier, Kind, Model, Selected, Smoothing, Trainer, TrainingInfo};
use crate::select::{metric_of, Event, Greedy, Metric, Presence, Problem, RankBy, Step};
use crate::vectorize::{
    fill_renumbered, fit_part, matrix_row, weigh_part, FittedPart, FittedVectorizer, Matrix,
};

/// How to select.
#[derive(Debug)]
pub struct SelectOptions {
    /// When to stop, and the dev metric.
    pub greedy: Greedy,
    /// Candidates: the top N terms of the ranking on the training part.
    pub candidates: usize,
    /// The ranking that picks the candidates.
    pub rank_by: RankBy,
    /// A separate labelled dev corpus; without one, this share of each class is held out.
    pub dev: Option<Source>,
    /// The share of each class held out as the dev set when there is no dev corpus, in (0, 1).
    pub dev_split: f64,
    /// Seed of the dev split (a hash of each document's id).
    pub seed: u64,
    /// Train the final model on train + dev instead of train alone.
    pub refit: bool,
    /// A labelled test corpus, only reported at the end.
    pub test: Option<Source>,
}

/// What a selection found, with the model trained on the selected features.
#[derive(Debug)]
pub struct SelectionOutcome {
    /// The model on the selected features.
    pub model: TextClassifier,
    /// The greedy steps: each feature added, with the dev metric after it.
    pub steps: Vec<Step>,
    /// The candidate terms, for naming the steps' features.
    pub terms: Vec<String>,
    /// Candidates considered.
    pub candidates: usize,
    /// Terms of the vocabulary fitted on the training part: the features there are.
    pub features: usize,
    /// The dev metric with no features (priors only).
    pub baseline: f64,
    /// The dev metric of the classifier trained on every training feature.
    pub all_features: f64,
    /// The dev metric of the classifier trained on the selected features.
    pub selected_dev: f64,
    /// How many of the steps' features were kept.
    pub selected: usize,
    /// The final model's metric on the test corpus, when one was given.
    pub test: Option<f64>,
    /// Dev and test corpora with documents of classes the training corpus lacks: how many
    /// were left out of each.
    pub left_out: Vec<(PathBuf, u64)>,
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

/// How the test corpus is read and measured.
struct Measured<'a> {
    analyzer: &'a Analyzer,
    metric: Metric,
}

impl Measured<'_> {
    /// The final model's metric on the test corpus `test`; its documents of classes the model
    /// does not know are left out, and counted in `left_out`.
    fn test(
        &self,
        labelled: &mut Labelled,
        model: &Model,
        test: Source,
        reading: &mut Reading,
        left_out: &mut Vec<(PathBuf, u64)>,
    ) -> Result<f64> {
        let name = test.name.clone();
        let (value, unknown) =
            test_metric(labelled, model, test, self.metric, self.analyzer, reading)?;
        if unknown > 0 {
            left_out.push((name, unknown));
        }
        Ok(value)
    }
}

impl Builder {
    /// Selects features of the labelled documents of `source` for this classifier, greedily
    /// against a dev set, and trains the model on them. `on_step` hears of every step, with the
    /// dev metric after it.
    pub fn select(
        &self,
        source: Source,
        mut options: SelectOptions,
        reading: &mut Reading,
        on_step: impl FnMut(usize, f64),
    ) -> Result<SelectionOutcome> {
        self.check_selectable(&options)?;
        if let Some((_, Smoothing::Auto)) = self.trainer.naive_bayes() {
            // The greedy search scores every step with one smoothing, and the curve it reports
            // must be the final model's.
            let mut fixed = self.clone();
            fixed.trainer = self.trainer.clone().with_fixed_smoothing();
            return fixed.select(source, options, reading, on_step);
        }
        let name = source.name.clone();
        let analyzer = Analyzer::new(self.analysis.clone())?;
        let mut labelled = Labelled::read(source, "selection", &analyzer, None, reading)?;
        let mut left_out = Vec::new();
        let (train, dev) = train_and_dev(
            &mut options,
            &mut labelled,
            &analyzer,
            reading,
            &mut left_out,
        )?;
        let split = self.split(&labelled, train, dev)?;
        let classes = labelled.corpus.classes.len();
        let candidates = split.candidates(options.rank_by, options.candidates, classes);
        let selection = self.greedy_order(&split, &candidates, classes, &options.greedy, on_step);
        let order: Vec<usize> = selection.steps.iter().map(|s| s.feature).collect();
        let labels = &labelled.corpus.classes;
        let metric = options.greedy.metric;
        let full = self.trainer.fit(&split.x_train, &split.y_train, classes)?;
        let all_features = metric_of(&full, labels, &split.x_dev, &split.y_dev, metric);
        let keep = self.kept(&split, &order, selection.best, metric, labels)?;
        let on_train = select_columns(
            &self.trainer,
            &split.part,
            &keep,
            &split.x_train,
            &split.y_train,
            classes,
        )?;
        let selected_dev = metric_of(&on_train, labels, &split.x_dev, &split.y_dev, metric);
        let (final_rows, vectorizer, classifier) = if options.refit {
            self.refit(&labelled, &split, &keep)?
        } else {
            (split.train.clone(), split.part.vectorizer.clone(), on_train)
        };
        let model = final_model(&labelled, &final_rows, vectorizer, classifier, &name);
        let test = match options.test.take() {
            Some(test) => {
                let measured = Measured {
                    analyzer: &analyzer,
                    metric,
                };
                Some(measured.test(&mut labelled, &model, test, reading, &mut left_out)?)
            }
            None => None,
        };
        let terms = split.part.vectorizer.terms();
        Ok(SelectionOutcome {
            model: TextClassifier::from_model(model)?,
            terms: selection
                .steps
                .iter()
                .map(|s| terms[s.feature].to_string())
                .collect(),
            steps: selection.steps,
            candidates: candidates.len(),
            features: terms.len(),
            baseline: selection.baseline,
            all_features,
            selected_dev,
            selected: keep.len(),
            test,
            left_out,
        })
    }

    /// Refuses a selection this classifier or these options cannot make.
    fn check_selectable(&self, options: &SelectOptions) -> Result<()> {
        if self.kind() == Kind::Knn {
            return Err(Error::Config(
                "select does not choose features for k-NN; train it with `train`".into(),
            ));
        }
        options.greedy.validate()
    }

    /// The features kept, in column order: the greedy order's best prefix, which naive Bayes'
    /// own search already measured and other classifiers measure again here.
    fn kept(
        &self,
        split: &Split,
        order: &[usize],
        greedy_best: usize,
        metric: Metric,
        labels: &[String],
    ) -> Result<Vec<usize>> {
        let best = match self.trainer.selection_model() {
            (_, _, true) => greedy_best,
            _ => best_prefix(&self.trainer, split, order, greedy_best, metric, labels)?,
        };
        let mut keep = order[..best.max(1).min(order.len())].to_vec();
        keep.sort_unstable();
        Ok(keep)
    }

    /// Fits the vectorizer on the training rows and weighs both parts with it.
    fn split(&self, labelled: &Labelled, train: Vec<usize>, dev: Vec<usize>) -> Result<Split> {
        let counted = &labelled.corpus;
        let part = fit_part(counted, &train, &self.vectorizer)?;
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

    /// Naive Bayes's greedy run over the candidates.
    fn greedy_order(
        &self,
        split: &Split,
        candidates: &[usize],
        classes: usize,
        greedy: &Greedy,
        on_step: impl FnMut(usize, f64),
    ) -> crate::select::Selection {
        let (event, alpha) = event_of(&self.trainer);
        let problem = Problem::new(
            event,
            alpha,
            &split.x_train,
            &split.y_train,
            &split.x_dev,
            &split.y_dev,
            classes,
            candidates,
        );
        problem.run(greedy, on_step)
    }

    /// The final model's rows, vectorizer and classifier when it is trained on train + dev: the
    /// vectorizer is fitted on both, and the selected terms keep their places in it.
    fn refit(
        &self,
        labelled: &Labelled,
        split: &Split,
        keep: &[usize],
    ) -> Result<(Vec<usize>, FittedVectorizer, Classifier)> {
        let counted = &labelled.corpus;
        let rows: Vec<usize> = split.train.iter().chain(&split.dev).copied().collect();
        let part = fit_part(counted, &rows, &self.vectorizer)?;
        let terms = split.part.vectorizer.terms();
        let mut kept: Vec<usize> = keep
            .iter()
            .filter_map(|&j| part.vectorizer.column(&terms[j]))
            .map(|c| c as usize)
            .collect();
        kept.sort_unstable();
        let x = weigh_part(counted, &part, &rows)?;
        let labels = labelled.classes_of(&rows);
        let classes = counted.classes.len();
        let classifier = select_columns(&self.trainer, &part, &kept, &x, &labels, classes)?;
        Ok((rows, part.vectorizer, classifier))
    }
}

impl Split {
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
    options: &mut SelectOptions,
    labelled: &mut Labelled,
    analyzer: &Analyzer,
    reading: &mut Reading,
    left_out: &mut Vec<(PathBuf, u64)>,
) -> Result<(Vec<usize>, Vec<usize>)> {
    match options.dev.take() {
        Some(dev) => {
            let train = (0..labelled.classes.len()).collect();
            let name = dev.name.clone();
            let appended = labelled.append(dev, analyzer, reading)?;
            if appended.unknown > 0 {
                left_out.push((name, appended.unknown));
            }
            Ok((train, appended.rows))
        }
        None => {
            let ids = &labelled.corpus.ids;
            let held = dev_split(ids, &labelled.classes, options.dev_split, options.seed)?;
            Ok((0..held.len()).partition(|&i| !held[i]))
        }
    }
}

/// The naive Bayes event model and smoothing that order the features: the classifier's own for
/// multinomial and Bernoulli NB, multinomial NB's defaults for the others
/// ([`Trainer::selection_model`]).
fn event_of(trainer: &Trainer) -> (Event, f64) {
    let (kind, alpha, _) = trainer.selection_model();
    let event = if kind.counts_presence() {
        Event::Bernoulli
    } else {
        Event::Multinomial
    };
    (event, alpha)
}

/// The final model, with the training documents per class of its rows.
fn final_model(
    labelled: &Labelled,
    rows: &[usize],
    vectorizer: FittedVectorizer,
    classifier: Classifier,
    corpus: &std::path::Path,
) -> Model {
    let labels = &labelled.corpus.classes;
    let mut docs_per_class = vec![0u64; labels.len()];
    rows.iter()
        .for_each(|&i| docs_per_class[labelled.classes[i] as usize] += 1);
    Model {
        vectorizer,
        labels: labels.clone(),
        classifier,
        info: TrainingInfo::now(vec![corpus.display().to_string()], docs_per_class),
    }
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
    let mut columns = vec![u32::MAX; part.vectorizer.n_features()];
    keep.iter()
        .enumerate()
        .for_each(|(new, &old)| columns[old] = new as u32);
    Ok(Classifier::Selected(Selected {
        columns: columns.into(),
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

/// The final model's metric on a test corpus, and how many of its documents were left out.
fn test_metric(
    labelled: &mut Labelled,
    model: &Model,
    test: Source,
    metric: Metric,
    analyzer: &Analyzer,
    reading: &mut Reading,
) -> Result<(f64, u64)> {
    let appended = labelled.append(test, analyzer, reading)?;
    let part = FittedPart {
        vectorizer: model.vectorizer.clone(),
        remap: counted_remap(labelled, model),
    };
    let x = weigh_part(&labelled.corpus, &part, &appended.rows)?;
    let truth = labelled.classes_of(&appended.rows);
    let value = metric_of(&model.classifier, &model.labels, &x, &truth, metric);
    Ok((value, appended.unknown))
}

/// For each column of the counted corpus, its column in the model's vocabulary.
fn counted_remap(labelled: &Labelled, model: &Model) -> Vec<u32> {
    let terms = labelled.corpus.vectorizer.terms();
    terms
        .iter()
        .map(|t| model.vectorizer.column(t).unwrap_or(u32::MAX))
        .collect()
}
