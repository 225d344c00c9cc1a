//! Sparse rows and CSR matrices: building them, in parallel, and renumbering their columns.

use std::ops::Range;

use rayon::prelude::*;

use crate::error::{Error, Result};

/// A CSR matrix with `u32` column ids: one row per document.
pub type Matrix = sprs::CsMatI<f64, u32, usize>;

/// One document's row: sorted column ids and their values.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SparseRow {
    /// Column ids, strictly increasing.
    pub indices: Vec<u32>,
    /// Values, one per column id.
    pub values: Vec<f64>,
}

/// Accumulates rows into CSR arrays.
#[derive(Debug)]
pub struct MatrixBuilder {
    pub(super) indptr: Vec<usize>,
    pub(super) indices: Vec<u32>,
    pub(super) data: Vec<f64>,
}

impl Default for MatrixBuilder {
    fn default() -> Self {
        MatrixBuilder {
            indptr: vec![0],
            indices: Vec::new(),
            data: Vec::new(),
        }
    }
}

impl MatrixBuilder {
    /// Appends one row.
    pub fn push(&mut self, row: &SparseRow) {
        self.indices.extend_from_slice(&row.indices);
        self.data.extend_from_slice(&row.values);
        self.indptr.push(self.indices.len());
    }

    /// The matrix, with `columns` columns.
    pub fn finish(self, columns: usize) -> Result<Matrix> {
        let rows = self.indptr.len() - 1;
        Matrix::try_new((rows, columns), self.indptr, self.indices, self.data)
            .map_err(|(_, _, _, err)| Error::Config(format!("inconsistent sparse matrix: {err}")))
    }
}

/// Rows that several threads can visit a range at a time: a matrix, or training counts weighed
/// as they are visited ([`WeighedRows`](super::WeighedRows)).
pub trait RowSource: Sync {
    /// Number of rows.
    fn rows(&self) -> usize;

    /// At least the number of entries in rows `range`, to size a buffer for them.
    fn entries(&self, range: Range<usize>) -> usize;

    /// Calls `each` with the index, columns and values of every row in `range`, in order.
    fn visit(&self, range: Range<usize>, each: impl FnMut(usize, &[u32], &[f64]));
}

impl RowSource for Matrix {
    fn rows(&self) -> usize {
        Matrix::rows(self)
    }

    fn entries(&self, range: Range<usize>) -> usize {
        self.indptr().outer_inds_slice(range.start, range.end).len()
    }

    fn visit(&self, range: Range<usize>, mut each: impl FnMut(usize, &[u32], &[f64])) {
        for i in range {
            let (indices, values) = matrix_row(self, i);
            each(i, indices, values);
        }
    }
}

/// The entries of consecutive rows, written into a matrix's arrays sized in advance.
pub(crate) struct RowSlots<'a> {
    pub(super) indices: &'a mut [u32],
    pub(super) data: &'a mut [f64],
}

impl RowSlots<'_> {
    /// Writes the next row, which must have the length announced for it.
    pub(crate) fn push(&mut self, row: &SparseRow) {
        let n = row.indices.len();
        let (head, tail) = std::mem::take(&mut self.indices).split_at_mut(n);
        head.copy_from_slice(&row.indices);
        self.indices = tail;
        let (head, tail) = std::mem::take(&mut self.data).split_at_mut(n);
        head.copy_from_slice(&row.values);
        self.data = tail;
    }
}

/// Builds a matrix of `rows` rows and `columns` columns in parallel, straight into its final
/// arrays: `length(i)` says how many entries row `i` will have, then `fill` writes each chunk of
/// rows (`row_chunks`) in order. Building a matrix per chunk and joining them copied every
/// entry once more into fresh memory, and on this project's virtual machine a fresh page costs a
/// fault and the kernel zeroing it: the chunks' growth and the join were a third of the page
/// clearing in a profile of `vectorize`; without them `vectorize` took 1.5% less CPU and
/// multinomial NB training 3.5% (medians of 20 alternating runs), and the SVM solver's renumbered
/// copy is now written in parallel (its training 9% faster).
pub(crate) fn fill_rows(
    rows: usize,
    columns: usize,
    length: impl Fn(usize) -> usize + Sync,
    fill: impl Fn(std::ops::Range<usize>, &mut RowSlots) + Sync,
) -> Result<Matrix> {
    let lengths: Vec<usize> = (0..rows).into_par_iter().map(&length).collect();
    let mut indptr = Vec::with_capacity(rows + 1);
    indptr.push(0);
    for n in lengths {
        indptr.push(indptr[indptr.len() - 1] + n);
    }
    let nnz = indptr[rows];
    let (mut indices, mut data) = (vec![0u32; nnz], vec![0.0f64; nnz]);
    let mut work = Vec::new();
    let (mut rest_indices, mut rest_data) = (&mut indices[..], &mut data[..]);
    for range in row_chunks(rows) {
        let n = indptr[range.end] - indptr[range.start];
        let (chunk_indices, tail_indices) = rest_indices.split_at_mut(n);
        let (chunk_data, tail_data) = rest_data.split_at_mut(n);
        (rest_indices, rest_data) = (tail_indices, tail_data);
        let slots = RowSlots {
            indices: chunk_indices,
            data: chunk_data,
        };
        work.push((range, slots));
    }
    work.into_par_iter()
        .for_each(|(range, mut slots)| fill(range, &mut slots));
    MatrixBuilder {
        indptr,
        indices,
        data,
    }
    .finish(columns)
}

