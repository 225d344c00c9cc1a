//! Dual coordinate descent (Hsieh et al. 2008) for several one-vs-rest problems at once.
//!
//! Every class's binary problem has the same rows; only the targets differ. A pass visits the
//! rows in one shared random order and, at each row, updates the dual variable of every class.
//! Weights are stored feature-major (`w[j * k + c]`), so a row's features are fetched once for
//! all `k` classes of a group instead of once per class: with bigrams most features are rare,
//! and fetching their weights dominated the time of a solver that ran one class at a time.
//!
//! Each class follows exactly the steps it would follow if solved alone with that order (its
//! margins are summed in the same order, its steps depend only on its own variables), so the
//! result does not depend on how the classes are split into groups, and therefore not on the
//! thread count. A class that meets the tolerance stops changing while the others go on.

use std::ops::Range;

use super::params::{Convergence, Loss, SvmParams, Targets};
use crate::error::Result;
use crate::model::random::SplitMix;
use crate::prefetch::prefetch;
use crate::vectorize::{fill_rows, for_each_renumbered, matrix_row, Matrix};

/// The rows that every class's problem shares, with their columns renumbered for the solver.
///
/// A pass reads and writes the weights of every non-zero, and with bigrams those weights fill
/// far more than a core's cache, so most of a pass is spent waiting for memory. Renumbering the
/// columns by how many rows hold them, most first, packs the weights of the frequent features,
/// which most non-zeros belong to, into a few cache lines that stay cached; each row is then
/// sorted by the new numbers, so its weights are visited in address order. On 20 Newsgroups'
/// bigrams the two made the solver 8% and then 10% faster. Only the order in which a row's
/// products are summed changes; the numbering is deterministic, so the results are too.
pub struct Rows<'a> {
    /// One row per example, in the caller's columns.
    pub x: &'a Matrix,
    /// The classes of each row.
    pub targets: Targets<'a>,
    /// ‖x_i‖² + 1 (the bias feature) per row.
    norms: Vec<f64>,
    /// `x` in the solver's columns.
    renumbered: Matrix,
    /// The solver's number of each of `x`'s columns.
    pub(super) solver_column: Vec<u32>,
}

impl<'a> Rows<'a> {
    /// Wraps `x` and its labels, computing the row norms and the renumbered rows once for every
    /// group.
    #[cfg(test)]
    pub fn new(x: &'a Matrix, labels: &'a [u32]) -> Result<Self> {
        Self::with_targets(x, Targets::Single(labels))
    }

    /// Wraps `x` and the classes of its rows, as [`Rows::new`] does.
    pub fn with_targets(x: &'a Matrix, targets: Targets<'a>) -> Result<Self> {
        let norms = x
            .outer_iterator()
            .map(|row| row.data().iter().map(|v| v * v).sum::<f64>() + 1.0)
            .collect();
        let solver_column = most_frequent_first(x);
        let length = |i: usize| x.indptr().outer_inds_sz(i).len();
        // Every column is kept, so a row's length is known without renumbering it first (as
        // `fill_renumbered` would).
        let renumbered = fill_rows(x.rows(), x.cols(), length, |range, out| {
            let row = |i: usize| matrix_row(x, i);
            for_each_renumbered(
                range,
                &solver_column,
                row,
                |_, _| {},
                |_, row| out.push(row),
            );
        })?;
        Ok(Rows {
            x,
            targets,
            norms,
            renumbered,
            solver_column,
        })
    }

    /// Row `i`'s decision values w·x_i + b in the lanes of `weights` (in the solver's columns,
    /// bias last).
    pub(super) fn margins(&self, i: usize, weights: &[[f64; LANES]]) -> [f64; LANES] {
        let (indices, values) = matrix_row(&self.renumbered, i);
        let mut margins = weights[weights.len() - 1];
        for (&j, &v) in indices.iter().zip(values) {
            let column = &weights[j as usize];
            (0..LANES).for_each(|c| margins[c] += column[c] * v);
        }
        margins
    }

    /// Takes row `i` out of the problems of the classes from `first` on: its part of `weights`
    /// (α_i y_i (x_i, 1)) is subtracted and its dual variables set to zero, which is where the
    /// dual of the other rows alone starts.
    pub(super) fn take_out(
        &self,
        i: usize,
        first: usize,
        weights: &mut [[f64; LANES]],
        alpha: &mut [f64; LANES],
    ) {
        let part: [f64; LANES] = std::array::from_fn(|c| match alpha[c] {
            0.0 => 0.0,
            a if self.targets.contains(i, first + c) => a,
            a => -a,
        });
        let (indices, values) = matrix_row(&self.renumbered, i);
        for (&j, &v) in indices.iter().zip(values) {
            let column = &mut weights[j as usize];
            (0..LANES).for_each(|c| column[c] -= part[c] * v);
        }
        let bias = weights.len() - 1;
        (0..LANES).for_each(|c| weights[bias][c] -= part[c]);
        *alpha = [0.0; LANES];
    }

