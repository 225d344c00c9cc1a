use super::*;
use crate::model::naive_bayes::{NaiveBayes, NbKind, Priors};
use crate::model::{LinearSvm, SvmParams};
use crate::vectorize::{MatrixBuilder, SparseRow};

fn matrix(rows: &[&[(u32, f64)]], columns: usize) -> Matrix {
    let mut builder = MatrixBuilder::default();
    for row in rows {
        builder.push(&SparseRow {
            indices: row.iter().map(|p| p.0).collect(),
            values: row.iter().map(|p| p.1).collect(),
        });
    }
    builder.finish(columns).unwrap()
}

fn sets(rows: &[&[u32]]) -> LabelSets {
    let mut sets = LabelSets::new();
    rows.iter().for_each(|row| sets.push(row.iter().copied()));
    sets
}

#[test]
fn label_sets_sort_and_drop_repeats() {
    let s = sets(&[&[2, 0, 2], &[], &[1]]);
    assert_eq!(s.len(), 3);
    assert_eq!(s.row(0), &[0, 2]);
    assert!(s.row(1).is_empty());
    assert!(s.contains(0, 2) && !s.contains(0, 1));
    assert_eq!(s.counts(3), vec![1, 1, 1]);
    assert_eq!(s.select(&[2, 0]).row(1), &[0, 2]);
}

#[test]
fn predict_keeps_labels_above_their_thresholds_and_at_least_the_minimum() {
    let decision = MultiLabel {
        thresholds: vec![0.0, 0.5, -1.0],
        min_labels: 1,
        tuned_by: String::new(),
    };
    // Label 1 is below its threshold but is the top label, which is always given.
    assert_eq!(decision.predict(&[0.2, 0.4, -0.5]), vec![1, 0, 2]);
    assert_eq!(decision.predict(&[0.6, 0.4, -0.5]), vec![0, 2]);
    // Nothing above its threshold: the top label alone.
    assert_eq!(decision.predict(&[-0.2, 0.4, -1.5]), vec![1]);
    let none = MultiLabel {
        min_labels: 0,
        ..decision.clone()
    };
    assert!(none.predict(&[-0.2, 0.4, -1.5]).is_empty());
    let two = MultiLabel {
        min_labels: 2,
        ..decision
    };
    assert_eq!(two.predict(&[-0.2, 0.4, -1.5]), vec![1, 0]);
    // Equal scores rank by label id, for the minimum and in the output alike.
    assert_eq!(two.predict(&[0.4, 0.4, -2.0]), vec![0, 1]);
    assert_eq!(two.predict(&[-3.0, 0.4, 0.4]), vec![1, 2]);
}

#[test]
fn the_threshold_maximizes_f1_and_lies_between_scores() {
    // Ranked: + + - + - -; keeping three gives F1 2·2/(3+3) = 0.667, four gives 2·3/(4+3) =
    // 0.857, the best, so the threshold lies between the fourth score and the fifth.
    let mut scored = vec![
        (0.9, true),
        (0.8, true),
        (0.5, false),
        (0.1, true),
        (-0.3, false),
        (-0.6, false),
    ];
    assert!((choose_threshold(&mut scored) - -0.1).abs() < 1e-12);
    let mut absent = vec![(0.5, false), (0.1, false)];
    assert_eq!(choose_threshold(&mut absent), 0.0);
    // One positive ranked last of many: the best F1 is tiny, so the natural boundary stays.
    let mut weak: Vec<(f64, bool)> = (0..20)
        .map(|i| (1.0 - f64::from(i) * 0.01, false))
        .collect();
    weak.push((-2.0, true));
    assert_eq!(choose_threshold(&mut weak), 0.0);
}

#[test]
fn an_svm_learns_each_label_of_multi_label_rows() {
    // Feature 0 means label 0, feature 1 label 1; rows with both features have both labels.
    let x = matrix(
        &[
            &[(0, 1.0)],
            &[(1, 1.0)],
            &[(0, 1.0), (1, 1.0)],
            &[(2, 1.0)],
            &[(0, 1.0), (2, 1.0)],
            &[(1, 1.0), (2, 1.0)],
        ],
        3,
    );
    let s = sets(&[&[0], &[1], &[0, 1], &[2], &[0, 2], &[1, 2]]);
    let svm = LinearSvm::train_sets(&x, &s, 3, SvmParams::default()).unwrap();
    let mut scores = [0.0; 3];
    svm.scores(&[0, 1], &[1.0, 1.0], &mut scores);
    assert!(
        scores[0] > 0.0 && scores[1] > 0.0 && scores[2] < 0.0,
        "{scores:?}"
    );
}

