//! CoCoA+ (Ma et al. 2015, "Adding vs. averaging in distributed primal-dual optimization", after
//! Jaggi et al. 2014): the dual problem of [`LinearSvm`] split by rows over K workers, each of
//! which holds some of the training rows.
//!
//! Every worker keeps the dual variables of its own rows and the shared weights w on the columns
//! its rows use. A round is one pass of dual coordinate descent over the worker's rows, on
//! CoCoA+'s local subproblem with σ' = K: a row's margin is taken against w + σ'·Δw_k, where Δw_k
//! is what this worker's steps have added in the round, and each coordinate's curvature is
//! σ'‖x_i‖² + D_ii. That subproblem bounds the change of the whole dual objective when the K
//! workers' Δw_k are *added* to w (not averaged), so every round adds the sum of the Δw_k to every
//! worker's w, and the dual objective rises round after round as one process's does pass after
//! pass. That step is safe for any split of the rows, but charges each worker for what the others
//! might do along the same columns; worker 0 then takes each class's step as many times as
//! maximizes the dual objective along it ([`Coordinator::scales`]), within the bounds of the
//! dual variables.
//!
//! A class stops when its duality gap is within [`DUALITY_GAP`] of its primal objective, which
//! bounds how far its dual objective can be from the optimum, and so from one process's.

use std::ops::Range;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::dual::{alpha_part, loss_constants, Pass, Progress, Rows, LANES};
use super::{Convergence, LinearSvm, Loss, SvmParams, Targets};
use crate::error::{Error, Result};
use crate::model::random::SplitMix;
use crate::model::reservoir::Reservoir;
use crate::vectorize::Matrix;

/// One worker's share of a distributed solve: its rows and their dual variables, and the shared
/// weights on its columns.
pub(crate) struct LocalProblem<'a> {
    rows: Rows<'a>,
    groups: Vec<Group>,
    classes: usize,
    diagonal: f64,
    upper: f64,
    c: f64,
    squared: bool,
}

/// The classes solved together in one sweep of the rows (at most [`LANES`]), as in `dual.rs`.
struct Group {
    classes: Range<usize>,
    pass: Pass<LANES>,
    progress: Progress,
    /// The shared weights w as this worker knows them, in the solver's columns, bias last.
    shared: Vec<[f64; LANES]>,
    /// The round's subproblem weights, w + σ'·Δw_k, in the solver's columns, bias last.
    local: Vec<[f64; LANES]>,
    /// The dual variables of this worker's rows.
    alpha: Vec<[f64; LANES]>,
    /// The dual variables at the round's start, from which the round's step is scaled.
    before: Vec<[f64; LANES]>,
    order: Vec<usize>,
    random: SplitMix,
    sigma: f64,
}

impl<'a> LocalProblem<'a> {
    /// The subproblem of a worker holding rows `x` with class ids `labels` (of `classes`), in a
    /// solve over `workers` workers, starting from zero; `seed` draws its coordinate orders.
    pub(crate) fn new(
        x: &'a Matrix,
        labels: &'a [u32],
        classes: usize,
        params: &SvmParams,
        workers: usize,
        seed: u64,
    ) -> Result<Self> {
        params.validate()?;
        if workers == 0 {
            return Err(Error::Config("a distributed solve needs a worker".into()));
        }
        let rows = Rows::with_every_column(x, Targets::Single(labels))?;
        let (n, m) = (x.cols(), labels.len());
        let groups = classes.div_ceil(LANES);
        let groups = (0..groups)
            .map(|g| {
                let range = classes * g / groups..classes * (g + 1) / groups;
                Group {
                    pass: Pass::new(&range, params, workers as f64),
                    progress: Progress::new(range.len()),
                    classes: range,
                    shared: vec![[0.0; LANES]; n + 1],
                    local: vec![[0.0; LANES]; n + 1],
                    alpha: vec![[0.0; LANES]; m],
                    before: vec![[0.0; LANES]; m],
                    order: (0..m).collect(),
                    random: SplitMix(seed),
                    sigma: workers as f64,
                }
            })
            .collect();
        Ok(LocalProblem {
            rows,
            groups,
            classes,
            diagonal: loss_constants(params).1,
            upper: loss_constants(params).0,
            c: params.c,
            squared: params.loss == Loss::SquaredHinge,
        })
    }

