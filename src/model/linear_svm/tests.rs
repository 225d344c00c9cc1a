use super::*;
use crate::vectorize::{MatrixBuilder, SparseRow};

/// Two clusters in three dimensions, labels 0 and 1, plus a third class on its own axis.
fn points() -> (Matrix, Vec<u32>) {
    let rows: [(&[(u32, f64)], u32); 9] = [
        (&[(0, 1.0), (1, 0.1)], 0),
        (&[(0, 0.9)], 0),
        (&[(0, 1.2), (2, 0.2)], 0),
        (&[(1, 1.0)], 1),
        (&[(1, 0.8), (0, 0.1)], 1),
        (&[(1, 1.1), (2, 0.1)], 1),
        (&[(2, 1.0)], 2),
        (&[(2, 0.7), (0, 0.2)], 2),
        (&[(2, 1.3)], 2),
    ];
    let mut builder = MatrixBuilder::default();
    let mut labels = Vec::new();
    for (row, label) in rows {
        let mut pairs = row.to_vec();
        pairs.sort_by_key(|p| p.0);
        builder.push(&SparseRow {
            indices: pairs.iter().map(|p| p.0).collect(),
            values: pairs.iter().map(|p| p.1).collect(),
        });
        labels.push(label);
    }
    (builder.finish(3).unwrap(), labels)
}

/// The dual objective ½‖w(α)‖² + ½·D·‖α‖² − Σα, with w(α) = Σ α_i y_i (x_i, 1).
fn dual_objective(x: &Matrix, y: &[f64], alpha: &[f64], diagonal: f64) -> f64 {
    let mut w = vec![0.0; x.cols() + 1];
    for (i, &a) in alpha.iter().enumerate() {
        let (indices, values) = row(x, i);
        for (&j, &v) in indices.iter().zip(values) {
            w[j as usize] += a * y[i] * v;
        }
        w[x.cols()] += a * y[i];
    }
    let norm: f64 = w.iter().map(|v| v * v).sum();
    0.5 * norm + 0.5 * diagonal * alpha.iter().map(|a| a * a).sum::<f64>()
        - alpha.iter().sum::<f64>()
}

#[test]
fn the_dual_objective_decreases_and_the_tolerance_is_met() {
    let (x, labels) = points();
    let y: Vec<f64> = labels
        .iter()
        .map(|&l| if l == 0 { 1.0 } else { -1.0 })
        .collect();
    for (loss, diagonal) in [(Loss::Hinge, 0.0), (Loss::SquaredHinge, 0.5)] {
        let params = SvmParams {
            loss,
            tolerance: 1e-6,
            ..SvmParams::default()
        };
        let mut objectives = Vec::new();
        let solution = solve(&x, &y, &squared_norms(&x), &params, 7, |alpha| {
            objectives.push(dual_objective(&x, &y, alpha, diagonal));
        });
        assert!(solution.converged, "{loss:?} stopped at the cap");
        assert!(
            objectives.windows(2).all(|w| w[1] <= w[0] + 1e-12),
            "{loss:?}: {objectives:?}"
        );
        assert!(objectives.last().unwrap() < &0.0);
    }
}

#[test]
fn one_vs_rest_separates_the_classes_deterministically() {
    let (x, labels) = points();
    let svm = LinearSvm::train(&x, &labels, 3, SvmParams::default()).unwrap();
    let scorer = svm.scorer();
    for (i, &label) in labels.iter().enumerate() {
        let (indices, values) = row(&x, i);
        let mut scores = vec![0.0; 3];
        scorer.scores(indices, values, &mut scores);
        let best = (0..3)
            .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
            .unwrap();
        assert_eq!(best as u32, label, "row {i}: {scores:?}");
    }
    assert_eq!(
        LinearSvm::train(&x, &labels, 3, SvmParams::default()).unwrap(),
        svm
    );
    let bad = SvmParams {
        c: 0.0,
        ..SvmParams::default()
    };
    assert!(LinearSvm::train(&x, &labels, 3, bad).is_err());
}

#[test]
fn calibrated_scores_are_probabilities_that_favour_the_right_class() {
    let (x, labels) = many_points();
    let svm = LinearSvm::train_calibrated(&x, &labels, 3, SvmParams::default()).unwrap();
    let plain = LinearSvm::train(&x, &labels, 3, SvmParams::default()).unwrap();
    assert_eq!(
        svm.per_class(),
        plain.per_class(),
        "the final SVM is trained on every row"
    );
    let scorer = svm.scorer();
    for (i, &label) in labels.iter().enumerate() {
        let (indices, values) = row(&x, i);
        let mut scores = vec![0.0; 3];
        scorer.scores(indices, values, &mut scores);
        assert!(svm.calibrate_scores(&mut scores));
        assert!((scores.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let best = (0..3)
            .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
            .unwrap();
        assert_eq!(best as u32, label, "{scores:?}");
    }
    assert!(!plain.calibrate_scores(&mut [0.0; 3]));
}

/// Sixty noisy points around three axes, twenty per class, interleaved.
fn many_points() -> (Matrix, Vec<u32>) {
    let mut builder = MatrixBuilder::default();
    let mut labels = Vec::new();
    for k in 0..60u32 {
        let class = k % 3;
        // A deterministic wobble in [0, 0.3) keeps the classes apart but not identical.
        let wobble = f64::from((k * 37) % 10) / 33.0;
        let mut values = [wobble / 3.0; 3];
        values[class as usize] = 1.0 + wobble;
        builder.push(&SparseRow {
            indices: vec![0, 1, 2],
            values: values.to_vec(),
        });
        labels.push(class);
    }
    (builder.finish(3).unwrap(), labels)
}
