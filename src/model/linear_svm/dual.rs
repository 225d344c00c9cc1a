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

use rayon::prelude::*;

use super::params::{Convergence, Loss, SvmParams, Targets};
use super::row::Row;
use crate::error::Result;
use crate::model::random::SplitMix;
use crate::prefetch::prefetch;
use crate::vectorize::{
    fill_rows, for_each_renumbered, kept_columns, matrix_row, Matrix, SparseRow,
};

/// The rows that every class's problem shares, with their columns renumbered for the solver.
///
/// A pass reads and writes the weights of every non-zero, and with bigrams those weights fill
/// far more than a core's cache, so most of a pass is spent waiting for memory. Renumbering the
/// columns by how many rows hold them, most first, packs the weights of the frequent features,
/// which most non-zeros belong to, into a few cache lines that stay cached; each row is then
/// sorted by the new numbers, so its weights are visited in address order. On 20 Newsgroups'
/// bigrams the two made the solver 8% and then 10% faster. Only the order in which a row's
/// products are summed changes; the numbering is deterministic, so the results are too.
///
/// A column that only one row holds is not given weights of its own. Only that row's steps
/// move such a column's weights, always along the row's entries in those columns, so the
/// row's own columns act as one: its entries are replaced by a single entry, their norm, in a
/// column of the row's own, and the weights of the columns it stands for are read off it at the
/// end ([`Rows::own_entries`]). The problem is the same up to rounding, since that column's
/// weight times its entry is what the row's own columns added to its margin. On 20 Newsgroups'
/// default features 730,139 of the 1,087,830 columns are held by one row: they were 16% of
/// the non-zeros and two thirds of the weights, every one a cache miss. Folded, the default
/// SVM trained in 2.41 s against 2.90 s (medians of 5 alternating runs of the whole process),
/// and its weights differed by 6e-11 at most, its predictions not at all.
pub struct Rows<'a> {
    /// One row per example, in the caller's columns.
    pub x: &'a Matrix,
    /// The classes of each row.
    pub targets: Targets<'a>,
    /// ‖x_i‖² + 1 (the bias feature) per row.
    norms: Vec<f64>,
    /// `x` in the solver's columns; `None` where they are `x`'s own (see [`Rows::solver_rows`]).
    renumbered: Option<Matrix>,
    /// Where every row holds every column (a kernel approximation's rows), `x`'s values as
    /// `f32`, row-major, which the solver reads instead of `x`; otherwise empty.
    dense: Vec<f32>,
    /// The solver's number of each of `x`'s columns (a row's own column for a column that row
    /// alone holds); [`NO_COLUMN`] for a column no row holds.
    pub(super) solver_column: Vec<u32>,
    /// The number of columns that more than one row holds; the rows' own columns come after.
    shared: usize,
    /// The number of the solver's columns, shared and own.
    columns: usize,
    /// Per row, the norm of its entries in the columns that it alone holds (0 for none).
    own_norm: Vec<f64>,
}

/// The solver's number of a column that no row holds: the mark by which `renumber` drops a
/// column.
const NO_COLUMN: u32 = u32::MAX;

impl<'a> Rows<'a> {
    /// Wraps `x` and its labels, computing the row norms and the renumbered rows once for every
    /// group.
    #[cfg(test)]
    pub fn new(x: &'a Matrix, labels: &'a [u32]) -> Result<Self> {
        Self::with_targets(x, Targets::Single(labels))
    }

    /// Wraps `x` and the classes of its rows, as [`Rows::new`] does.
    pub fn with_targets(x: &'a Matrix, targets: Targets<'a>) -> Result<Self> {
        Self::build(x, targets, true)
    }

    /// As [`Rows::with_targets`], but every column keeps weights of its own: in a distributed
    /// solve the other workers' steps move the weights of columns that only one of this
    /// worker's rows holds.
    #[cfg(any(test, feature = "cluster"))]
    pub fn with_every_column(x: &'a Matrix, targets: Targets<'a>) -> Result<Self> {
        Self::build(x, targets, false)
    }