    /// Classes solved.
    pub(crate) fn classes(&self) -> usize {
        self.classes
    }

    /// Runs one round of `passes` passes over this worker's rows (for the classes still
    /// running) and returns Δw_k, feature-major over this worker's columns and then the bias:
    /// `delta[j * classes + c]`.
    pub(crate) fn round(&mut self, passes: usize) -> Vec<f32> {
        let rows = &self.rows;
        self.groups
            .par_iter_mut()
            .for_each(|g| g.passes(rows, passes));
        let (n, k) = (self.rows.x.cols(), self.classes);
        let mut delta = vec![0.0f32; (n + 1) * k];
        for g in &self.groups {
            for (j, slots) in delta.chunks_exact_mut(k).enumerate() {
                let s = self.solver_column(j);
                for (lane, c) in g.classes.clone().enumerate() {
                    slots[c] = ((g.local[s][lane] - g.shared[s][lane]) / g.sigma) as f32;
                }
            }
        }
        delta
    }

    /// The solver's column of this worker's column `j` (the bias after the last).
    fn solver_column(&self, j: usize) -> usize {
        let solver = &self.rows.solver_column;
        solver.get(j).map_or(solver.len(), |&s| s as usize)
    }

    /// What the dual objective of this worker's rows does along the round's step, per class,
    /// for [`Coordinator::scales`].
    pub(crate) fn step_terms(&self) -> Vec<StepTerms> {
        let terms = self.groups.iter().flat_map(|g| {
            (0..g.classes.len()).map(move |lane| {
                let mut terms = StepTerms::default();
                for (now, then) in g.alpha.iter().zip(&g.before) {
                    terms.add(then[lane], now[lane] - then[lane], self.upper);
                }
                terms
            })
        });
        terms.collect()
    }

    /// Ends the round: the step of each class `c` is taken `scales[c]` times (its dual
    /// variables move that far from where the round started, and `sum`, the round's summed Δw
    /// as [`LocalProblem::round`] lays it out, is added that many times to the shared weights);
    /// the classes `converged` marks take no more steps.
    pub(crate) fn apply(&mut self, sum: &[f32], scales: &[f64], converged: &[bool]) {
        let k = self.classes;
        let columns: Vec<usize> = (0..sum.len() / k.max(1))
            .map(|j| self.solver_column(j))
            .collect();
        for g in &mut self.groups {
            let range = g.classes.clone();
            for (slots, &s) in sum.chunks_exact(k).zip(&columns) {
                for (lane, c) in range.clone().enumerate() {
                    g.shared[s][lane] += scales[c] * f64::from(slots[c]);
                }
            }
            for (now, then) in g.alpha.iter_mut().zip(&g.before) {
                for (lane, c) in range.clone().enumerate() {
                    now[lane] = then[lane] + scales[c] * (now[lane] - then[lane]);
                }
            }
            for (lane, c) in range.enumerate() {
                g.progress.convergence[lane].converged |= converged[c];
            }
        }
    }

    /// Each class's loss over this worker's rows at the shared weights, C·Σ max(0, 1 − y·w·x)
    /// (squared for the squared hinge): with the dual parts, what the duality gap is made of.
    pub(crate) fn losses(&self) -> Vec<f64> {
        let rows = &self.rows;
        let per_group: Vec<Vec<f64>> = (self.groups.par_iter())
            .map(|g| {
                let k = g.classes.len();
                let mut losses = vec![0.0; k];
                for i in 0..rows.targets.len() {
                    let margins = rows.margins(i, &g.shared);
                    for (lane, c) in g.classes.clone().enumerate() {
                        let y = if rows.targets.contains(i, c) {
                            1.0
                        } else {
                            -1.0
                        };
                        let hinge = (1.0 - y * margins[lane]).max(0.0);
                        losses[lane] += if self.squared { hinge * hinge } else { hinge };
                    }
                }
                losses.iter().map(|l| self.c * l).collect()
            })
            .collect();
        per_group.concat()
    }

