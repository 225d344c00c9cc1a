//! The solver's arithmetic on one row: its margins in every lane, and a step's change to the
//! weights.
//!
//! A row of a kernel approximation holds every column. Its values are then kept as `f32`, in
//! column order with no indices: a third of the bytes of an `f64` value and its index, which
//! matters since a pass reads every row from memory. Its margin is summed in four interleaved
//! partial sums, which the processor adds side by side instead of each addition waiting for the
//! one before. A pass over SMS's 4,000 random Fourier features (two lanes) took 13.6 ms with
//! the values as `f32` against 18.5 ms as `f64`, both with the partial sums.

use crate::prefetch::prefetch;

/// How many entries ahead of the one being summed the margin loop asks for a row's weights.
///
/// The weights of the rare features miss every cache, and the loop waited for them one at a
/// time: half of the solver's samples sat on that load. Asked for this far ahead, they arrive
/// while earlier entries are summed; solves of 20 Newsgroups' bigrams took 15–25% less time
/// (in-process repeats alternated with the solver without it; 24 entries ahead gained about as
/// much).
const PREFETCH_AHEAD: usize = 48;

/// Partial sums in a dense row's margin: enough independent additions to cover an addition's
/// latency.
const SUMS: usize = 4;

/// The values of a dense row in one 64-byte cache line.
const LINE: usize = 16;

/// How many values ahead of the line being summed the margin loop asks for a dense row's.
///
/// A pass reads every row from memory, in random order; the processor's own prefetcher starts
/// over at each row and at each 4 KB page within it (a row of 4,000 features spans four).
/// Asked for 2 KB ahead, random Fourier features on SMS fitted in 0.26–0.28 s against
/// 0.30–0.32 s (alternating runs; 1 KB and 8 KB ahead gained about as much, and asking for the
/// first 2 KB of the next row as well gained nothing more).
const DENSE_AHEAD: usize = 512;

/// One row as the solver reads it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Row<'r> {
    /// Entries `values` in the solver's columns `indices`, summed in their order.
    Sparse(&'r [u32], &'r [f64]),
    /// The values of columns 0, 1, 2, ..., every one.
    Dense(&'r [f32]),
}

impl Row<'_> {
    /// The decision values w·x + b in the lanes of `weights` (in the solver's columns, bias
    /// last).
    pub(super) fn margins<const L: usize>(self, weights: &[[f64; L]]) -> [f64; L] {
        let (columns, bias) = weights.split_at(weights.len() - 1);
        match self {
            Row::Sparse(indices, values) => sparse_margins(indices, values, columns, bias[0]),
            Row::Dense(values) => dense_margins(values, columns, bias[0]),
        }
    }

    /// Adds `scaled` times the row, and `scaled` to the bias, to the lanes of `weights`.
    pub(super) fn add<const L: usize>(self, weights: &mut [[f64; L]], scaled: [f64; L]) {
        let (columns, bias) = weights.split_at_mut(weights.len() - 1);
        match self {
            Row::Sparse(indices, values) => {
                for (&j, &v) in indices.iter().zip(values) {
                    let column = &mut columns[j as usize];
                    (0..L).for_each(|c| column[c] += scaled[c] * v);
                }
            }
            Row::Dense(values) => dense_add(values, columns, scaled),
        }
        (0..L).for_each(|c| bias[0][c] += scaled[c]);
    }
}

fn sparse_margins<const L: usize>(
    indices: &[u32],
    values: &[f64],
    columns: &[[f64; L]],
    bias: [f64; L],
) -> [f64; L] {
    let mut margins = bias;
    for (k, (&j, &v)) in indices.iter().zip(values).enumerate() {
        if let Some(&ahead) = indices.get(k + PREFETCH_AHEAD) {
            prefetch(&columns[ahead as usize]);
        }
        let column = &columns[j as usize];
        (0..L).for_each(|c| margins[c] += column[c] * v);
    }
    margins
}

fn dense_add<const L: usize>(values: &[f32], columns: &mut [[f64; L]], scaled: [f64; L]) {
    for (&v, column) in values.iter().zip(columns) {
        (0..L).for_each(|c| column[c] += scaled[c] * f64::from(v));
    }
}

fn dense_margins<const L: usize>(values: &[f32], columns: &[[f64; L]], bias: [f64; L]) -> [f64; L] {
    let mut sums = [[0.0; L]; SUMS];
    let whole = values.len() - values.len() % SUMS;
    let lines = values[..whole].chunks(LINE).zip(columns.chunks(LINE));
    for (k, (v, w)) in lines.enumerate() {
        if let Some(ahead) = values.get(k * LINE + DENSE_AHEAD) {
            prefetch(ahead);
        }
        for (v, w) in v.chunks_exact(SUMS).zip(w.chunks_exact(SUMS)) {
            for s in 0..SUMS {
                (0..L).for_each(|c| sums[s][c] += w[s][c] * f64::from(v[s]));
            }
        }
    }
    let mut margins = bias;
    for (&v, w) in values[whole..].iter().zip(&columns[whole..]) {
        (0..L).for_each(|c| margins[c] += w[c] * f64::from(v));
    }
    for sum in sums {
        (0..L).for_each(|c| margins[c] += sum[c]);
    }
    margins
}
