//! Linear support vector machine: L2-regularized hinge or squared-hinge loss, trained by dual
//! coordinate descent (Hsieh et al. 2008, the method of LIBLINEAR), one-vs-rest over classes in
//! parallel.
//!
//! The bias is an extra feature of constant value 1, regularized like the others, as LIBLINEAR
//! and scikit-learn's `LinearSVC` do. Coordinates are visited in a random order drawn from a
//! seeded generator, so training is deterministic for a given seed.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::naive_bayes::LinearScorer;
use super::platt::Sigmoid;
use crate::error::{Error, Result};
use crate::vectorize::{Matrix, MatrixBuilder, SparseRow};

/// The loss on each training example.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum Loss {
    /// max(0, 1 − y·w·x).
    Hinge,
    /// max(0, 1 − y·w·x)².
    SquaredHinge,
}

/// Training parameters, validated by [`SvmParams::validate`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SvmParams {
    /// Loss; default squared hinge (LIBLINEAR's and scikit-learn's default).
    pub loss: Loss,
    /// Inverse regularization strength C > 0; default 1.
    pub c: f64,
    /// Stop when the projected gradient's spread falls below this; default 0.1 (LIBLINEAR).
    pub tolerance: f64,
    /// Passes over the data at most; default 1000.
    pub max_iterations: usize,
    /// Seed of the coordinate order; default 1.
    pub seed: u64,
}

impl Default for SvmParams {
    fn default() -> Self {
        SvmParams {
            loss: Loss::SquaredHinge,
            c: 1.0,
            tolerance: 0.1,
            max_iterations: 1000,
            seed: 1,
        }
    }
}

impl SvmParams {
    /// Checks every parameter; the only place they are checked.
    pub fn validate(&self) -> Result<()> {
        if !(self.c > 0.0 && self.c.is_finite()) {
            return Err(Error::Config(format!("C must be > 0, got {}", self.c)));
        }
        if !(self.tolerance.is_finite() && self.tolerance > 0.0) || self.max_iterations == 0 {
            return Err(Error::Config(
                "tolerance must be > 0 and iterations >= 1".into(),
            ));
        }
        Ok(())
    }
}

/// One binary problem's solution: weights (bias last) and dual variables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BinarySvm {
    /// Weights, one per feature, then the bias.
    pub weights: Vec<f64>,
    /// Passes made over the data.
    pub iterations: usize,
    /// Whether the tolerance was met before the iteration cap.
    pub converged: bool,
}

/// A one-vs-rest linear SVM.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinearSvm {
    params: SvmParams,
    features: usize,
    per_class: Vec<BinarySvm>,
    /// Per-class Platt sigmoids, when trained with calibration.
    calibration: Option<Vec<Sigmoid>>,
}

impl LinearSvm {
    /// Trains one binary SVM per class (class `c` against the rest), in parallel.
    pub fn train(x: &Matrix, labels: &[u32], classes: usize, params: SvmParams) -> Result<Self> {
        params.validate()?;
        let norms = squared_norms(x);
        let per_class = (0..classes)
            .into_par_iter()
            .map(|c| {
                let y: Vec<f64> = labels
                    .iter()
                    .map(|&l| if l as usize == c { 1.0 } else { -1.0 })
                    .collect();
                solve(
                    x,
                    &y,
                    &norms,
                    &params,
                    params.seed.wrapping_add(c as u64),
                    |_| {},
                )
            })
            .collect();
        Ok(LinearSvm {
            params,
            features: x.cols(),
            per_class,
            calibration: None,
        })
    }

    /// Trains like [`LinearSvm::train`] and adds Platt scaling: an SVM trained on four fifths of
    /// the rows scores the held-out fifth (every fifth row, which spreads over classes stored in
    /// blocks), a sigmoid per class is fitted to those scores, and the returned SVM, trained on
    /// all rows, carries them. Costs a second training.
    pub fn train_calibrated(
        x: &Matrix,
        labels: &[u32],
        classes: usize,
        params: SvmParams,
    ) -> Result<Self> {
        let (held, kept): (Vec<usize>, Vec<usize>) = (0..labels.len()).partition(|i| i % 5 == 0);
        let pick = |rows: &[usize]| -> Result<(Matrix, Vec<u32>)> {
            let mut builder = MatrixBuilder::default();
            for &i in rows {
                let (indices, values) = row(x, i);
                builder.push(&SparseRow {
                    indices: indices.to_vec(),
                    values: values.to_vec(),
                });
            }
            Ok((
                builder.finish(x.cols())?,
                rows.iter().map(|&i| labels[i]).collect(),
            ))
        };
        let ((fit_x, fit_y), (held_x, held_y)) = (pick(&kept)?, pick(&held)?);
        let scorer = LinearSvm::train(&fit_x, &fit_y, classes, params)?.scorer();
        let mut decisions = vec![Vec::with_capacity(held_y.len()); classes];
        let mut scores = vec![0.0; classes];
        for i in 0..held_y.len() {
            let (indices, values) = row(&held_x, i);
            scorer.scores(indices, values, &mut scores);
            decisions
                .iter_mut()
                .zip(&scores)
                .for_each(|(d, &s)| d.push(s));
        }
        let sigmoids = (0..classes)
            .map(|c| {
                let positive: Vec<bool> = held_y.iter().map(|&l| l as usize == c).collect();
                Sigmoid::fit(&decisions[c], &positive)
            })
            .collect();
        let mut svm = LinearSvm::train(x, labels, classes, params)?;
        svm.calibration = Some(sigmoids);
        Ok(svm)
    }