    /// Asks for the first entries of row `i`, which the pass visits next. Rows come in random
    /// order, so the start of each is a cache miss that nothing else foresees; asked for while
    /// the row before is summed, solves of 20 Newsgroups' bigrams took about 15% less time
    /// (in-process repeats alternated with the solver without it). Asking for more than the
    /// first cache line of each array was slower.
    pub(super) fn prefetch_start(&self, i: usize) {
        let start = self.renumbered.indptr().outer_inds_sz(i).start;
        if let Some(index) = self.renumbered.indices().get(start) {
            prefetch(index);
            prefetch(&self.renumbered.data()[start]);
        }
    }
}

/// A number for each column of `x`: columns held by more rows get smaller numbers; ties keep
/// their order, so the numbering is deterministic.
fn most_frequent_first(x: &Matrix) -> Vec<u32> {
    let mut rows_with = vec![0u32; x.cols()];
    x.indices().iter().for_each(|&j| rows_with[j as usize] += 1);
    let mut by_count: Vec<u32> = (0..x.cols() as u32).collect();
    by_count.sort_by_key(|&j| std::cmp::Reverse(rows_with[j as usize]));
    let mut solver_column = vec![0u32; x.cols()];
    for (number, &j) in by_count.iter().enumerate() {
        solver_column[j as usize] = number as u32;
    }
    solver_column
}

/// Where one class's solve starts: weights (bias last) and the dual variables they come from.
/// Missing values are zero.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Start {
    /// w = Σ α_i y_i (x_i, 1), plus any fixed part from rows outside the problem.
    pub weights: Vec<f64>,
    /// One dual variable per row.
    pub alpha: Vec<f64>,
}

impl Start {
    /// All zero: training from scratch. Empty, so that twenty classes' cold starts over
    /// 20 Newsgroups' bigrams do not hold 52 MB of zeros while the groups are solved.
    pub(crate) fn cold() -> Self {
        Start::default()
    }
}

/// The solution of a group of classes.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The class ids solved.
    pub classes: Range<usize>,
    /// Feature-major weights, `weights[j * k + c]`, rounded to `f32` as the model keeps them, so
    /// that the groups finished first hold half the memory while the others run.
    pub weights: Vec<f32>,
    /// The `k` biases.
    pub bias: Vec<f64>,
    /// Row-major dual variables, `alpha[i * k + c]`.
    pub alpha: Vec<f64>,
    /// How each class's solve ended.
    pub convergence: Vec<Convergence>,
}

impl Solution {
    /// The dual variables of row `i`, one per class of the group.
    pub fn row_alpha(&self, i: usize) -> &[f64] {
        let k = self.classes.len();
        &self.alpha[i * k..(i + 1) * k]
    }
}

/// Per-pass bookkeeping of the classes of a group.
pub(super) struct Progress {
    /// Largest and smallest projected gradient seen in this pass, per class.
    pub(super) spread: Vec<(f64, f64)>,
    pub(super) convergence: Vec<Convergence>,
}

impl Progress {
    pub(super) fn new(k: usize) -> Self {
        let start = Convergence {
            iterations: 0,
            converged: false,
        };
        Progress {
            spread: vec![(f64::NEG_INFINITY, f64::INFINITY); k],
            convergence: vec![start; k],
        }
    }

    /// Closes pass `pass`; returns whether every class has met the tolerance.
    fn end_pass(&mut self, pass: usize, tolerance: f64) -> bool {
        for (state, spread) in self.convergence.iter_mut().zip(&mut self.spread) {
            if !state.converged {
                state.iterations = pass;
                state.converged = spread.0 - spread.1 <= tolerance;
            }
            *spread = (f64::NEG_INFINITY, f64::INFINITY);
        }
        self.convergence.iter().all(|state| state.converged)
    }
}

/// Classes solved together in one sweep: a feature's weights for them fill a cache line. Eight
/// trained 20 Newsgroups' default SVM in 2.77 s against 3.20 s for four (the same model; peak
/// memory 423 against 349 MiB, since each group's weights are twice as large) and Reuters-21578's
/// 90 labels in 0.30 s against 0.35 s; sixteen were no faster on Reuters and slower on 20
/// Newsgroups, whose 20 classes then leave one of two threads idle for part of the time.
pub const LANES: usize = 8;

