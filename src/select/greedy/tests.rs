use super::*;
use crate::model::{normalize_log_probabilities, NaiveBayes, NbKind, Priors};
use crate::vectorize::{MatrixBuilder, SparseRow};

/// A reproducible pseudo-random matrix: `rows` documents over `features` columns, class-dependent
/// so that some features matter, with labels in `0..classes` (unbalanced: class c has weight
/// c + 1).
fn problem(rows: usize, features: usize, classes: usize, seed: u64) -> (Matrix, Vec<u32>) {
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as f64 / (1u64 << 31) as f64
    };
    let total: usize = (1..=classes).sum();
    let mut builder = MatrixBuilder::default();
    let mut labels = Vec::new();
    for _ in 0..rows {
        let pick = (next() * total as f64) as usize;
        let class = (0..classes)
            .find(|&c| pick < (1..=c + 1).sum::<usize>())
            .unwrap_or(0);
        let mut row = SparseRow::default();
        for j in 0..features {
            let likely = if j % classes == class { 0.7 } else { 0.25 };
            if next() < likely {
                row.indices.push(j as u32);
                row.values.push(1.0 + (next() * 3.0).floor());
            }
        }
        builder.push(&row);
        labels.push(class as u32);
    }
    (builder.finish(features).unwrap(), labels)
}

/// Columns `selected` of `x`, renumbered 0.., as a new matrix.
fn columns(x: &Matrix, selected: &[usize]) -> Matrix {
    let mut builder = MatrixBuilder::default();
    for i in 0..x.rows() {
        let (indices, values) = matrix_row(x, i);
        let mut row = SparseRow::default();
        for (new, &j) in selected.iter().enumerate() {
            if let Some(k) = indices.iter().position(|&c| c as usize == j) {
                row.indices.push(new as u32);
                row.values.push(values[k]);
            }
        }
        builder.push(&row);
    }
    builder.finish(selected.len()).unwrap()
}

/// The dev metric of naive Bayes refitted on the selected columns.
#[allow(clippy::too_many_arguments)]
fn refit(
    kind: NbKind,
    metric: Metric,
    train: &Matrix,
    train_labels: &[u32],
    dev: &Matrix,
    dev_labels: &[u32],
    classes: usize,
    selected: &[usize],
) -> f64 {
    let (train, dev) = (columns(train, selected), columns(dev, selected));
    let mut nb = NaiveBayes::new(kind, 0.5, Priors::Learned, classes, selected.len()).unwrap();
    nb.add(&train, train_labels);
    let mut counts = Counts {
        correct: 0,
        tp: vec![0; classes],
        fp: vec![0; classes],
        fn_: vec![0; classes],
    };
    let mut loss = 0.0;
    for d in 0..dev_labels.len() {
        let (indices, values) = matrix_row(&dev, d);
        let mut scores = vec![0.0; classes];
        nb.scorer().scores(indices, values, &mut scores);
        counts.record(dev_labels[d], best_and_margin(&scores).0, 1);
        normalize_log_probabilities(&mut scores);
        loss -= scores[dev_labels[d] as usize].ln();
    }
    match metric {
        Metric::LogLoss => loss / dev_labels.len() as f64,
        _ => counts.value(metric, dev_labels.len()),
    }
}

#[test]
fn incremental_scores_equal_refitting_at_every_step() {
    let (train, train_labels) = problem(80, 14, 3, 1);
    let (dev, dev_labels) = problem(40, 14, 3, 2);
    let candidates: Vec<usize> = (0..14).collect();
    for (event, kind) in [
        (Event::Multinomial, NbKind::Multinomial),
        (Event::Bernoulli, NbKind::Bernoulli),
    ] {
        for metric in [Metric::Accuracy, Metric::MacroF1, Metric::LogLoss] {
            let problem = Problem::new(
                event,
                0.5,
                &train,
                &train_labels,
                &dev,
                &dev_labels,
                3,
                &candidates,
            );
            let greedy = Greedy {
                metric,
                max_features: 14,
                tol: 0.0,
                patience: 14,
            };
            let selection = problem.run(&greedy, |_, _| {});
            assert_eq!(selection.steps.len(), 14);
            for k in 1..=14 {
                let selected: Vec<usize> = selection.steps[..k].iter().map(|s| s.feature).collect();
                let refitted = refit(
                    kind,
                    metric,
                    &train,
                    &train_labels,
                    &dev,
                    &dev_labels,
                    3,
                    &selected,
                );
                let incremental = selection.steps[k - 1].metric;
                assert!(
                    (incremental - refitted).abs() < 1e-9,
                    "{event:?} {metric:?} step {k}: {incremental} vs {refitted}"
                );
            }
        }
    }
}

#[test]
fn the_one_informative_term_is_selected_first() {
    // Term 3 is in every document of class 1 and in none of class 0; terms 0-2 are noise.
    let rows: [(&[u32], u32); 8] = [
        (&[0, 1], 0),
        (&[1, 2], 0),
        (&[0, 2], 0),
        (&[0], 0),
        (&[0, 1, 3], 1),
        (&[2, 3], 1),
        (&[1, 3], 1),
        (&[0, 2, 3], 1),
    ];
    let mut builder = MatrixBuilder::default();
    let mut labels = Vec::new();
    for (indices, label) in rows {
        builder.push(&SparseRow {
            indices: indices.to_vec(),
            values: vec![1.0; indices.len()],
        });
        labels.push(label);
    }
    let x = builder.finish(4).unwrap();
    let candidates = [0, 1, 2, 3];
    let problem = Problem::new(
        Event::Bernoulli,
        0.5,
        &x,
        &labels,
        &x,
        &labels,
        2,
        &candidates,
    );
    let greedy = Greedy {
        metric: Metric::Accuracy,
        max_features: 4,
        tol: 0.0,
        patience: 4,
    };
    let selection = problem.run(&greedy, |_, _| {});
    assert_eq!(selection.steps[0].feature, 3);
    assert_eq!(selection.steps[0].metric, 1.0);
    assert_eq!(selection.best, 1, "nothing after it improves");
}
