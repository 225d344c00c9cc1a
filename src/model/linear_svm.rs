//! Linear support vector machine: L2-regularized hinge or squared-hinge loss, trained by dual
//! coordinate descent (Hsieh et al. 2008, the method of LIBLINEAR), one-vs-rest over classes in
//! parallel.
//!
//! The bias is an extra feature of constant value 1, regularized like the others, as LIBLINEAR
//! and scikit-learn's `LinearSVC` do. Coordinates are visited in a random order drawn from a
//! seeded generator, so training is deterministic for a given seed; every class of a problem
//! shares that order, so that classes can be solved side by side (see `dual.rs`).
//!
//! Updating continues the same dual problem over the union of old and new rows: the rows kept in
//! the model's [`Reservoir`] and the new rows are optimized again, while the dual variables of
//! the rows that were not kept stay as they were, folded into a fixed part of the weights. This
//! is block coordinate descent on the union's dual, so it never starts from scratch.

use std::ops::Range;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::label_sets::{HeldOutScores, LabelSets};
use super::platt::{self, Sigmoid};
use super::reservoir::{KeptRow, Reservoir};
use crate::error::{Error, Result};
pub(crate) use crate::vectorize::matrix_row as row;
use crate::vectorize::{Matrix, MatrixBuilder, SparseRow};
pub(crate) use dual::Start;
use dual::{Rows, Solution};
pub(crate) use params::{Convergence, Targets};
pub use params::{Loss, SvmParams};

/// A one-vs-rest linear SVM.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinearSvm {
    params: SvmParams,
    features: usize,
    /// Feature-major, `weights[j * classes + c]`, so that a document's term touches one run of
    /// memory for all classes. Stored as `f32`: half the size and load time, and the rounding
    /// (relative 6e-8) is far below the solver's tolerance.
    weights: crate::packed::Table<f32>,
    bias: Vec<f64>,
    convergence: Vec<Convergence>,
    /// Per-class Platt sigmoids, when trained with calibration.
    calibration: Option<Vec<Sigmoid>>,
    /// Earlier training rows for updates.
    reservoir: Reservoir,
}

/// How a model's columns change when its vocabulary grows in an update.
#[derive(Debug, Clone, Copy)]
pub struct ColumnChange<'a> {
    /// The new column of each of the model's columns.
    pub columns: &'a [u32],
    /// Per new column, the factor by which its values change (the new idf over the old; 1 for a
    /// column the model did not have).
    pub rescale: &'a [f64],
    /// Whether rows are scaled to unit length after weighting.
    pub l2: bool,
}

impl LinearSvm {
    /// Checks what a damaged or foreign model file could get wrong and scoring relies on: a
    /// weight for every feature and class, and a sigmoid per class when calibrated.
    pub fn check(&self) -> Result<()> {
        self.params.validate()?;
        let classes = self.bias.len();
        let calibrated = self.calibration.as_ref().is_none_or(|s| s.len() == classes);
        if Some(self.weights.len()) != self.features.checked_mul(classes) || !calibrated {
            return Err(Error::Config(
                "SVM weights do not match its features and classes".into(),
            ));
        }
        Ok(())
    }

    /// An SVM holding each class's solution, uncalibrated.
    fn solved(
        params: SvmParams,
        features: usize,
        reservoir: Reservoir,
        (table, solutions): (Vec<f32>, &[Solution]),
    ) -> Self {
        let mut svm = LinearSvm {
            params,
            features,
            weights: Default::default(),
            bias: Vec::new(),
            convergence: Vec::new(),
            calibration: None,
            reservoir,
        };
        svm.store(table, solutions);
        svm
    }