    fn build(x: &'a Matrix, targets: Targets<'a>, own_columns: bool) -> Result<Self> {
        let holders = rows_holding(x);
        let least = if own_columns { 2 } else { 0 };
        let (mut solver_column, shared) = most_frequent_first(&holders, least);
        let (own, own_norm) = own_columns_of_rows(x, &holders, shared, own_columns);
        let columns = shared + own.iter().filter(|&&o| o != NO_COLUMN).count();
        let length = |i: usize| {
            kept_columns(matrix_row(x, i).0, &solver_column) + usize::from(own[i] != NO_COLUMN)
        };
        let identity = own.iter().all(|&o| o == NO_COLUMN)
            && (solver_column.iter().enumerate()).all(|(j, &s)| s as usize == j);
        let renumbered = (!identity).then(|| {
            fill_rows(x.rows(), columns, length, |range, out| {
                let row = |i: usize| matrix_row(x, i);
                let with_own = |i: usize, row: &mut SparseRow| {
                    if own[i] != NO_COLUMN {
                        row.indices.push(own[i]);
                        row.values.push(own_norm[i]);
                    }
                };
                for_each_renumbered(range, &solver_column, row, with_own, |_, row| out.push(row));
            })
        });
        let renumbered = renumbered.transpose()?;
        let dense = if identity && holds_every_column(x) {
            x.data().par_iter().map(|&v| v as f32).collect()
        } else {
            Vec::new()
        };
        for (i, &o) in own.iter().enumerate() {
            for &j in matrix_row(x, i).0 {
                if o != NO_COLUMN && holders[j as usize] == 1 {
                    solver_column[j as usize] = o;
                }
            }
        }
        let mut rows = Rows {
            x,
            targets,
            norms: Vec::new(),
            renumbered,
            dense,
            solver_column,
            shared,
            columns,
            own_norm,
        };
        // The squared norms of `x`'s rows (in their order, which the renumbered rows do not
        // keep), or of the dense rows as the solver reads them, rounded.
        rows.norms = (0..x.rows())
            .into_par_iter()
            .map(|i| match rows.row(i) {
                Row::Sparse(..) => matrix_row(x, i).1.iter().map(|v| v * v).sum::<f64>() + 1.0,
                Row::Dense(values) => {
                    values.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() + 1.0
                }
            })
            .collect();
        Ok(rows)
    }

    /// Frees the renumbered rows once every group is solved, keeping the numbering that
    /// [`table`] reads: the two are then not held at once.
    pub(super) fn free_renumbered(&mut self) {
        self.renumbered = self.renumbered.as_ref().map(|_| Matrix::zero((0, 0)));
        self.dense = Vec::new();
    }

