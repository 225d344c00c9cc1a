//! Simulated labelling: how many labels each `bowline suggest` strategy needs to reach the score
//! that random sampling reaches, with a corpus's own labels as the oracle.
//!
//! Each run starts from 2 labelled documents per class (chosen by a seeded hash of their ids),
//! then asks for batches of documents as `suggest` picks them (the same `active::Picker`), learns
//! their labels, and scores the learner (`--learner`: multinomial naive Bayes with alpha 0.01 by
//! default, complement NB, or the linear SVM; `benches/active.sh` uses the SVM) on a test part
//! after every batch, until the label budget is spent. The pool's and the test part's texts are
//! vectorized once, over one vocabulary fitted on all of them (the text, never the labels), so
//! that a batch costs a fit on the labelled rows and a scoring of the pool.
//!
//! ```sh
//! cargo run --release --example active_simulation -- TRAIN --test TEST --labels 1000
//! cargo run --release --example active_simulation -- sms.tsv --split 0.3 --labels 500 --positive spam
//! ```
//!
//! It prints one JSON object: for each strategy, the mean and standard deviation over the seeds
//! of the score at each number of labels, and the fewest labels at which the strategy's mean
//! reaches random sampling's mean at the full budget; and where the labels went at the budget:
//! the mean labels and test recall per class, and the mean distinct terms of the documents each
//! strategy picked beside the pool's.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use bowline::active::{Picker, Strategy};
use bowline::analyze::{Analyzer, Terms};
use bowline::corpus::{load_pending, ReadOptions};
use bowline::model::{
    normalize_log_probabilities, LinearSvm, NaiveBayes, NbKind, Priors, SvmParams,
};
use bowline::vectorize::{matrix_row, Fitter, Matrix, MatrixBuilder, SparseRow};
use bowline::{Choice, Kind, Source};

/// The command line.
struct Args {
    corpus: PathBuf,
    test: Option<PathBuf>,
    split: f64,
    labels: usize,
    positive: Option<String>,
    seeds: u64,
    batch: usize,
    learner: Learner,
    dev: Option<f64>,
    /// Random first: the others are measured against it.
    strategies: Vec<Strategy>,
}

/// The model the simulated labeller trains after every batch.
#[derive(Clone, Copy, PartialEq)]
enum Learner {
    /// Multinomial naive Bayes, alpha 0.01, priors learned from the labelled documents.
    Mnb,
    /// The same with equal priors: uncertainty picks skew the labelled classes, and learned
    /// priors then skew the predictions.
    MnbUniform,
    /// Complement naive Bayes, alpha 0.01, which is less sensitive to skewed class counts.
    Cnb,
    /// The linear SVM (the defaults of `train --classifier svm`), retrained on every batch, its
    /// decision values turned into probabilities by a softmax, so that uncertainty picks the
    /// documents closest to the decision boundary (Tong and Koller 2001).
    Svm,
}

impl Learner {
    fn name(self) -> &'static str {
        match self {
            Learner::Mnb => "mnb",
            Learner::MnbUniform => "mnb-uniform",
            Learner::Cnb => "cnb",
            Learner::Svm => "svm",
        }
    }

    fn kind(self) -> Kind {
        match self {
            Learner::Svm => Kind::Svm,
            Learner::Cnb => Kind::Cnb,
            Learner::Mnb | Learner::MnbUniform => Kind::Mnb,
        }
    }
}

/// A trained simulated model.
enum Fitted {
    Nb(NaiveBayes),
    Svm(LinearSvm),
}

/// Documents as rows of one matrix, with their classes.
struct Data {
    ids: Vec<String>,
    classes: Vec<u32>,
    names: Vec<String>,
    x: Matrix,
    pool: Vec<usize>,
    test: Vec<usize>,
}