    /// The average of SVMs trained on disjoint shards with the same classes, each weighted by
    /// its share of the documents: `parts` holds each SVM, the merged column of each of its
    /// columns (`u32::MAX` for one left out), and its share. A column a part did not have counts
    /// as weight 0 there. The result is uncalibrated and keeps no reservoir, since the parts'
    /// dual variables do not describe the averaged weights: an update keeps those weights as the
    /// fixed part of its start and solves over the new rows.
    pub(crate) fn averaged(parts: &[(&LinearSvm, &[u32], f64)], features: usize) -> Result<Self> {
        let Some(&(first, ..)) = parts.first() else {
            return Err(Error::Config("no SVM to average".into()));
        };
        let k = first.classes();
        let mut weights = vec![0.0f64; features * k];
        let mut bias = vec![0.0f64; k];
        for &(svm, columns, share) in parts {
            if svm.classes() != k || svm.params != first.params || svm.is_calibrated() {
                return Err(Error::Config(
                    "only uncalibrated SVMs with the same classes and parameters average".into(),
                ));
            }
            let rows = svm.weights.chunks_exact(k.max(1));
            // A column the merged vocabulary left out (`u32::MAX`) contributes nothing.
            let kept = columns
                .iter()
                .zip(rows)
                .filter(|(&column, _)| column != u32::MAX);
            for (&column, row) in kept {
                let slots = &mut weights[column as usize * k..][..k];
                (slots.iter_mut().zip(row)).for_each(|(w, &v)| *w += share * f64::from(v));
            }
            (bias.iter_mut().zip(&svm.bias)).for_each(|(b, &v)| *b += share * v);
        }
        let convergence = (0..k)
            .map(|c| Convergence {
                iterations: parts
                    .iter()
                    .map(|p| p.0.convergence[c].iterations)
                    .max()
                    .unwrap_or(0),
                converged: parts.iter().all(|p| p.0.convergence[c].converged),
            })
            .collect();
        let params = first.params;
        Ok(LinearSvm {
            params,
            features,
            weights: weights.into_iter().map(|w| w as f32).collect(),
            bias,
            convergence,
            calibration: None,
            reservoir: Reservoir::new(params.reservoir, params.seed),
        })
    }

    /// Trains one binary SVM per class (class `c` against the rest), in parallel.
    pub fn train(x: &Matrix, labels: &[u32], classes: usize, params: SvmParams) -> Result<Self> {
        Ok(LinearSvm::train_with_parts(x, labels, classes, params)?.0)
    }

    /// Trains as [`LinearSvm::train`] does, returning with the SVM each class's Σα − ½·D·Σα²,
    /// the part of its dual objective that the weights do not give (see `objective.rs`).
    fn train_with_parts(
        x: &Matrix,
        labels: &[u32],
        classes: usize,
        params: SvmParams,
    ) -> Result<(Self, Vec<f64>)> {
        params.validate()?;
        let starts = (0..classes).map(|_| Start::cold()).collect();
        let (table, solutions) = solve_classes(x, Targets::Single(labels), &params, starts, 0)?;
        let parts = dual::solution_parts(&solutions, &params);
        let reservoir = Reservoir::new(params.reservoir, params.seed);
        // The rows are kept after the weights are stored, so that the kept copies and both
        // forms of the weights are not all held at once.
        let mut svm = LinearSvm::solved(params, x.cols(), reservoir, (table, &solutions));
        keep_rows(&mut svm.reservoir, x, labels, &solutions, 0);
        Ok((svm, parts))
    }

    /// Learns from new rows `x` (in the grown vocabulary's columns and weighting, described by
    /// `change`) with their class ids; `classes` counts old and new classes. The kept rows are
    /// moved and re-weighted into the new columns, then they and the new rows are optimized
    /// again from their current dual variables; finally the new rows are offered to the
    /// reservoir. A class first seen here gets the mean of the other classes' Platt sigmoids.
    pub fn update(
        &mut self,
        x: &Matrix,
        labels: &[u32],
        classes: usize,
        change: ColumnChange,
    ) -> Result<()> {
        let fixed = self.fixed_weights(x.cols(), classes, change);
        self.move_kept_rows(classes, change);
        let kept = self.reservoir.rows();
        let mut builder = MatrixBuilder::default();
        let mut row = SparseRow::default();
        for k in kept {
            row.indices.clear();
            row.indices.extend_from_slice(&k.indices);
            row.values.clear();
            row.values.extend(k.values.iter().map(|&v| f64::from(v)));
            builder.push(&row);
        }
        for i in 0..labels.len() {
            let (indices, values) = self::row(x, i);
            builder.push(&SparseRow {
                indices: indices.to_vec(),
                values: values.to_vec(),
            });
        }
        let all = builder.finish(x.cols())?;
        let all_labels: Vec<u32> = kept
            .iter()
            .map(|k| k.label)
            .chain(labels.iter().copied())
            .collect();
        let starts = fixed
            .into_iter()
            .enumerate()
            .map(|(c, weights)| warm_start(&all, &all_labels, kept, c, weights))
            .collect();
        let first_new = kept.len();
        let salt = self.reservoir.seen();
        let targets = Targets::Single(&all_labels);
        let (table, solutions) = solve_classes(&all, targets, &self.params, starts, salt)?;
        self.features = x.cols();
        self.store(table, &solutions);
        for (i, k) in self.reservoir.rows_mut().iter_mut().enumerate() {
            k.alpha = row_alpha(&solutions, i).into();
        }
        keep_rows(
            &mut self.reservoir,
            &all,
            &all_labels,
            &solutions,
            first_new,
        );
        if let Some(sigmoids) = &mut self.calibration {
            platt::extend_with_mean(sigmoids, classes);
        }
        Ok(())
    }