/// Solves the binary problems of `classes` (class c against the rest; at most [`LANES`]) from
/// their starts, with the coordinate order drawn from `seed`. `after_pass` is called with the
/// dual variables (row-major, [`LANES`] per row, unused lanes zero) after every pass; tests use
/// it to watch the objective.
pub fn solve(
    rows: &Rows,
    classes: Range<usize>,
    params: &SvmParams,
    seed: u64,
    starts: Vec<Start>,
    mut after_pass: impl FnMut(&[[f64; LANES]]),
) -> Solution {
    let (k, n, m) = (classes.len(), rows.x.cols(), rows.targets.len());
    assert!(k <= LANES, "a group holds at most {LANES} classes");
    let (mut weights, mut alpha) = (vec![[0.0; LANES]; n + 1], vec![[0.0; LANES]; m]);
    for (c, start) in starts.into_iter().enumerate() {
        for (j, v) in start.weights.into_iter().enumerate() {
            let column = rows.solver_column.get(j).map_or(n, |&s| s as usize);
            weights[column][c] = v;
        }
        alpha
            .iter_mut()
            .zip(start.alpha)
            .for_each(|(a, v)| a[c] = v);
    }
    let mut order: Vec<usize> = (0..m).collect();
    let convergence = descend(
        rows,
        &classes,
        params,
        seed,
        (&mut weights, &mut alpha),
        &mut order,
        &mut after_pass,
    );
    solution(rows, classes, &weights, &alpha, convergence)
}

/// Passes of coordinate descent over the rows of `order` (shuffled again before each pass)
/// from the weights and dual variables given, until every class meets the tolerance or the
/// passes run out; rows outside `order` keep their dual variables. Returns how each class's
/// solve ended.
pub(super) fn descend(
    rows: &Rows,
    classes: &Range<usize>,
    params: &SvmParams,
    seed: u64,
    (weights, alpha): (&mut [[f64; LANES]], &mut [[f64; LANES]]),
    order: &mut [usize],
    after_pass: &mut impl FnMut(&[[f64; LANES]]),
) -> Vec<Convergence> {
    let mut pass = Pass::new(classes, params, 1.0);
    let mut progress = Progress::new(classes.len());
    let mut rng = SplitMix(seed);
    for iteration in 1..=params.max_iterations {
        rng.shuffle(order);
        for (position, &i) in order.iter().enumerate() {
            if let Some(&next) = order.get(position + 1) {
                rows.prefetch_start(next);
                prefetch(&alpha[next]);
            }
            pass.visit(rows, i, weights, &mut alpha[i], &mut progress);
        }
        after_pass(alpha);
        if progress.end_pass(iteration, params.tolerance) {
            break;
        }
    }
    progress.convergence
}

/// The solution of `classes` from the solver's weights (in its columns, bias last) and dual
/// variables.
pub(super) fn solution(
    rows: &Rows,
    classes: Range<usize>,
    weights: &[[f64; LANES]],
    alpha: &[[f64; LANES]],
    convergence: Vec<Convergence>,
) -> Solution {
    let (k, n) = (classes.len(), weights.len() - 1);
    let bias = weights[n][..k].to_vec();
    Solution {
        weights: rows
            .solver_column
            .iter()
            .flat_map(|&s| &weights[s as usize][..k])
            .map(|&w| w as f32)
            .collect(),
        bias,
        alpha: alpha.iter().flat_map(|a| &a[..k]).copied().collect(),
        classes,
        convergence,
    }
}

/// How many entries ahead of the one being summed the margin loop asks for a row's weights.
///
/// The weights of the rare features miss every cache, and the loop waited for them one at a
/// time: half of the solver's samples sat on that load. Asked for this far ahead, they arrive
/// while earlier entries are summed; solves of 20 Newsgroups' bigrams took 15–25% less time
/// (in-process repeats alternated with the solver without it; 24 entries ahead gained about as
/// much).
const PREFETCH_AHEAD: usize = 48;

/// The upper bound of a dual variable (C for hinge, unbounded for squared hinge) and what the
/// loss adds to the Hessian's diagonal (0 for hinge, 1/(2C) for squared hinge).
pub(super) fn loss_constants(params: &SvmParams) -> (f64, f64) {
    match params.loss {
        Loss::Hinge => (params.c, 0.0),
        Loss::SquaredHinge => (f64::INFINITY, 0.5 / params.c),
    }
}