    /// Row `i` as the solver reads it.
    pub(super) fn row(&self, i: usize) -> Row<'_> {
        if self.dense.is_empty() {
            let (indices, values) = matrix_row(self.solver_rows(), i);
            Row::Sparse(indices, values)
        } else {
            Row::Dense(&self.dense[i * self.columns..(i + 1) * self.columns])
        }
    }

    /// The rows in the solver's columns. Where the numbering keeps every column's own number
    /// (no column held by one row alone, and the columns already ordered by how many rows hold
    /// them, as where every row holds every column), `x` is used as it is: for the rows of a
    /// kernel approximation a copy would take as much memory again (187 MB for SMS's 4,000
    /// random Fourier features).
    fn solver_rows(&self) -> &Matrix {
        self.renumbered.as_ref().unwrap_or(self.x)
    }

    /// The number of the solver's columns; its weights hold one more, the bias.
    pub(super) fn columns(&self) -> usize {
        self.columns
    }

    /// Puts each class's start into the solver's `weights` and `alpha` (lane c for the c-th
    /// start) and returns what lies outside the solver's columns.
    fn place_starts<const L: usize>(
        &self,
        starts: Vec<Start>,
        weights: &mut [[f64; L]],
        alpha: &mut [[f64; L]],
    ) -> Outside {
        let (bias, mut outside) = (self.columns(), Outside::default());
        for (c, start) in starts.into_iter().enumerate() {
            if !start.weights.is_empty() && outside.start.is_empty() {
                outside.lanes = L;
                outside.start = vec![0.0; self.x.cols() * L];
            }
            for (j, v) in start.weights.into_iter().enumerate() {
                match self.solver_column.get(j) {
                    None => weights[bias][c] = v,
                    Some(&s) if (s as usize) < self.shared => weights[s as usize][c] = v,
                    Some(_) => outside.start[j * L + c] = v,
                }
            }
            alpha
                .iter_mut()
                .zip(start.alpha)
                .for_each(|(a, v)| a[c] = v);
        }
        if !outside.start.is_empty() {
            for (j, s, factor) in self.own_entries() {
                (0..L).for_each(|c| weights[s][c] += outside.start[j * L + c] * factor);
            }
            outside.own = weights[self.shared..bias].as_flattened().to_vec();
        }
        outside
    }

    /// Every entry of `x` in a column that its row alone holds, as (that column, the row's own
    /// column, the entry over the norm of the row's own entries): the factor that turns the own
    /// column's weight into that column's.
    fn own_entries(&self) -> impl Iterator<Item = (usize, usize, f64)> + '_ {
        (0..self.x.rows()).flat_map(move |i| {
            let (indices, values) = matrix_row(self.x, i);
            let norm = self.own_norm[i];
            let factor = move |v: f64| if norm > 0.0 { v / norm } else { 0.0 };
            (indices.iter().zip(values)).filter_map(move |(&j, &v)| {
                let s = self.solver_column[j as usize];
                let own = s != NO_COLUMN && s as usize >= self.shared;
                own.then(|| (j as usize, s as usize, factor(v)))
            })
        })
    }

    /// Row `i`'s decision values w·x_i + b in the lanes of `weights` (in the solver's columns,
    /// bias last).
    pub(super) fn margins<const L: usize>(&self, i: usize, weights: &[[f64; L]]) -> [f64; L] {
        self.row(i).margins(weights)
    }

    /// Takes row `i` out of the problems of the classes from `first` on: its part of `weights`
    /// (α_i y_i (x_i, 1)) is subtracted and its dual variables set to zero, which is where the
    /// dual of the other rows alone starts.
    pub(super) fn take_out<const L: usize>(
        &self,
        i: usize,
        first: usize,
        weights: &mut [[f64; L]],
        alpha: &mut [f64; L],
    ) {
        let part: [f64; L] = std::array::from_fn(|c| match alpha[c] {
            0.0 => 0.0,
            a if self.targets.contains(i, first + c) => a,
            a => -a,
        });
        self.row(i).add(weights, part.map(|p| -p));
        *alpha = [0.0; L];
    }

    /// Asks for the first entries of row `i`, which the pass visits next. Rows come in random
    /// order, so the start of each is a cache miss that nothing else foresees; asked for while
    /// the row before is summed, solves of 20 Newsgroups' bigrams took about 15% less time
    /// (in-process repeats alternated with the solver without it). Asking for more than the
    /// first cache line of each array was slower.
    pub(super) fn prefetch_start(&self, i: usize) {
        if let Some(value) = self.dense.get(i * self.columns) {
            prefetch(value);
            return;
        }
        let rows = self.solver_rows();
        let start = rows.indptr().outer_inds_sz(i).start;
        if let Some(index) = rows.indices().get(start) {
            prefetch(index);
            prefetch(&rows.data()[start]);
        }
    }
}

/// How many rows hold each column of `x`.
fn rows_holding(x: &Matrix) -> Vec<u32> {
    if holds_every_column(x) {
        return vec![x.rows() as u32; x.cols()];
    }
    let mut holders = vec![0u32; x.cols()];
    x.indices().iter().for_each(|&j| holders[j as usize] += 1);
    holders
}

/// Whether every row of `x` holds every column, as a kernel approximation's rows do. A row's
/// columns are distinct, so as many entries as rows times columns says so without a count.
fn holds_every_column(x: &Matrix) -> bool {
    x.nnz() == x.rows() * x.cols()
}

/// A number for each column held by at least `least` rows: columns held by more rows get
/// smaller numbers; ties keep their order, so the numbering is deterministic. The other columns
/// get [`NO_COLUMN`]. Returns the numbers and how many columns got one.
fn most_frequent_first(holders: &[u32], least: u32) -> (Vec<u32>, usize) {
    let mut by_count: Vec<u32> = (0..holders.len() as u32)
        .filter(|&j| holders[j as usize] >= least)
        .collect();
    by_count.sort_by_key(|&j| std::cmp::Reverse(holders[j as usize]));
    let mut solver_column = vec![NO_COLUMN; holders.len()];
    for (number, &j) in by_count.iter().enumerate() {
        solver_column[j as usize] = number as u32;
    }
    (solver_column, by_count.len())
}

