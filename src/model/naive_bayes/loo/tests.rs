use super::*;
use crate::model::random::SplitMix;
use crate::vectorize::{MatrixBuilder, SparseRow};

/// `docs` random rows over `features` features with weights in (0, 1], and a random class of
/// `classes` for each; some features occur in one document only.
fn corpus(seed: u64, docs: usize, features: u32, classes: u32) -> (Matrix, Vec<u32>) {
    let mut random = SplitMix(seed);
    let mut builder = MatrixBuilder::default();
    let mut labels = Vec::new();
    for _ in 0..docs {
        let mut indices: Vec<u32> = (0..features).filter(|_| random.below(4) == 0).collect();
        if indices.is_empty() {
            indices.push(random.below(u64::from(features)) as u32);
        }
        let values = indices
            .iter()
            .map(|_| (1 + random.below(1000)) as f64 / 1000.0)
            .collect();
        builder.push(&SparseRow { indices, values });
        labels.push(random.below(u64::from(classes)) as u32);
    }
    (builder.finish(features as usize).unwrap(), labels)
}

/// Row `i`'s class by a model trained from scratch on every other row, over the features those
/// rows have (renumbered), as a vocabulary fitted without row `i` would be.
fn retrained(x: &Matrix, labels: &[u32], classes: usize, i: usize, alpha: f64) -> u32 {
    let others: Vec<usize> = (0..labels.len()).filter(|&r| r != i).collect();
    let mut present = vec![false; x.cols()];
    for &r in &others {
        matrix_row(x, r)
            .0
            .iter()
            .for_each(|&j| present[j as usize] = true);
    }
    let mut column = vec![u32::MAX; x.cols()];
    let mut kept = 0;
    for j in (0..x.cols()).filter(|&j| present[j]) {
        column[j] = kept;
        kept += 1;
    }
    let renumbered = |r: usize| {
        let (indices, values) = matrix_row(x, r);
        let pairs = indices.iter().zip(values);
        let kept: Vec<(u32, f64)> = (pairs.filter(|(&j, _)| column[j as usize] != u32::MAX))
            .map(|(&j, &v)| (column[j as usize], v))
            .collect();
        SparseRow {
            indices: kept.iter().map(|p| p.0).collect(),
            values: kept.iter().map(|p| p.1).collect(),
        }
    };
    let mut builder = MatrixBuilder::default();
    others.iter().for_each(|&r| builder.push(&renumbered(r)));
    let train = builder.finish(kept as usize).unwrap();
    let ids: Vec<u32> = others.iter().map(|&r| labels[r]).collect();
    let (kind, features) = (NbKind::Multinomial, kept as usize);
    let mut nb = NaiveBayes::new(kind, alpha, Priors::Learned, classes, features).unwrap();
    nb.add(&train, &ids);
    let row = renumbered(i);
    let mut scores = vec![0.0; classes];
    nb.scorer().scores(&row.indices, &row.values, &mut scores);
    let best = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    scores.iter().position(|&s| s == best).unwrap() as u32
}

#[test]
fn held_out_predictions_are_those_of_models_trained_without_the_document() {
    for seed in 1..=4 {
        let (x, labels) = corpus(seed, 40, 30, 3);
        let mut nb = NaiveBayes::new(NbKind::Multinomial, 1.0, Priors::Learned, 3, 30).unwrap();
        nb.add(&x, &labels);
        let rows: Vec<usize> = (0..labels.len()).collect();
        let held_out = HeldOut::new(&nb, TermSums::new(&nb, &x, &rows));
        for i in rows {
            let predicted = held_out.predict(&x, i, labels[i]);
            for (a, &alpha) in ALPHAS.iter().enumerate() {
                let expected = retrained(&x, &labels, 3, i, alpha);
                assert_eq!(
                    predicted[a], expected,
                    "seed {seed}, row {i}, alpha {alpha}"
                );
            }
        }
    }
}

#[test]
fn the_choice_is_the_best_held_out_accuracy() {
    let (x, labels) = corpus(7, 60, 40, 2);
    let mut nb = NaiveBayes::new(NbKind::Multinomial, 1.0, Priors::Learned, 2, 40).unwrap();
    nb.add(&x, &labels);
    let rows: Vec<usize> = (0..labels.len()).collect();
    let chosen = nb.choose_alpha(&x, &labels, &rows).unwrap();
    let accuracy = |alpha| {
        let right = rows
            .iter()
            .filter(|&&i| retrained(&x, &labels, 2, i, alpha) == labels[i]);
        right.count() as f64 / rows.len() as f64
    };
    let best = ALPHAS.iter().map(|&a| accuracy(a)).fold(0.0, f64::max);
    assert_eq!(chosen.accuracy, best);
    assert_eq!(chosen.accuracy, accuracy(chosen.alpha));
    assert!(ALPHAS
        .iter()
        .all(|&a| a <= chosen.alpha || accuracy(a) < best));
    assert_eq!(chosen.documents, 60);
}

#[test]
fn the_sample_is_evenly_spread_and_bounded() {
    assert_eq!(sampled(5).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
    assert_eq!(sampled(SAMPLE).count(), SAMPLE);
    assert_eq!(sampled(SAMPLE + 1).collect::<Vec<_>>()[..3], [0, 2, 4]);
    assert_eq!(sampled(10 * SAMPLE).count(), SAMPLE);
    assert_eq!(sampled(0).count(), 0);
}

#[test]
fn other_kinds_and_foreign_rows_are_refused() {
    let (x, labels) = corpus(3, 10, 8, 2);
    let rows: Vec<usize> = (0..labels.len()).collect();
    let mut complement = NaiveBayes::new(NbKind::Complement, 1.0, Priors::Learned, 2, 8).unwrap();
    complement.add(&x, &labels);
    let refused = complement.choose_alpha(&x, &labels, &rows).unwrap_err();
    assert!(refused.to_string().contains("multinomial"), "{refused}");
    let mut nb = NaiveBayes::new(NbKind::Multinomial, 1.0, Priors::Learned, 2, 8).unwrap();
    nb.add(&x, &labels);
    assert!(nb.choose_alpha(&x, &labels, &[10]).is_err());
    assert!(nb
        .choose_alpha(&x, &[0, 5, 0, 1, 0, 1, 0, 1, 0, 1], &rows)
        .is_err());
    assert!(nb.choose_alpha(&x, &labels, &rows).is_ok());
}
