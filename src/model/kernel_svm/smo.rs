//! Sequential minimal optimization for the binary C-SVC dual, as LIBSVM solves it (Chang and Lin
//! 2011): minimize `½·αᵀQα − Σα` subject to `yᵀα = 0` and `0 ≤ α_i ≤ C`, with
//! Q_ij = y_i·y_j·K(x_i, x_j). The solver reads rows of K, shared by every class's problem, and
//! applies the signs itself. Each step changes two variables: the first is the most
//! violating one, the second the one that, with it, decreases the objective most by a
//! second-order estimate (Fan, Chen and Lin 2005, "WSS 2"). The solver stops when the largest
//! violation of the optimality conditions falls below `eps` (LIBSVM's 1e-3 by default).
//!
//! Shrinking follows LIBSVM: every min(l, 1000) steps, variables at a bound whose gradient
//! says they will stay there leave the active set, so that steps and kernel rows cost only the
//! active rows; Ḡ, the gradient's part from variables at the upper bound, lets the full gradient
//! be rebuilt cheaply before the end. Unlike LIBSVM the rows are not renumbered when they
//! leave: the active set is a list of row numbers, and a kernel row has every row's entry, so
//! rows that come back need nothing computed (see `gram.rs`).

use super::gram::Gram;

/// LIBSVM's floor for a non-positive curvature along the chosen direction.
const TAU: f64 = 1e-12;

/// What the solver is asked to do.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Settings {
    /// The upper bound C of every variable.
    pub c: f64,
    /// Stopping tolerance on the largest violation.
    pub eps: f64,
    /// Whether to shrink the active set.
    pub shrinking: bool,
}

/// The solution of one binary problem.
#[derive(Debug, Clone)]
pub(crate) struct BinarySolution {
    /// α_i per training row.
    pub alpha: Vec<f64>,
    /// The offset: the decision is Σ y_i·α_i·K(x_i, x) − ρ.
    pub rho: f64,
    /// The dual objective Σα − ½·αᵀQα (the negative of LIBSVM's `obj`).
    pub objective: f64,
    /// Steps taken.
    pub iterations: usize,
    /// Whether the tolerance was met before LIBSVM's step cap, max(10⁷, 100·l).
    pub converged: bool,
}

struct Smo<'a> {
    gram: Gram<'a>,
    y: &'a [f64],
    diagonal: Vec<f64>,
    alpha: Vec<f64>,
    /// The gradient Qα − 1, kept exact on the active rows.
    g: Vec<f64>,
    /// Ḡ_i = C·Σ_{j at the upper bound} Q_ij, exact on every row.
    g_bar: Vec<f64>,
    active: Vec<usize>,
    all: Vec<usize>,
    settings: Settings,
    unshrunk: bool,
}

/// Solves the problem of `gram` with targets `y` (±1) from the dual variables `alpha`: zeros
/// to train from scratch, or any feasible α (yᵀα = 0, each in [0, C]) for a warm start, as
/// LIBSVM's solver starts from any feasible α. The gradient is built from the rows with α_i > 0
/// before the first step.
pub(crate) fn solve_from(
    gram: Gram<'_>,
    y: &[f64],
    settings: Settings,
    alpha: Vec<f64>,
) -> BinarySolution {
    let l = y.len();
    let diagonal = (0..l).map(|i| gram.diagonal(i)).collect();
    let mut smo = Smo {
        gram,
        y,
        diagonal,
        alpha,
        g: vec![-1.0; l],
        g_bar: vec![0.0; l],
        active: (0..l).collect(),
        all: (0..l).collect(),
        settings,
        unshrunk: false,
    };
    smo.initial_gradient();
    let (iterations, converged) = smo.run();
    smo.finish(iterations, converged)
}