    /// Turns decision values into class probabilities in place, when the SVM was calibrated:
    /// each class's sigmoid, normalized to sum to 1. Returns false, leaving `scores` as they
    /// are, for an uncalibrated SVM.
    pub fn calibrate_scores(&self, scores: &mut [f64]) -> bool {
        let Some(sigmoids) = &self.calibration else {
            return false;
        };
        scores
            .iter_mut()
            .zip(sigmoids)
            .for_each(|(s, sigmoid)| *s = sigmoid.probability(*s));
        let total: f64 = scores.iter().sum();
        if total > 0.0 {
            scores.iter_mut().for_each(|s| *s /= total);
        }
        true
    }

    /// The parameters it was trained with.
    pub fn params(&self) -> &SvmParams {
        &self.params
    }

    /// Each class's binary solution.
    pub fn per_class(&self) -> &[BinarySvm] {
        &self.per_class
    }

    /// A scorer giving each class's decision value w·x + b.
    pub fn scorer(&self) -> LinearScorer {
        let n = self.features;
        let mut weights = Vec::with_capacity(self.per_class.len() * n);
        let mut bias = Vec::with_capacity(self.per_class.len());
        for svm in &self.per_class {
            weights.extend_from_slice(&svm.weights[..n]);
            bias.push(svm.weights[n]);
        }
        LinearScorer::from_class_major(&weights, bias, n, false)
    }
}

/// ‖x_i‖² + 1 (the bias feature) for every row.
fn squared_norms(x: &Matrix) -> Vec<f64> {
    x.outer_iterator()
        .map(|row| row.data().iter().map(|v| v * v).sum::<f64>() + 1.0)
        .collect()
}

/// Row `i` of `x` as column ids and values.
pub(crate) fn row(x: &Matrix, i: usize) -> (&[u32], &[f64]) {
    let span = x.indptr().outer_inds_sz(i);
    (&x.indices()[span.clone()], &x.data()[span])
}

fn dot(w: &[f64], indices: &[u32], values: &[f64]) -> f64 {
    indices
        .iter()
        .zip(values)
        .map(|(&j, &v)| w[j as usize] * v)
        .sum()
}

/// A small, fast, seedable generator (SplitMix64) for the coordinate order.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn shuffle(&mut self, items: &mut [usize]) {
        for i in (1..items.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

/// Dual coordinate descent for one binary problem with labels ±1. `after_pass` is called with the
/// dual variables after every pass (tests use it to watch the objective).
pub fn solve(
    x: &Matrix,
    y: &[f64],
    norms: &[f64],
    params: &SvmParams,
    seed: u64,
    mut after_pass: impl FnMut(&[f64]),
) -> BinarySvm {
    let n = x.cols();
    let (upper, diagonal) = match params.loss {
        Loss::Hinge => (params.c, 0.0),
        Loss::SquaredHinge => (f64::INFINITY, 0.5 / params.c),
    };
    let mut w = vec![0.0; n + 1];
    let mut alpha = vec![0.0; y.len()];
    let mut order: Vec<usize> = (0..y.len()).collect();
    let mut rng = SplitMix(seed);
    let mut iterations = 0;
    let mut converged = false;
    while iterations < params.max_iterations {
        iterations += 1;
        rng.shuffle(&mut order);
        let (mut pg_max, mut pg_min) = (f64::NEG_INFINITY, f64::INFINITY);
        for &i in &order {
            let (indices, values) = row(x, i);
            let margin = dot(&w, indices, values) + w[n];
            let gradient = y[i] * margin - 1.0 + diagonal * alpha[i];
            let projected = if alpha[i] == 0.0 {
                gradient.min(0.0)
            } else if alpha[i] == upper {
                gradient.max(0.0)
            } else {
                gradient
            };
            pg_max = pg_max.max(projected);
            pg_min = pg_min.min(projected);
            if projected.abs() > 1e-12 {
                let old = alpha[i];
                alpha[i] = (old - gradient / (norms[i] + diagonal)).clamp(0.0, upper);
                let step = (alpha[i] - old) * y[i];
                for (&j, &v) in indices.iter().zip(values) {
                    w[j as usize] += step * v;
                }
                w[n] += step;
            }
        }
        after_pass(&alpha);
        if pg_max - pg_min <= params.tolerance {
            converged = true;
            break;
        }
    }
    BinarySvm {
        weights: w,
        iterations,
        converged,
    }
}

#[cfg(test)]
mod tests;