/// Per row of `x`, its own column (numbered from `first`, in row order; [`NO_COLUMN`] for a row
/// that holds no column alone, or for every row unless `wanted`) and the norm of its entries in
/// the columns it alone holds.
fn own_columns_of_rows(
    x: &Matrix,
    holders: &[u32],
    first: usize,
    wanted: bool,
) -> (Vec<u32>, Vec<f64>) {
    let (mut own, mut norms) = (vec![NO_COLUMN; x.rows()], vec![0.0; x.rows()]);
    let mut next = first as u32;
    let wanted = wanted && holders.contains(&1);
    for i in (0..x.rows()).filter(|_| wanted) {
        let (indices, values) = matrix_row(x, i);
        let alone = (indices.iter().zip(values)).filter(|(&j, _)| holders[j as usize] == 1);
        let (count, squares) = alone.fold((0, 0.0), |(n, q), (_, &v)| (n + 1, q + v * v));
        if count > 0 {
            (own[i], norms[i]) = (next, f64::sqrt(squares));
            next += 1;
        }
    }
    (own, norms)
}

/// What a warm start put in the columns that have no weights in the solver: its weights there,
/// and what those weights in each row's own columns made the row's own column's weight (the
/// own columns in order). Empty for a cold start, where both are zero.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Outside {
    /// The group's lanes: each column's weights in `start` and `own` take this many values.
    lanes: usize,
    start: Vec<f64>,
    own: Vec<f64>,
}

impl Outside {
    /// Column `j`'s lanes in `values` (`start` or `own`); zero where there are none.
    fn column<'v>(&self, values: &'v [f64], j: usize) -> &'v [f64] {
        match values.get(j * self.lanes..(j + 1) * self.lanes) {
            Some(lanes) if !lanes.is_empty() => lanes,
            _ => &ZERO,
        }
    }
}

/// No weights: the lanes of a column outside the solver for a cold start.
const ZERO: [f64; LANES] = [0.0; LANES];

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

/// The solution of a group of classes, in the solver's columns until [`table`] turns the
/// solutions of every group into the model's weights. Kept so, each group holds a third of
/// what its weights over every column of the vocabulary took on 20 Newsgroups, and the table
/// is written once: training the default SVM peaked at 255–280 MB against 306–324 MB with
/// each group's weights spread over the vocabulary's columns, and 414–440 MB before the
/// columns one row holds were folded.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The class ids solved.
    pub classes: Range<usize>,
    /// The weights of the columns more than one row holds, `shared[s * k + c]` for the solver's
    /// column s, rounded to `f32` as the model keeps them, so that the groups finished first
    /// hold little memory while the others run.
    shared: Vec<f32>,
    /// The weights of the rows' own columns, `own[o * k + c]` for the o-th.
    own: Vec<f64>,
    /// What a warm start put outside the solver's columns.
    outside: Outside,
    /// The `k` biases.
    pub bias: Vec<f64>,
    /// Row-major dual variables, `alpha[i * k + c]`.
    pub alpha: Vec<f64>,
    /// How each class's solve ended.
    pub convergence: Vec<Convergence>,
}