fn main() -> bowline::Result<()> {
    let args = parse()?;
    let data = load(&args)?;
    let budget = args.labels.min(data.pool.len());
    let mut curves = serde_json::Map::new();
    let mut random_at_budget = 0.0;
    for &strategy in &args.strategies {
        let started = std::time::Instant::now();
        let finished: Vec<Run> = (1..=args.seeds)
            .map(|seed| simulate(&data, &args, strategy, seed, budget))
            .collect::<bowline::Result<_>>()?;
        let (labels, mean, sd) = summarize(&finished);
        if strategy == Strategy::Random {
            random_at_budget = *mean.last().unwrap_or(&0.0);
        }
        let reaches = labels
            .iter()
            .zip(&mean)
            .find(|(_, m)| **m >= random_at_budget);
        // Each seed's own first labels count at random's mean, for the spread of the saving.
        let per_seed: Vec<Option<usize>> = (finished.iter())
            .map(|run| {
                let reached = run.curve.iter().find(|(_, s)| *s >= random_at_budget);
                reached.map(|(n, _)| *n)
            })
            .collect();
        curves.insert(
            strategy.name().into(),
            serde_json::json!({
                "labels": labels, "mean": mean, "sd": sd,
                "labels_to_reach_random_at_budget": reaches.map(|(n, _)| *n),
                "labels_to_reach_per_seed": per_seed,
                "seconds": started.elapsed().as_secs_f64(),
                "at_budget": at_budget(&data, &finished),
            }),
        );
    }
    let report = serde_json::json!({
        "corpus": args.corpus, "pool": data.pool.len(), "test": data.test.len(),
        "learner": args.learner.name(), "scored": if args.dev.is_some() { "dev" } else { "test" },
        "classes": data.names.len(), "budget": budget, "batch": args.batch, "seeds": args.seeds,
        "metric": args.positive.as_ref().map_or("accuracy".into(), |p| format!("F1 of {p}")),
        "random_at_budget": random_at_budget,
        "pool_terms_mean": mean_terms(&data, &data.pool),
        "strategies": curves,
    });
    println!(
        "{}",
        serde_json::to_string_pretty(&report).unwrap_or_default()
    );
    Ok(())
}

fn parse() -> bowline::Result<Args> {
    let mut args = Args {
        corpus: PathBuf::new(),
        test: None,
        split: 0.3,
        labels: 1000,
        positive: None,
        seeds: 5,
        batch: 10,
        learner: Learner::Mnb,
        dev: None,
        strategies: vec![
            Strategy::Random,
            Strategy::Uncertainty,
            Strategy::Margin,
            Strategy::Entropy,
            Strategy::Diverse,
        ],
    };
    let bad = |what: &str| bowline::Error::Config(format!("bad or missing value for {what}"));
    let mut given = std::env::args().skip(1);
    while let Some(flag) = given.next() {
        let mut value = || given.next().ok_or_else(|| bad(&flag));
        match flag.as_str() {
            "--test" => args.test = Some(value()?.into()),
            "--split" => args.split = value()?.parse().map_err(|_| bad("--split"))?,
            "--labels" => args.labels = value()?.parse().map_err(|_| bad("--labels"))?,
            "--positive" => args.positive = Some(value()?),
            "--seeds" => args.seeds = value()?.parse().map_err(|_| bad("--seeds"))?,
            "--batch" => args.batch = value()?.parse().map_err(|_| bad("--batch"))?,
            "--strategies" => {
                let names = value()?;
                args.strategies = vec![Strategy::Random];
                for name in names.split(',').filter(|n| *n != "random") {
                    let found = Strategy::CHOICES.iter().find(|c| c.0 == name);
                    args.strategies
                        .push(found.ok_or_else(|| bad("--strategies"))?.2);
                }
            }
            "--dev" => args.dev = Some(value()?.parse().map_err(|_| bad("--dev"))?),
            "--learner" => {
                args.learner = match value()?.as_str() {
                    "mnb" => Learner::Mnb,
                    "mnb-uniform" => Learner::MnbUniform,
                    "cnb" => Learner::Cnb,
                    "svm" => Learner::Svm,
                    _ => return Err(bad("--learner")),
                }
            }
            _ => args.corpus = flag.into(),
        }
    }
    Ok(args)
}