    /// Trains one binary SVM per label of multi-label rows (label `c` against the documents
    /// without it), in parallel. No rows are kept for updates: a reservoir holds one class per
    /// row, so an update of a multi-label SVM continues from the weights over the new rows
    /// alone.
    pub(crate) fn train_sets(
        x: &Matrix,
        sets: &LabelSets,
        labels: usize,
        params: SvmParams,
    ) -> Result<Self> {
        params.validate()?;
        let starts = (0..labels).map(|_| Start::cold()).collect();
        let (table, solutions) = solve_classes(x, Targets::Sets(sets), &params, starts, 0)?;
        let reservoir = Reservoir::new(0, params.seed);
        Ok(LinearSvm::solved(
            params,
            x.cols(),
            reservoir,
            (table, &solutions),
        ))
    }

    /// Trains as [`LinearSvm::train_sets`] does, and scores every row by a model trained with
    /// `fold_params` on the rows outside its fold (`fold[i]`, one of `folds`), started from the
    /// model of every row (see `held_out.rs`). Returns the model and, per label, each row's
    /// held-out score and whether it has the label.
    pub(crate) fn train_sets_held_out(
        x: &Matrix,
        sets: &LabelSets,
        labels: usize,
        (params, fold_params): (SvmParams, SvmParams),
        (fold, folds): (&[usize], usize),
    ) -> Result<(Self, HeldOutScores)> {
        params.validate()?;
        fold_params.validate()?;
        let rows = Rows::with_targets(x, Targets::Sets(sets))?;
        let both = (&params, &fold_params);
        let solved: Vec<_> = groups(labels)
            .into_par_iter()
            .map(|group| {
                held_out::solve_with_held_out(&rows, group, both, params.seed, (fold, folds))
            })
            .collect();
        // The groups are consecutive ranges of labels, in order, so the lanes come in label
        // order and the scores collected are indexed by label.
        let lanes = solved.iter().flat_map(|(solution, margins)| {
            solution
                .classes
                .clone()
                .enumerate()
                .map(move |(c, label)| (c, label, margins))
        });
        let scored = (lanes.collect::<Vec<_>>().into_par_iter())
            .map(|(c, label, margins)| {
                let has = (0..sets.len()).map(|i| sets.contains(i, label));
                margins.iter().map(|m| m[c]).zip(has).collect()
            })
            .collect();
        let mut solutions: Vec<_> = solved.into_iter().map(|(solution, _)| solution).collect();
        let table = dual::table(&rows, &mut solutions);
        let reservoir = Reservoir::new(0, params.seed);
        let svm = LinearSvm::solved(params, x.cols(), reservoir, (table, &solutions));
        Ok((svm, scored))
    }

    /// Learns from new multi-label rows, as [`LinearSvm::update`] does for single-label ones:
    /// each label's problem restarts from its weights (moved to the grown vocabulary) with the
    /// new rows' dual variables at zero.
    pub(crate) fn update_sets(
        &mut self,
        x: &Matrix,
        sets: &LabelSets,
        labels: usize,
        change: ColumnChange,
    ) -> Result<()> {
        let starts = self
            .fixed_weights(x.cols(), labels, change)
            .into_iter()
            .map(|weights| Start {
                weights,
                alpha: vec![0.0; sets.len()],
            })
            .collect();
        let salt = self.reservoir.seen().wrapping_add(sets.len() as u64);
        let (table, solutions) = solve_classes(x, Targets::Sets(sets), &self.params, starts, salt)?;
        self.features = x.cols();
        self.store(table, &solutions);
        Ok(())
    }

    /// Each class's weights with the kept rows' part taken out, in the new columns: what the
    /// rows outside the reservoir contribute, scaled as their values would be. A new class has
    /// none.
    fn fixed_weights(
        &self,
        features: usize,
        classes: usize,
        change: ColumnChange,
    ) -> Vec<Vec<f64>> {
        let old = self.bias.len();
        let mut fixed: Vec<Vec<f64>> = (0..classes)
            .map(|c| {
                let mut w = vec![0.0; features + 1];
                if c < old {
                    let before = self.weights.iter().skip(c).step_by(old);
                    for (&j, &v) in change.columns.iter().zip(before) {
                        w[j as usize] = f64::from(v);
                    }
                    w[features] = self.bias[c];
                }
                w
            })
            .collect();
        for k in self.reservoir.rows() {
            for (c, (w, &a)) in fixed.iter_mut().zip(&k.alpha).enumerate() {
                let step = f64::from(a) * target(k.label, c);
                for (&j, &v) in k.indices.iter().zip(&k.values) {
                    w[change.columns[j as usize] as usize] -= step * f64::from(v);
                }
                w[features] -= step;
            }
        }
        for w in &mut fixed {
            w.iter_mut().zip(change.rescale).for_each(|(v, r)| *v *= r);
        }
        fixed
    }