impl Smo<'_> {
    fn upper(&self, i: usize) -> bool {
        self.alpha[i] >= self.settings.c
    }

    fn lower(&self, i: usize) -> bool {
        self.alpha[i] <= 0.0
    }

    /// G = Qα − 1 and Ḡ from the starting α: one kernel row per variable above zero, none when
    /// starting from zero.
    fn initial_gradient(&mut self) {
        for i in 0..self.y.len() {
            if self.lower(i) {
                continue;
            }
            self.gram.fill(i);
            let (ki, weight) = (self.gram.row(i), self.alpha[i] * self.y[i]);
            let bound = if self.upper(i) { self.settings.c } else { 0.0 } * self.y[i];
            let rows = self
                .g
                .iter_mut()
                .zip(&mut self.g_bar)
                .zip(ki.iter().zip(self.y));
            for ((g, g_bar), (&k, &y)) in rows {
                *g += weight * y * f64::from(k);
                *g_bar += bound * y * f64::from(k);
            }
        }
    }

    /// LIBSVM's main loop; returns the steps taken and whether the tolerance was met.
    fn run(&mut self) -> (usize, bool) {
        let l = self.y.len();
        let cap = (100 * l).max(10_000_000);
        let mut counter = l.min(1000) + 1;
        let mut iterations = 0;
        while iterations < cap {
            counter -= 1;
            if counter == 0 {
                counter = l.min(1000);
                if self.settings.shrinking {
                    self.shrink();
                }
            }
            let pair = match self.select() {
                Some(pair) => pair,
                None => {
                    // The active set is optimal; check against every row before stopping.
                    self.reconstruct_gradient();
                    self.active.clone_from(&self.all);
                    match self.select() {
                        Some(pair) => {
                            counter = 1;
                            pair
                        }
                        None => return (iterations, true),
                    }
                }
            };
            iterations += 1;
            self.step(pair);
        }
        (iterations, false)
    }

    /// WSS 2: the maximal violating i, then the j of largest second-order decrease with it; None
    /// when the violation is below the tolerance.
    fn select(&mut self) -> Option<(usize, usize)> {
        let (mut gmax, mut first) = (f64::NEG_INFINITY, None);
        for &t in &self.active {
            let violation = if self.y[t] > 0.0 {
                (!self.upper(t)).then(|| -self.g[t])
            } else {
                (!self.lower(t)).then(|| self.g[t])
            };
            if let Some(v) = violation.filter(|&v| v >= gmax) {
                gmax = v;
                first = Some(t);
            }
        }
        let i = first?;
        self.gram.fill(i);
        let ki = self.gram.row(i);
        let (mut gmax2, mut second, mut best) = (f64::NEG_INFINITY, None, f64::INFINITY);
        for &j in &self.active {
            let (grad_diff, j) = if self.y[j] > 0.0 {
                if self.lower(j) {
                    continue;
                }
                gmax2 = gmax2.max(self.g[j]);
                (gmax + self.g[j], j)
            } else {
                if self.upper(j) {
                    continue;
                }
                gmax2 = gmax2.max(-self.g[j]);
                (gmax - self.g[j], j)
            };
            if grad_diff > 0.0 {
                // Q_ii + Q_jj − 2·y_i·y_j·Q_ij, which is the same for either sign of y_j.
                let quad = self.diagonal[i] + self.diagonal[j] - 2.0 * f64::from(ki[j]);
                let decrease = -(grad_diff * grad_diff) / if quad > 0.0 { quad } else { TAU };
                if decrease <= best {
                    best = decrease;
                    second = Some(j);
                }
            }
        }
        if gmax + gmax2 < self.settings.eps {
            return None;
        }
        second.map(|j| (i, j))
    }

    /// Optimizes α_i and α_j together and updates the gradients.
    fn step(&mut self, (i, j): (usize, usize)) {
        self.gram.fill(i);
        self.gram.fill(j);
        let (old_i, old_j) = (self.alpha[i], self.alpha[j]);
        let (ki, kj) = (self.gram.row(i), self.gram.row(j));
        let pair = Pair {
            opposite: self.y[i] != self.y[j],
            alpha: (old_i, old_j),
            gradient: (self.g[i], self.g[j]),
            curvature: (
                self.diagonal[i],
                self.diagonal[j],
                self.y[i] * self.y[j] * f64::from(ki[j]),
            ),
        };
        let (new_i, new_j) = pair.optimize(self.settings.c);
        // Q_ik·Δα_i + Q_jk·Δα_j = y_k·(y_i·Δα_i·K_ik + y_j·Δα_j·K_jk).
        let (di, dj) = (self.y[i] * (new_i - old_i), self.y[j] * (new_j - old_j));
        for &k in &self.active {
            self.g[k] += self.y[k] * (f64::from(ki[k]) * di + f64::from(kj[k]) * dj);
        }
        let (was_upper_i, was_upper_j) = (self.upper(i), self.upper(j));
        self.alpha[i] = new_i;
        self.alpha[j] = new_j;
        self.track_upper(i, was_upper_i);
        self.track_upper(j, was_upper_j);
    }

    /// Keeps Ḡ exact when α_i reaches or leaves the upper bound.
    fn track_upper(&mut self, i: usize, was_upper: bool) {
        if self.upper(i) == was_upper {
            return;
        }
        self.gram.fill(i);
        let c = if was_upper {
            -self.settings.c
        } else {
            self.settings.c
        } * self.y[i];
        let ki = self.gram.row(i);
        (self.g_bar.iter_mut().zip(ki).zip(self.y))
            .for_each(|((g, &k), y)| *g += c * y * f64::from(k));
    }

    /// Whether row `i` may leave the active set, given the largest violations `gmax1` (of the
    /// rows that may go up) and `gmax2` (of those that may go down).
    fn removable(&self, i: usize, gmax1: f64, gmax2: f64) -> bool {
        let positive = self.y[i] > 0.0;
        if self.upper(i) {
            -self.g[i] > if positive { gmax1 } else { gmax2 }
        } else if self.lower(i) {
            self.g[i] > if positive { gmax2 } else { gmax1 }
        } else {
            false
        }
    }

    /// Removes from the active set the rows that will stay at their bound; the first time the
    /// violation comes within 10·eps, every row comes back once, as in LIBSVM.
    fn shrink(&mut self) {
        let (mut gmax1, mut gmax2) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for &i in &self.active {
            let (up, down) = if self.y[i] > 0.0 {
                (&mut gmax1, &mut gmax2)
            } else {
                (&mut gmax2, &mut gmax1)
            };
            if !self.upper(i) {
                *up = up.max(-self.g[i]);
            }
            if !self.lower(i) {
                *down = down.max(self.g[i]);
            }
        }
        if !self.unshrunk && gmax1 + gmax2 <= self.settings.eps * 10.0 {
            self.unshrunk = true;
            self.reconstruct_gradient();
            self.active.clone_from(&self.all);
        }
        let mut active = std::mem::take(&mut self.active);
        active.retain(|&i| !self.removable(i, gmax1, gmax2));
        self.active = active;
    }

    /// Makes the gradient exact on the rows outside the active set, from Ḡ and the free
    /// variables, choosing the cheaper of LIBSVM's two loop orders.
    fn reconstruct_gradient(&mut self) {
        let l = self.y.len();
        if self.active.len() == l {
            return;
        }
        let mut is_active = vec![false; l];
        self.active.iter().for_each(|&i| is_active[i] = true);
        let inactive: Vec<usize> = (0..l).filter(|&i| !is_active[i]).collect();
        for &j in &inactive {
            self.g[j] = self.g_bar[j] - 1.0;
        }
        let free: Vec<usize> = (self.active.iter().copied())
            .filter(|&j| !self.upper(j) && !self.lower(j))
            .collect();
        if free.len() * l > 2 * self.active.len() * inactive.len() {
            for &i in &inactive {
                self.gram.fill(i);
                let ki = self.gram.row(i);
                let sum: f64 = (free.iter())
                    .map(|&j| self.alpha[j] * self.y[j] * f64::from(ki[j]))
                    .sum();
                self.g[i] += self.y[i] * sum;
            }
        } else {
            for &i in &free {
                self.gram.fill(i);
                let (ki, weight) = (self.gram.row(i), self.alpha[i] * self.y[i]);
                (inactive.iter()).for_each(|&j| self.g[j] += weight * self.y[j] * f64::from(ki[j]));
            }
        }
    }

    /// The solution, with ρ and the objective taken from the full gradient.
    fn finish(mut self, iterations: usize, converged: bool) -> BinarySolution {
        self.reconstruct_gradient();
        let rho = self.rho();
        let half: f64 = (self.alpha.iter().zip(&self.g))
            .map(|(a, g)| a * (g - 1.0))
            .sum::<f64>()
            / 2.0;
        BinarySolution {
            alpha: self.alpha,
            rho,
            objective: -half,
            iterations,
            converged,
        }
    }

    /// ρ: the mean of y_i·G_i over the free variables, or the middle of the interval the bounded
    /// ones allow when none is free (LIBSVM's `calculate_rho`).
    fn rho(&self) -> f64 {
        let (mut upper, mut lower) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut free, mut sum) = (0usize, 0.0);
        for i in 0..self.y.len() {
            let yg = self.y[i] * self.g[i];
            let positive = self.y[i] > 0.0;
            if (self.upper(i) && !positive) || (self.lower(i) && positive) {
                upper = upper.min(yg);
            } else if self.upper(i) || self.lower(i) {
                lower = lower.max(yg);
            } else {
                free += 1;
                sum += yg;
            }
        }
        match (free, upper.is_finite(), lower.is_finite()) {
            (1.., _, _) => sum / free as f64,
            (0, true, true) => (upper + lower) / 2.0,
            // One class only: any ρ on the allowed side will do; its bound is the natural one.
            (0, true, false) => upper,
            (0, false, true) => lower,
            (0, false, false) => 0.0,
        }
    }
}