impl Solution {
    /// Writes the weights of `x`'s column `j` in `slots`, one per class of the group: `s` is its
    /// solver's column, and `factor` turns a row's own column's weight into its (see
    /// [`Rows::own_entries`]).
    fn write_column(&self, rows: &Rows, (j, s, factor): (usize, usize, f64), slots: &mut [f32]) {
        let k = self.classes.len();
        let start = self.outside.column(&self.outside.start, j);
        if s < rows.shared {
            slots.copy_from_slice(&self.shared[s * k..(s + 1) * k]);
        } else if s < rows.columns() {
            let o = s - rows.shared;
            let then = self.outside.column(&self.outside.own, o);
            let own = &self.own[o * k..(o + 1) * k];
            for (c, (slot, &now)) in slots.iter_mut().zip(own).enumerate() {
                *slot = (start[c] + (now - then[c]) * factor) as f32;
            }
        } else {
            (slots.iter_mut().zip(start)).for_each(|(slot, &w)| *slot = w as f32);
        }
    }

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
/// dual variables (row-major, as many per row as the group has lanes, the second argument;
/// unused lanes zero) after every pass; tests use it to watch the objective.
///
/// A group of fewer classes runs in fewer lanes: each class takes the same steps in any number
/// of lanes, but a lane that no class uses still costs its arithmetic. With one class, the
/// dense rows of a kernel approximation (SMS, 4,000 random Fourier features) fitted in 1.10 s
/// against 1.53 s in eight lanes, and the default SVM of SMS trained in 52 against 56 ms (whole
/// process, hyperfine).
///
/// Two classes that every row falls in one of, from cold starts, are solved in one lane
/// ([`solve_mirrored`]).
pub fn solve(
    rows: &Rows,
    classes: Range<usize>,
    params: &SvmParams,
    seed: u64,
    starts: Vec<Start>,
    mut after_pass: impl FnMut(&[f64], usize),
) -> Solution {
    let mirrored = mirrors(rows, &classes, &starts);
    let problem = (rows, classes, params, seed, starts);
    match problem.1.len() {
        0..=1 => solve_in_lanes::<1>(problem, &mut after_pass),
        2 if mirrored => solve_mirrored(problem, &mut after_pass),
        2 => solve_in_lanes::<2>(problem, &mut after_pass),
        3..=4 => solve_in_lanes::<4>(problem, &mut after_pass),
        _ => solve_in_lanes::<LANES>(problem, &mut after_pass),
    }
}

/// Whether `classes` are two classes that every row falls in one of, with cold starts: the
/// second's problem is then the first's with every target negated.
fn mirrors(rows: &Rows, classes: &Range<usize>, starts: &[Start]) -> bool {
    let cold = starts
        .iter()
        .all(|s| s.weights.is_empty() && s.alpha.is_empty());
    let both = |labels: &[u32]| (labels.iter()).all(|&l| classes.contains(&(l as usize)));
    classes.len() == 2 && cold && matches!(rows.targets, Targets::Single(labels) if both(labels))
}

/// [`solve`] of two mirrored classes (see [`mirrors`]) in one lane. The second class's every
/// step is the first's: its margins are the first's negated, summed in the same order, so its
/// gradients and dual variables are the same, and its weights stay the first's negated, bit
/// for bit. So the first is solved alone and the second read off it, which halves the
/// arithmetic of a pass.
fn solve_mirrored(
    (rows, classes, params, seed, _): (&Rows, Range<usize>, &SvmParams, u64, Vec<Start>),
    after_pass: &mut impl FnMut(&[f64], usize),
) -> Solution {
    let m = rows.targets.len();
    let mut weights = vec![[0.0; 1]; rows.columns() + 1];
    let mut alpha = vec![[0.0; 1]; m];
    let mut order: Vec<usize> = (0..m).collect();
    let both = |alpha: &[[f64; 1]]| alpha.iter().map(|&[a]| [a, a]).collect::<Vec<_>>();
    let convergence = descend(
        rows,
        &(classes.start..classes.start + 1),
        params,
        seed,
        (&mut weights, &mut alpha),
        &mut order,
        &mut |alpha: &[[f64; 1]]| after_pass(both(alpha).as_flattened(), 2),
    );
    // 0 − w rather than −w, so that a weight still at zero is +0 in both, as solving would
    // leave it.
    let weights: Vec<[f64; 2]> = weights.iter().map(|&[w]| [w, 0.0 - w]).collect();
    let convergence = vec![convergence[0]; 2];
    solution(
        rows,
        classes,
        (&weights, Outside::default()),
        &both(&alpha),
        convergence,
    )
}

/// [`solve`] in `L` lanes.
fn solve_in_lanes<const L: usize>(
    (rows, classes, params, seed, starts): (&Rows, Range<usize>, &SvmParams, u64, Vec<Start>),
    after_pass: &mut impl FnMut(&[f64], usize),
) -> Solution {
    let (k, m) = (classes.len(), rows.targets.len());
    assert!(k <= L, "a group of {L} lanes holds at most {L} classes");
    let mut weights = vec![[0.0; L]; rows.columns() + 1];
    let mut alpha = vec![[0.0; L]; m];
    let outside = rows.place_starts(starts, &mut weights, &mut alpha);
    let mut order: Vec<usize> = (0..m).collect();
    let convergence = descend(
        rows,
        &classes,
        params,
        seed,
        (&mut weights, &mut alpha),
        &mut order,
        &mut |alpha: &[[f64; L]]| after_pass(alpha.as_flattened(), L),
    );
    solution(rows, classes, (&weights, outside), &alpha, convergence)
}

/// Passes of coordinate descent over the rows of `order` (shuffled again before each pass)
/// from the weights and dual variables given, until every class meets the tolerance or the
/// passes run out; rows outside `order` keep their dual variables. Returns how each class's
/// solve ended.
pub(super) fn descend<const L: usize>(
    rows: &Rows,
    classes: &Range<usize>,
    params: &SvmParams,
    seed: u64,
    (weights, alpha): (&mut [[f64; L]], &mut [[f64; L]]),
    order: &mut [usize],
    after_pass: &mut impl FnMut(&[[f64; L]]),
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

/// The solution of `classes` from the solver's weights (in its columns, bias last), what lies
/// outside them, and the dual variables.
pub(super) fn solution<const L: usize>(
    rows: &Rows,
    classes: Range<usize>,
    (weights, outside): (&[[f64; L]], Outside),
    alpha: &[[f64; L]],
    convergence: Vec<Convergence>,
) -> Solution {
    let (k, bias) = (classes.len(), rows.columns());
    // Sized first: collected from a flattening iterator, which cannot tell its length, the
    // weights grew by doubling, to twice their size for a moment while the other groups ran.
    let mut shared = Vec::with_capacity(rows.shared * k);
    let mut own = Vec::with_capacity((bias - rows.shared) * k);
    for (s, lanes) in weights[..bias].iter().enumerate() {
        if s < rows.shared {
            shared.extend(lanes[..k].iter().map(|&w| w as f32));
        } else {
            own.extend_from_slice(&lanes[..k]);
        }
    }
    Solution {
        shared,
        own,
        outside,
        bias: weights[bias][..k].to_vec(),
        alpha: alpha.iter().flat_map(|a| &a[..k]).copied().collect(),
        classes,
        convergence,
    }
}

/// The weights of every group's classes as one feature-major table over `x`'s columns and all
/// classes, `table[j * classes + c]`; each group's weights are dropped once copied (its dual
/// variables stay, for the reservoir).
pub(super) fn table(rows: &Rows, solutions: &mut [Solution]) -> Vec<f32> {
    let classes = solutions.last().map_or(0, |s| s.classes.end);
    let mut table = vec![0.0f32; rows.x.cols() * classes];
    let mut factors = vec![0.0; rows.x.cols()];
    // Without own columns (every column held by two rows or more) there are no factors, and
    // no need to walk every entry for them: 13 ms of a random Fourier fit on SMS.
    if rows.columns > rows.shared {
        (rows.own_entries()).for_each(|(j, _, factor)| factors[j] = factor);
    }
    // Each feature's row of weights is gathered from every group on its own, so the rows are
    // filled in parallel; the copy into a fresh table of tens of megabytes waits on memory.
    // (Without classes there are no rows, and no chunks of length 0 to ask for.)
    if classes > 0 {
        let solved = &*solutions;
        (table.par_chunks_exact_mut(classes).enumerate()).for_each(|(j, all)| {
            let column = (j, rows.solver_column[j] as usize, factors[j]);
            for solution in solved {
                solution.write_column(rows, column, &mut all[solution.classes.clone()]);
            }
        });
    }
    for solution in solutions {
        (solution.shared, solution.own) = (Vec::new(), Vec::new());
        solution.outside = Outside::default();
    }
    table
}

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
pub(super) struct Pass<const L: usize> {
    first_class: usize,
    /// Upper bound of a dual variable: C for hinge, unbounded for squared hinge.
    upper: f64,
    /// Added to the Hessian's diagonal: 0 for hinge, 1/(2C) for squared hinge.
    diagonal: f64,
    /// Lanes beyond the group's classes, or whose class has converged, take no steps.
    running: [bool; L],
    /// How much a step counts in the weights the margins are computed from: 1 for one
    /// process; CoCoA+'s σ' (the number of workers) for a worker's local subproblem (see
    /// `cocoa.rs`), which scales the curvature of every coordinate and each step's effect on
    /// the local weights.
    sigma: f64,
}

impl<const L: usize> Pass<L> {
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
        weights: &mut [[f64; L]],
        alpha: &mut [f64; L],
        progress: &mut Progress,
    ) {
        let row = rows.row(i);
        let margins = row.margins(weights);
        let mut steps = [0.0; L];
        for c in 0..L {
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
            row.add(weights, steps.map(|s| s * self.sigma));
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