    /// Moves the kept rows to the new columns and weighting, with a zero dual variable for each
    /// new class.
    fn move_kept_rows(&mut self, classes: usize, change: ColumnChange) {
        for k in self.reservoir.rows_mut() {
            let mut values = k.values.to_mut();
            for (j, v) in k.indices.to_mut().iter_mut().zip(values.iter_mut()) {
                *j = change.columns[*j as usize];
                *v = (f64::from(*v) * change.rescale[*j as usize]) as f32;
            }
            let norm = values.iter().map(|v| v * v).sum::<f32>().sqrt();
            if change.l2 && norm > 0.0 {
                values.iter_mut().for_each(|v| *v /= norm);
            }
            k.alpha.to_mut().resize(classes, 0.0);
        }
    }

    /// Trains like [`LinearSvm::train`] and adds Platt scaling: an SVM trained on four fifths of
    /// the rows scores the held-out fifth (every fifth row, which spreads over classes stored in
    /// blocks), a sigmoid per class is fitted to those scores, and the returned SVM, trained on
    /// all rows, carries them. Costs a second training.
    pub(crate) fn train_calibrated(
        x: &Matrix,
        labels: &[u32],
        classes: usize,
        params: SvmParams,
    ) -> Result<Self> {
        let sigmoids = platt::held_out_sigmoids(x, labels, classes, |fit_x, fit_y, held_x| {
            let scorer = LinearSvm::train(fit_x, fit_y, classes, params)?;
            let mut decisions = vec![0.0; held_x.rows() * classes];
            for (i, out) in decisions.chunks_exact_mut(classes).enumerate() {
                let (indices, values) = row(held_x, i);
                scorer.scores(indices, values, out);
            }
            Ok(decisions)
        })?;
        let mut svm = LinearSvm::train(x, labels, classes, params)?;
        svm.calibration = Some(sigmoids);
        Ok(svm)
    }

    /// Turns decision values into class probabilities in place, when the SVM was calibrated:
    /// each class's sigmoid, normalized to sum to 1. Returns false, leaving `scores` as they
    /// are, for an uncalibrated SVM.
    pub(crate) fn calibrate_scores(&self, scores: &mut [f64]) -> bool {
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

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.bias.len()
    }

    /// Number of features.
    pub(crate) fn features(&self) -> usize {
        self.features
    }

    /// The parameters it was trained with.
    pub(crate) fn params(&self) -> &SvmParams {
        &self.params
    }

    /// How each class's solve ended.
    pub(crate) fn convergence(&self) -> &[Convergence] {
        &self.convergence
    }

    /// Whether Platt sigmoids calibrate its scores into probabilities.
    pub(crate) fn is_calibrated(&self) -> bool {
        self.calibration.is_some()
    }

    /// Class `c`'s weights, bias last.
    #[cfg(test)]
    pub(crate) fn class_weights(&self, c: usize) -> Vec<f64> {
        let k = self.bias.len();
        let weights = self
            .weights
            .iter()
            .skip(c)
            .step_by(k)
            .map(|&w| f64::from(w));
        weights.chain([self.bias[c]]).collect()
    }

    /// Keeps `table`, the groups' weights as one feature-major table over all classes (see
    /// [`dual::table`]), and the groups' biases and convergence.
    fn store(&mut self, table: Vec<f32>, solutions: &[Solution]) {
        self.bias.clear();
        self.convergence.clear();
        for solution in solutions {
            self.bias.extend_from_slice(&solution.bias);
            self.convergence.extend_from_slice(&solution.convergence);
        }
        self.weights = table.into();
    }

    /// The training rows kept for updates.
    pub fn reservoir(&self) -> &Reservoir {
        &self.reservoir
    }

    /// Fills `out` (one slot per class) with the decision values w·x + b of one row. Columns
    /// beyond the model's features (terms it never saw) are ignored.
    pub fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        let k = self.bias.len();
        out.copy_from_slice(&self.bias);
        for (&j, &value) in indices.iter().zip(values) {
            let j = j as usize;
            if j < self.features {
                let weights = &self.weights[j * k..(j + 1) * k];
                out.iter_mut()
                    .zip(weights)
                    .for_each(|(score, &w)| *score += value * f64::from(w));
            }
        }
    }
}