/// Reads the labelled documents of `path`: (id, label, text).
fn read(path: &Path) -> bowline::Result<Vec<(String, String, String)>> {
    let options = ReadOptions::default();
    let mut documents = Vec::new();
    for mut entry in Source::open(path, &options)?.entries {
        load_pending(&mut entry, options.max_doc_bytes);
        if let (true, Some(label)) = (entry.is_document(), entry.doc.label.take()) {
            documents.push((entry.doc.id, label, entry.doc.text));
        }
    }
    Ok(documents)
}

/// The pool and test documents, vectorized over one vocabulary.
fn load(args: &Args) -> bowline::Result<Data> {
    let mut documents = read(&args.corpus)?;
    let pooled = documents.len();
    // With --dev the test part is never read: the pool's own training documents are split, so
    // that a learner or strategy can be chosen without looking at the test split.
    let test_file = args.test.as_ref().filter(|_| args.dev.is_none());
    if let Some(test) = test_file {
        documents.extend(read(test)?);
    }
    let mut names: Vec<String> = documents.iter().map(|d| d.1.clone()).collect();
    names.sort();
    names.dedup();
    let class_of: HashMap<&str, u32> = (names.iter().enumerate())
        .map(|(i, n)| (n.as_str(), i as u32))
        .collect();
    let classes: Vec<u32> = documents.iter().map(|d| class_of[d.1.as_str()]).collect();
    let ids: Vec<String> = documents.iter().map(|d| d.0.clone()).collect();
    // Each document is scored (Some(true)), in the pool (Some(false)), or dropped (None): with
    // --split and --dev the held-out part is dropped, and the dev part of the rest scored.
    let in_test: Vec<Option<bool>> = match (test_file, args.dev) {
        (Some(_), _) => (0..documents.len()).map(|i| Some(i >= pooled)).collect(),
        (None, Some(dev)) if args.test.is_some() => {
            let dev = bowline::eval::dev_split(&ids, &classes, dev, 0)?;
            dev.into_iter().map(Some).collect()
        }
        (None, None) => {
            let held = bowline::eval::dev_split(&ids, &classes, args.split, 0)?;
            held.into_iter().map(Some).collect()
        }
        (None, Some(dev)) => {
            let held = bowline::eval::dev_split(&ids, &classes, args.split, 0)?;
            let inner = bowline::eval::dev_split(&ids, &classes, dev, 1)?;
            (held.into_iter().zip(inner))
                .map(|(held, inner)| (!held).then_some(inner))
                .collect()
        }
    };
    let kind = args.learner.kind();
    let analyzer = Analyzer::new(kind.default_analysis())?;
    let mut worker = analyzer.worker();
    let mut fitter = Fitter::new(kind.default_vectorizer())?;
    let mut terms = Terms::new();
    for (_, _, text) in &documents {
        worker.analyze(text, &mut terms);
        fitter.add(&terms);
    }
    let (_, x) = fitter.finish(analyzer.config().clone())?;
    // With --split and --dev the held-out part is dropped and the dev part scored instead.
    let (test, pool) = (0..documents.len())
        .filter(|&i| in_test[i].is_some())
        .partition(|&i| in_test[i] == Some(true));
    Ok(Data {
        ids,
        classes,
        names,
        x,
        pool,
        test,
    })
}

/// One finished labelling run.
struct Run {
    /// (labels, test score) after every batch.
    curve: Vec<(usize, f64)>,
    /// The pool rows labelled, the seed labels first.
    labelled: Vec<usize>,
    /// How many of `labelled` are seed labels.
    seeded: usize,
    /// Each class's recall on the test part at the budget.
    recall: Vec<f64>,
}

/// One labelling run.
fn simulate(
    data: &Data,
    args: &Args,
    strategy: Strategy,
    seed: u64,
    budget: usize,
) -> bowline::Result<Run> {
    let mut labelled = seed_labels(data, seed);
    let seeded = labelled.len();
    let mut curve = Vec::new();
    loop {
        let model = fit(data, args.learner, &labelled)?;
        curve.push((
            labelled.len(),
            score(data, &model, args.positive.as_deref()),
        ));
        let wanted = args.batch.min(budget.saturating_sub(labelled.len()));
        let picked = match wanted {
            0 => Vec::new(),
            _ => pick(data, &model, Picker::new(strategy, wanted, seed), &labelled),
        };
        if picked.is_empty() {
            let recall = class_recall(data, &model);
            return Ok(Run {
                curve,
                labelled,
                seeded,
                recall,
            });
        }
        labelled.extend(picked);
    }
}