/// Binary-relevance naive Bayes scores equal the log posterior odds computed by hand from the
/// counts of each label against the rest.
#[test]
fn naive_bayes_scores_are_log_posterior_odds() {
    let x = matrix(
        &[&[(0, 2.0), (1, 1.0)], &[(1, 3.0)], &[(0, 1.0), (2, 1.0)]],
        3,
    );
    let s = sets(&[&[0, 1], &[1], &[0]]);
    let alpha = 0.5;
    let row: (&[u32], &[f64]) = (&[0, 2], &[1.0, 2.0]);
    for kind in [NbKind::Multinomial, NbKind::Bernoulli] {
        let mut nb = BinaryNb::new(kind, alpha, 2, 3).unwrap();
        nb.add(&x, &s);
        let mut scores = [0.0; 2];
        nb.scores(row.0, row.1, &mut scores);
        for (c, &score) in scores.iter().enumerate() {
            let expected = by_hand(kind, &x, &s, c, alpha, row);
            assert!(
                (score - expected).abs() < 1e-9,
                "{kind:?} {c}: {score} vs {expected}"
            );
        }
    }
}

fn by_hand(
    kind: NbKind,
    x: &Matrix,
    s: &LabelSets,
    c: usize,
    alpha: f64,
    row: (&[u32], &[f64]),
) -> f64 {
    let n = x.cols();
    let mut sums = [vec![0.0; n], vec![0.0; n]];
    let mut docs = [0.0f64; 2];
    for i in 0..s.len() {
        let side = usize::from(!s.contains(i, c));
        docs[side] += 1.0;
        let (indices, values) = crate::vectorize::matrix_row(x, i);
        for (&j, &v) in indices.iter().zip(values) {
            sums[side][j as usize] += if kind == NbKind::Bernoulli { 1.0 } else { v };
        }
    }
    let mut score = docs[0].ln() - docs[1].ln();
    let mut dense = vec![0.0; n];
    row.0
        .iter()
        .zip(row.1)
        .for_each(|(&j, &v)| dense[j as usize] = v);
    for side in 0..2 {
        let sign = if side == 0 { 1.0 } else { -1.0 };
        let total: f64 = sums[side].iter().sum();
        for j in 0..n {
            let term = if kind == NbKind::Bernoulli {
                let p = (sums[side][j] + alpha) / (docs[side] + 2.0 * alpha);
                if dense[j] > 0.0 {
                    p.ln()
                } else {
                    (1.0 - p).ln()
                }
            } else {
                dense[j] * ((sums[side][j] + alpha) / (total + alpha * n as f64)).ln()
            };
            score += sign * term;
        }
    }
    score
}

/// Binary-relevance complement naive Bayes scores each label as the two-class complement model
/// of that label's yes/no problem would (the single-label model, checked against
/// scikit-learn's `ComplementNB(norm=True)`): its "has" score minus its "lacks" score.
#[test]
fn complement_scores_are_each_labels_two_class_complement_model() {
    let x = matrix(
        &[
            &[(0, 2.0), (1, 1.0)],
            &[(1, 3.0), (3, 1.0)],
            &[(0, 1.0), (2, 1.0)],
            &[(2, 2.0), (3, 0.5)],
        ],
        4,
    );
    let s = sets(&[&[0, 1], &[1], &[0], &[2]]);
    let alpha = 0.5;
    let mut nb = BinaryNb::new(NbKind::Complement, alpha, 3, 4).unwrap();
    nb.add(&x, &s);
    for row in [
        (&[0u32, 2][..], &[1.0, 2.0][..]),
        (&[1, 3][..], &[0.5, 1.0][..]),
    ] {
        let mut scores = [0.0; 3];
        nb.scores(row.0, row.1, &mut scores);
        for (c, &score) in scores.iter().enumerate() {
            let has: Vec<u32> = (0..s.len()).map(|i| u32::from(s.contains(i, c))).collect();
            let mut two =
                NaiveBayes::new(NbKind::Complement, alpha, Priors::Learned, 2, 4).unwrap();
            two.add(&x, &has);
            let mut sides = [0.0; 2];
            two.scorer().scores(row.0, row.1, &mut sides);
            let expected = sides[1] - sides[0];
            assert!(
                (score - expected).abs() < 1e-12,
                "{c}: {score} vs {expected}"
            );
        }
    }
}