/// Builds, in parallel, the matrix whose row `i` is `row(i)` with its columns mapped through
/// `remap` and the dropped ones left out ([`renumber`]), then handed to `finish(i, row)`, which
/// may change its values (to weigh them, say) but not its columns.
pub(crate) fn fill_renumbered<'a>(
    rows: usize,
    columns: usize,
    remap: &[u32],
    row: impl Fn(usize) -> (&'a [u32], &'a [f64]) + Sync,
    finish: impl Fn(usize, &mut SparseRow) + Sync,
) -> Result<Matrix> {
    let kept = |i: usize| kept_columns(row(i).0, remap);
    fill_rows(rows, columns, kept, |range, out| {
        for_each_renumbered(range, remap, &row, &finish, |_, renumbered| {
            out.push(renumbered);
        });
    })
}

/// Calls `each(i, row)` for every `i` in `range`, in order, with `row(i)` renumbered through
/// `remap` ([`renumber`]) and then handed to `finish(i, row)`; the one loop behind
/// [`fill_renumbered`], [`WeighedRows`] and the SVM solver's copy of its rows.
pub(crate) fn for_each_renumbered<'a>(
    range: Range<usize>,
    remap: &[u32],
    row: impl Fn(usize) -> (&'a [u32], &'a [f64]),
    finish: impl Fn(usize, &mut SparseRow),
    mut each: impl FnMut(usize, &SparseRow),
) {
    let (mut renumbered, mut keys) = (SparseRow::default(), Vec::new());
    for i in range {
        let (indices, values) = row(i);
        renumber(indices, values, remap, &mut keys, &mut renumbered);
        finish(i, &mut renumbered);
        each(i, &renumbered);
    }
}

/// Rows per unit of parallel work: large enough to amortize scheduling, small enough to balance.
pub(crate) const ROW_CHUNK: usize = 512;

/// `0..rows` cut into chunks of [`ROW_CHUNK`].
pub(crate) fn row_chunks(rows: usize) -> Vec<std::ops::Range<usize>> {
    (0..rows)
        .step_by(ROW_CHUNK)
        .map(|start| start..(start + ROW_CHUNK).min(rows))
        .collect()
}

/// Row `i` of `x` as column ids and values.
pub fn matrix_row(x: &Matrix, i: usize) -> (&[u32], &[f64]) {
    let span = x.indptr().outer_inds_sz(i);
    (&x.indices()[span.clone()], &x.data()[span])
}

/// Rows `rows` of `x`, in that order, as a matrix of the same columns.
pub(crate) fn pick_rows(x: &Matrix, rows: &[usize]) -> Result<Matrix> {
    let mut builder = MatrixBuilder::default();
    for &i in rows {
        let (indices, values) = matrix_row(x, i);
        builder.push(&SparseRow {
            indices: indices.to_vec(),
            values: values.to_vec(),
        });
    }
    builder.finish(x.cols())
}

/// How many of a row's columns `ids` [`renumber`] keeps through `remap`.
pub(crate) fn kept_columns(ids: &[u32], remap: &[u32]) -> usize {
    ids.iter()
        .filter(|&&id| remap[id as usize] != u32::MAX)
        .count()
}

/// Maps a row's columns through `remap` (old column → new, `u32::MAX` for a dropped one),
/// dropping those and sorting by new column; `keys` is scratch space reused between rows.
///
/// Each kept entry is sorted as one `u64`, its new column above its position in the row, and its
/// value fetched by that position afterwards: on rows shaped like 20 Newsgroups' (11,314 rows of
/// up to 228 random columns out of 123,000), renumbering took 13 ms on one thread instead of 23
/// when (column, value) pairs were sorted by column.
pub(crate) fn renumber(
    ids: &[u32],
    counts: &[f64],
    remap: &[u32],
    keys: &mut Vec<u64>,
    row: &mut SparseRow,
) {
    keys.clear();
    keys.extend(
        ids.iter()
            .enumerate()
            .map(|(at, &id)| (remap[id as usize], at))
            .filter(|&(id, _)| id != u32::MAX)
            .map(|(id, at)| u64::from(id) << 32 | at as u64),
    );
    keys.sort_unstable();
    row.indices.clear();
    row.values.clear();
    for &key in keys.iter() {
        row.indices.push((key >> 32) as u32);
        row.values.push(counts[key as u32 as usize]);
    }
}