/// The pool rows a picker takes from those not yet labelled.
fn pick(data: &Data, model: &Fitted, mut picker: Picker, labelled: &[usize]) -> Vec<usize> {
    let mut probabilities = vec![0.0; data.names.len()];
    let mut row = SparseRow::default();
    let taken: std::collections::HashSet<usize> = labelled.iter().copied().collect();
    for &i in data.pool.iter().filter(|i| !taken.contains(i)) {
        let (indices, values) = matrix_row(&data.x, i);
        predict(model, (indices, values), &mut probabilities);
        row.indices.clear();
        row.indices.extend_from_slice(indices);
        row.values.clear();
        row.values.extend_from_slice(values);
        picker.offer(&data.ids[i], (&data.names, &probabilities), &row);
    }
    let position: HashMap<&str, usize> = (data.pool.iter())
        .map(|&i| (data.ids[i].as_str(), i))
        .collect();
    let picked = picker.finish();
    picked.iter().map(|s| position[s.id.as_str()]).collect()
}

/// Two pool documents of each class, the first by a seeded hash of their ids.
fn seed_labels(data: &Data, seed: u64) -> Vec<usize> {
    let mut by_class: Vec<Vec<(u64, usize)>> = vec![Vec::new(); data.names.len()];
    for &i in &data.pool {
        by_class[data.classes[i] as usize].push((fnv(&data.ids[i], seed), i));
    }
    let mut labelled = Vec::new();
    for class in &mut by_class {
        class.sort_unstable();
        labelled.extend(class.iter().take(2).map(|&(_, i)| i));
    }
    labelled
}