    /// Each class's part of the dual objective from this worker's rows: Σα − ½·D·Σα².
    pub(crate) fn dual_parts(&self) -> Vec<f64> {
        let parts = self.groups.iter().flat_map(|g| {
            (0..g.classes.len())
                .map(|lane| alpha_part(g.alpha.iter().map(|a| a[lane]), self.diagonal))
        });
        parts.collect()
    }

    /// Row `i`'s dual variables over all classes, as a reservoir keeps them.
    pub(crate) fn row_alpha(&self, i: usize) -> Vec<f32> {
        let lanes = self
            .groups
            .iter()
            .flat_map(|g| &g.alpha[i][..g.classes.len()]);
        lanes.map(|&a| a as f32).collect()
    }
}

impl Group {
    /// `passes` passes over the rows, each in a fresh random order, from the shared weights.
    fn passes(&mut self, rows: &Rows, passes: usize) {
        self.local.copy_from_slice(&self.shared);
        self.before.copy_from_slice(&self.alpha);
        if self
            .progress
            .convergence
            .iter()
            .all(|state| state.converged)
        {
            return;
        }
        for _ in 0..passes {
            self.random.shuffle(&mut self.order);
            for (position, &i) in self.order.iter().enumerate() {
                if let Some(&next) = self.order.get(position + 1) {
                    rows.prefetch_start(next);
                }
                let alpha = &mut self.alpha[i];
                self.pass
                    .visit(rows, i, &mut self.local, alpha, &mut self.progress);
            }
        }
    }
}

/// Sums over rows of one class's dual variables α (at the round's start) and their step Δα:
/// along the step scaled by t, the dual objective is a quadratic in t that these, with the
/// summed Δw, describe.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub(crate) struct StepTerms {
    /// ΣΔα.
    pub moved: f64,
    /// Σα·Δα.
    pub cross: f64,
    /// ΣΔα².
    pub squares: f64,
    /// The largest t that keeps every α + t·Δα within its bounds.
    pub room: f64,
}

impl Default for StepTerms {
    fn default() -> Self {
        StepTerms {
            moved: 0.0,
            cross: 0.0,
            squares: 0.0,
            room: f64::INFINITY,
        }
    }
}

impl StepTerms {
    /// Counts one row's α and Δα, under the upper bound `upper`.
    fn add(&mut self, alpha: f64, step: f64, upper: f64) {
        self.moved += step;
        self.cross += alpha * step;
        self.squares += step * step;
        if step < 0.0 {
            self.room = self.room.min(alpha / -step);
        } else if step > 0.0 && upper.is_finite() {
            self.room = self.room.min((upper - alpha) / step);
        }
    }

    /// These terms and `other`'s, of other rows.
    pub(crate) fn and(self, other: StepTerms) -> StepTerms {
        StepTerms {
            moved: self.moved + other.moved,
            cross: self.cross + other.cross,
            squares: self.squares + other.squares,
            room: self.room.min(other.room),
        }
    }
}

/// What worker 0 keeps of a distributed solve: the shared weights over every column, which it
/// adds each round's summed Δw to as every worker does, and which classes have stopped.
pub(crate) struct Coordinator {
    params: SvmParams,
    features: usize,
    /// Feature-major over every column and then the bias, `weights[j * classes + c]`.
    weights: Vec<f64>,
    convergence: Vec<Convergence>,
}

/// A class stops when its duality gap, the primal objective less the dual, is within this part
/// of its primal objective. Since the dual objective of any solve is at most the optimum, which
/// is at most the primal objective, the dual objective reached is then within this part of the
/// one one process reaches, whatever that process's own tolerance.
pub(crate) const DUALITY_GAP: f64 = 5e-4;

impl Coordinator {
    /// A solve over `features` columns and `classes` classes, from zero.
    pub(crate) fn new(features: usize, classes: usize, params: SvmParams) -> Self {
        let start = Convergence {
            iterations: 0,
            converged: false,
        };
        Coordinator {
            params,
            features,
            weights: vec![0.0; (features + 1) * classes],
            convergence: vec![start; classes],
        }
    }