/// Two variables of one step, with their gradients and the curvature Q_ii, Q_jj, Q_ij.
struct Pair {
    opposite: bool,
    alpha: (f64, f64),
    gradient: (f64, f64),
    curvature: (f64, f64, f64),
}

impl Pair {
    /// The two variables' new values: the unconstrained optimum along the feasible direction,
    /// clipped to the box [0, C]² (LIBSVM's update, with C the same for both classes).
    fn optimize(&self, c: f64) -> (f64, f64) {
        let ((mut ai, mut aj), (gi, gj), (qii, qjj, qij)) =
            (self.alpha, self.gradient, self.curvature);
        if self.opposite {
            let quad = positive_or_tau(qii + qjj + 2.0 * qij);
            let delta = (-gi - gj) / quad;
            let diff = ai - aj;
            ai += delta;
            aj += delta;
            if diff > 0.0 && aj < 0.0 {
                (ai, aj) = (diff, 0.0);
            } else if diff <= 0.0 && ai < 0.0 {
                (ai, aj) = (0.0, -diff);
            }
            if diff > 0.0 && ai > c {
                (ai, aj) = (c, c - diff);
            } else if diff <= 0.0 && aj > c {
                (ai, aj) = (c + diff, c);
            }
        } else {
            let quad = positive_or_tau(qii + qjj - 2.0 * qij);
            let delta = (gi - gj) / quad;
            let sum = ai + aj;
            ai -= delta;
            aj += delta;
            if sum > c && ai > c {
                (ai, aj) = (c, sum - c);
            } else if sum <= c && aj < 0.0 {
                (ai, aj) = (sum, 0.0);
            }
            if sum > c && aj > c {
                (ai, aj) = (sum - c, c);
            } else if sum <= c && ai < 0.0 {
                (ai, aj) = (0.0, sum);
            }
        }
        (ai, aj)
    }
}

fn positive_or_tau(quad: f64) -> f64 {
    if quad > 0.0 {
        quad
    } else {
        TAU
    }
}