fn fnv(id: &str, seed: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for &b in id.as_bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The learner trained on the labelled rows.
fn fit(data: &Data, learner: Learner, labelled: &[usize]) -> bowline::Result<Fitted> {
    let mut builder = MatrixBuilder::default();
    for &i in labelled {
        let (indices, values) = matrix_row(&data.x, i);
        builder.push(&SparseRow {
            indices: indices.to_vec(),
            values: values.to_vec(),
        });
    }
    let x = builder.finish(data.x.cols())?;
    let classes: Vec<u32> = labelled.iter().map(|&i| data.classes[i]).collect();
    let (kind, priors) = match learner {
        Learner::Svm => {
            let svm = LinearSvm::train(&x, &classes, data.names.len(), SvmParams::default())?;
            return Ok(Fitted::Svm(svm));
        }
        Learner::Mnb => (NbKind::Multinomial, Priors::Learned),
        Learner::MnbUniform => (NbKind::Multinomial, Priors::Uniform),
        Learner::Cnb => (NbKind::Complement, Priors::Learned),
    };
    let mut model = NaiveBayes::new(kind, 0.01, priors, data.names.len(), data.x.cols())?;
    model.add(&x, &classes);
    Ok(Fitted::Nb(model))
}

/// The class probabilities of one row: naive Bayes's own, or a softmax of the SVM's decision
/// values (monotone in them, so the SVM's closest call is the least confident one).
fn predict(model: &Fitted, (indices, values): (&[u32], &[f64]), out: &mut [f64]) {
    match model {
        Fitted::Nb(model) => model.scorer().scores(indices, values, out),
        Fitted::Svm(model) => model.scores(indices, values, out),
    }
    normalize_log_probabilities(out);
}

/// The class the model ranks first for one row (the lowest index on ties).
fn best_class(model: &Fitted, row: (&[u32], &[f64]), probabilities: &mut [f64]) -> usize {
    predict(model, row, probabilities);
    (0..probabilities.len())
        .max_by(|&a, &b| {
            probabilities[a]
                .total_cmp(&probabilities[b])
                .then(b.cmp(&a))
        })
        .unwrap_or(0)
}

/// Each class's recall on the test part: where a strategy's accuracy goes.
fn class_recall(data: &Data, model: &Fitted) -> Vec<f64> {
    let mut probabilities = vec![0.0; data.names.len()];
    let (mut right, mut total) = (
        vec![0.0f64; data.names.len()],
        vec![0.0f64; data.names.len()],
    );
    for &i in &data.test {
        let truth = data.classes[i] as usize;
        total[truth] += 1.0;
        right[truth] += f64::from(u8::from(
            best_class(model, matrix_row(&data.x, i), &mut probabilities) == truth,
        ));
    }
    right
        .iter()
        .zip(&total)
        .map(|(r, t)| r / t.max(1.0))
        .collect()
}

/// Where the labels went, at the budget, as means over the seeds: the labels per class, each
/// class's test recall, and the distinct terms of the documents the strategy picked (the seed
/// labels left out), beside the pool's `pool_terms_mean`.
fn at_budget(data: &Data, runs: &[Run]) -> serde_json::Value {
    let seeds = runs.len().max(1) as f64;
    let mut per_class = serde_json::Map::new();
    for (c, name) in data.names.iter().enumerate() {
        let labels = (runs.iter().flat_map(|r| &r.labelled))
            .filter(|&&i| data.classes[i] as usize == c)
            .count();
        let recall: f64 = runs.iter().map(|r| r.recall[c]).sum();
        per_class.insert(
            name.clone(),
            serde_json::json!({"labels": labels as f64 / seeds, "recall": recall / seeds}),
        );
    }
    let picked: Vec<usize> = (runs.iter())
        .flat_map(|r| r.labelled.iter().skip(r.seeded).copied())
        .collect();
    serde_json::json!({"classes": per_class, "picked_terms_mean": mean_terms(data, &picked)})
}

/// The mean number of distinct terms of some rows.
fn mean_terms(data: &Data, rows: &[usize]) -> f64 {
    let terms: usize = rows.iter().map(|&i| matrix_row(&data.x, i).0.len()).sum();
    terms as f64 / rows.len().max(1) as f64
}

/// Accuracy on the test part, or the F1 of the `positive` class.
fn score(data: &Data, model: &Fitted, positive: Option<&str>) -> f64 {
    let mut probabilities = vec![0.0; data.names.len()];
    let positive = positive.and_then(|p| data.names.iter().position(|n| n == p));
    let (mut right, mut tp, mut fp, mut fn_) = (0usize, 0.0, 0.0, 0.0);
    for &i in &data.test {
        let best = best_class(model, matrix_row(&data.x, i), &mut probabilities);
        let truth = data.classes[i] as usize;
        right += usize::from(best == truth);
        if let Some(p) = positive {
            tp += f64::from(best == p && truth == p);
            fp += f64::from(best == p && truth != p);
            fn_ += f64::from(best != p && truth == p);
        }
    }
    match positive {
        Some(_) if tp > 0.0 => 2.0 * tp / (2.0 * tp + fp + fn_),
        Some(_) => 0.0,
        None => right as f64 / data.test.len().max(1) as f64,
    }
}

/// The labels counts of the runs' batches, and the mean and standard deviation of the score at
/// each (the runs share their counts: the same seed labels and batch size).
fn summarize(runs: &[Run]) -> (Vec<usize>, Vec<f64>, Vec<f64>) {
    let points = runs.iter().map(|r| r.curve.len()).min().unwrap_or(0);
    let labels = (0..points).map(|p| runs[0].curve[p].0).collect();
    let (mut mean, mut sd) = (Vec::new(), Vec::new());
    for p in 0..points {
        let scores: Vec<f64> = runs.iter().map(|r| r.curve[p].1).collect();
        let m = scores.iter().sum::<f64>() / scores.len() as f64;
        let v = scores.iter().map(|s| (s - m).powi(2)).sum::<f64>() / scores.len() as f64;
        mean.push(m);
        sd.push(v.sqrt());
    }
    (labels, mean, sd)
}