/// +1 for rows of class `c`, −1 for the rest.
fn target(label: u32, c: usize) -> f64 {
    if label as usize == c {
        1.0
    } else {
        -1.0
    }
}

/// Solves every class's binary problem from its start: the classes are split into groups of at
/// most [`dual::LANES`], solved in parallel, each in one sweep of the rows per pass (see
/// [`dual`]); the result does not depend on the split. `salt` varies the coordinate order between
/// updates. Returns the weights as the model's table ([`dual::table`]) and each group's solution
/// without them.
fn solve_classes(
    x: &Matrix,
    targets: Targets,
    params: &SvmParams,
    starts: Vec<Start>,
    salt: u64,
) -> Result<(Vec<f32>, Vec<Solution>)> {
    let mut rows = Rows::with_targets(x, targets)?;
    let mut starts = starts.into_iter();
    let work: Vec<(Range<usize>, Vec<Start>)> = lane_groups(starts.len())
        .into_iter()
        .map(|range| {
            let group_starts = starts.by_ref().take(range.len()).collect();
            (range, group_starts)
        })
        .collect();
    let seed = params.seed.wrapping_add(salt);
    let mut solutions: Vec<Solution> = work
        .into_par_iter()
        .map(|(range, starts)| dual::solve(&rows, range, params, seed, starts, |_, _| {}))
        .collect();
    rows.free_renumbered();
    let table = dual::table(&rows, &mut solutions);
    Ok((table, solutions))
}

/// The classes of each group solved together: groups of [`dual::LANES`] classes, and the rest
/// in a last group, which [`dual::solve`] runs in fewer lanes. On 20 Newsgroups' 20 classes
/// and two threads, groups of 8, 8 and 4 trained the default SVM in 2.27 s against 2.34 s for
/// 7, 7 and 6 (medians of 8 alternating runs of the whole process): the thread that solves two
/// groups solves a smaller second one.
fn lane_groups(classes: usize) -> Vec<Range<usize>> {
    (0..classes)
        .step_by(dual::LANES)
        .map(|g| g..(g + dual::LANES).min(classes))
        .collect()
}

/// As few groups of at most [`dual::LANES`] classes as there can be, of sizes that differ by
/// one at most: the groups of the held-out scores, which depend on the split (`held_out.rs`).
fn groups(classes: usize) -> Vec<Range<usize>> {
    let groups = classes.div_ceil(dual::LANES);
    (0..groups)
        .map(|g| classes * g / groups..classes * (g + 1) / groups)
        .collect()
}

/// Row `i`'s dual variables over all classes, as kept in the reservoir.
fn row_alpha(solutions: &[Solution], i: usize) -> Vec<f32> {
    solutions
        .iter()
        .flat_map(|s| s.row_alpha(i))
        .map(|&a| a as f32)
        .collect()
}

/// Class `c`'s start for an update: the fixed weights plus what the kept rows (the first rows of
/// `x`) contribute with their dual variables; the new rows start at zero.
fn warm_start(
    x: &Matrix,
    labels: &[u32],
    kept: &[KeptRow],
    c: usize,
    mut weights: Vec<f64>,
) -> Start {
    let n = x.cols();
    let mut alpha = vec![0.0; labels.len()];
    for (i, k) in kept.iter().enumerate() {
        alpha[i] = f64::from(k.alpha[c]);
        let step = alpha[i] * target(k.label, c);
        let (indices, values) = row(x, i);
        for (&j, &v) in indices.iter().zip(values) {
            weights[j as usize] += step * v;
        }
        weights[n] += step;
    }
    Start { weights, alpha }
}

/// Offers rows `first..` of `x` to the reservoir with their dual variables.
fn keep_rows(
    reservoir: &mut Reservoir,
    x: &Matrix,
    labels: &[u32],
    solutions: &[Solution],
    first: usize,
) {
    for (i, &label) in labels.iter().enumerate().skip(first) {
        reservoir.offer(|| {
            let (indices, values) = row(x, i);
            KeptRow {
                indices: indices.to_vec().into(),
                values: values.iter().map(|&v| v as f32).collect(),
                label,
                alpha: row_alpha(solutions, i).into(),
            }
        });
    }
}

#[cfg(feature = "cluster")]
pub(crate) mod cocoa;
mod dual;
mod explain;
mod held_out;
mod objective;
mod params;
mod row;
#[cfg(test)]
mod tests;