    /// Which classes have stopped.
    pub(crate) fn converged(&self) -> Vec<bool> {
        self.convergence.iter().map(|c| c.converged).collect()
    }

    /// Whether every class has stopped or `round` reached the round cap.
    pub(crate) fn done(&self, round: usize) -> bool {
        round >= self.params.max_iterations || self.convergence.iter().all(|c| c.converged)
    }

    /// Judges the state after round `round` − 1 from every worker's losses and dual parts at it,
    /// summed ([`LocalProblem::losses`], [`LocalProblem::dual_parts`]): a class whose duality
    /// gap is within [`DUALITY_GAP`] stops, counted as stopped after `round` (whose steps are
    /// taken all the same).
    pub(crate) fn judge(&mut self, round: usize, losses: &[f64], parts: &[f64]) {
        let norms = self.squared_norms();
        for (c, state) in self.convergence.iter_mut().enumerate() {
            if state.converged {
                continue;
            }
            let primal = 0.5 * norms[c] + losses[c];
            let dual = parts[c] - 0.5 * norms[c];
            state.iterations = round;
            state.converged = primal - dual <= DUALITY_GAP * primal.abs();
        }
    }

    /// Each class's ‖w‖², bias included.
    fn squared_norms(&self) -> Vec<f64> {
        let k = self.convergence.len();
        let mut norms = vec![0.0; k];
        for row in self.weights.chunks_exact(k.max(1)) {
            (norms.iter_mut().zip(row)).for_each(|(n, &w)| *n += w * w);
        }
        norms
    }

    /// How many times to take each class's step, given the round's summed Δw (over every column
    /// as [`Coordinator::new`] lays them out) and the workers' [`StepTerms`] summed: the t that
    /// maximizes the dual objective along the step, within the bounds of the dual variables.
    /// CoCoA+'s step (t = 1) is safe but charges each worker for what the others might do along
    /// the same columns; where the workers' rows share few columns, t comes out near the number
    /// of workers, and the rounds as few as one process's passes.
    pub(crate) fn scales(&self, sum: &[f32], terms: &[StepTerms]) -> Vec<f64> {
        let k = self.convergence.len();
        let (mut along, mut squared) = (vec![0.0; k], vec![0.0; k]);
        for (w, s) in self
            .weights
            .chunks_exact(k.max(1))
            .zip(sum.chunks_exact(k.max(1)))
        {
            for c in 0..k {
                let s = f64::from(s[c]);
                along[c] += w[c] * s;
                squared[c] += s * s;
            }
        }
        let diagonal = loss_constants(&self.params).1;
        (terms.iter().enumerate())
            .map(|(c, t)| {
                let slope = t.moved - diagonal * t.cross - along[c];
                let curvature = diagonal * t.squares + squared[c];
                if curvature > 0.0 && slope > 0.0 {
                    (slope / curvature).min(t.room)
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// Adds a round's summed Δw, each class's `scales[c]` times, over every column as
    /// [`Coordinator::new`] lays them out.
    pub(crate) fn add(&mut self, sum: &[f32], scales: &[f64]) {
        let k = self.convergence.len();
        for (w, s) in self
            .weights
            .chunks_exact_mut(k.max(1))
            .zip(sum.chunks_exact(k.max(1)))
        {
            (0..k).for_each(|c| w[c] += scales[c] * f64::from(s[c]));
        }
    }

    /// The SVM reached, with each class's dual objective from the dual parts of every worker
    /// summed, and `reservoir` kept for updates.
    pub(crate) fn finish(
        self,
        parts: &[f64],
        reservoir: Reservoir,
    ) -> Result<(LinearSvm, Vec<f64>)> {
        let k = self.convergence.len();
        let bias = self.weights[self.features * k..].to_vec();
        let mut weights = self.weights;
        weights.truncate(self.features * k);
        let svm = LinearSvm {
            params: self.params,
            features: self.features,
            weights: weights.into_iter().map(|w| w as f32).collect(),
            bias,
            convergence: self.convergence,
            calibration: None,
            reservoir,
        };
        svm.check()?;
        let objectives = svm.dual_objectives(parts);
        Ok((svm, objectives))
    }
}