/// Σα − ½·`diagonal`·Σα² over the dual variables `alpha` of one class.
pub(super) fn alpha_part(alpha: impl Iterator<Item = f64>, diagonal: f64) -> f64 {
    let (sum, squares) = alpha.fold((0.0, 0.0), |(s, q), a| (s + a, q + a * a));
    sum - 0.5 * diagonal * squares
}

/// Each class's Σα − ½·D·Σα² over the rows of the groups' solutions.
pub(super) fn solution_parts(solutions: &[Solution], params: &SvmParams) -> Vec<f64> {
    let diagonal = loss_constants(params).1;
    let parts = solutions.iter().flat_map(|solution| {
        let k = solution.classes.len();
        (0..k).map(move |c| {
            let alpha = solution.alpha.iter().skip(c).step_by(k).copied();
            alpha_part(alpha, diagonal)
        })
    });
    parts.collect()
}

/// The loss's constants and the state of the group's lanes.
pub(super) struct Pass {
    first_class: usize,
    /// Upper bound of a dual variable: C for hinge, unbounded for squared hinge.
    upper: f64,
    /// Added to the Hessian's diagonal: 0 for hinge, 1/(2C) for squared hinge.
    diagonal: f64,
    /// Lanes beyond the group's classes, or whose class has converged, take no steps.
    running: [bool; LANES],
    /// How much a step counts in the weights the margins are computed from: 1 for one
    /// process; CoCoA+'s σ' (the number of workers) for a worker's local subproblem (see
    /// `cocoa.rs`), which scales the curvature of every coordinate and each step's effect on
    /// the local weights.
    sigma: f64,
}

impl Pass {
    pub(super) fn new(classes: &Range<usize>, params: &SvmParams, sigma: f64) -> Self {
        let (upper, diagonal) = loss_constants(params);
        Pass {
            first_class: classes.start,
            upper,
            diagonal,
            running: std::array::from_fn(|c| c < classes.len()),
            sigma,
        }
    }

    /// Updates row `i`'s dual variable in every class still running, and the weights with them.
    pub(super) fn visit(
        &mut self,
        rows: &Rows,
        i: usize,
        weights: &mut [[f64; LANES]],
        alpha: &mut [f64; LANES],
        progress: &mut Progress,
    ) {
        let (indices, values) = matrix_row(&rows.renumbered, i);
        let bias = weights.len() - 1;
        let mut margins = weights[bias];
        for (k, (&j, &v)) in indices.iter().zip(values).enumerate() {
            if let Some(&ahead) = indices.get(k + PREFETCH_AHEAD) {
                prefetch(&weights[ahead as usize]);
            }
            let column = &weights[j as usize];
            (0..LANES).for_each(|c| margins[c] += column[c] * v);
        }
        let mut steps = [0.0; LANES];
        for c in 0..LANES {
            self.running[c] &= c < progress.convergence.len() && !progress.convergence[c].converged;
            if self.running[c] {
                steps[c] = self.step(
                    rows,
                    i,
                    c,
                    margins[c],
                    &mut alpha[c],
                    &mut progress.spread[c],
                );
            }
        }
        if steps.iter().any(|&s| s != 0.0) {
            let scaled = steps.map(|s| s * self.sigma);
            for (&j, &v) in indices.iter().zip(values) {
                let column = &mut weights[j as usize];
                (0..LANES).for_each(|c| column[c] += scaled[c] * v);
            }
            (0..LANES).for_each(|c| weights[bias][c] += scaled[c]);
        }
    }

    /// One coordinate step of class lane `c` at row `i`: updates its dual variable and the
    /// pass's spread of projected gradients; returns the change of α·y (0 when none).
    fn step(
        &self,
        rows: &Rows,
        i: usize,
        c: usize,
        margin: f64,
        alpha: &mut f64,
        spread: &mut (f64, f64),
    ) -> f64 {
        let y = if rows.targets.contains(i, self.first_class + c) {
            1.0
        } else {
            -1.0
        };
        let gradient = y * margin - 1.0 + self.diagonal * *alpha;
        let projected = if *alpha == 0.0 {
            gradient.min(0.0)
        } else if *alpha == self.upper {
            gradient.max(0.0)
        } else {
            gradient
        };
        *spread = (spread.0.max(projected), spread.1.min(projected));
        if projected.abs() <= 1e-12 {
            return 0.0;
        }
        let old = *alpha;
        let curvature = self.sigma * rows.norms[i] + self.diagonal;
        *alpha = (old - gradient / curvature).clamp(0.0, self.upper);
        (*alpha - old) * y
    }
}
