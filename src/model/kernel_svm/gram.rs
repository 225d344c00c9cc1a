//! The matrix Q of one binary problem, Q_ij = y_i·y_j·K(x_i, x_j), computed row by row on
//! demand through the row cache.

use super::cache::RowCache;
use super::kernel::{KernelFunction, Scatter};
use crate::vectorize::{matrix_row, Matrix};

/// The training rows, their targets and the kernel, with the cache of Q's rows.
pub(crate) struct Gram<'a> {
    x: &'a Matrix,
    squares: &'a [f64],
    kernel: KernelFunction,
    /// +1 or −1 per row.
    y: &'a [f64],
    scatter: Scatter,
    cache: RowCache,
}

impl<'a> Gram<'a> {
    /// Q for rows `x` (with squared norms `squares`) and targets `y`, caching up to
    /// `cache_bytes` bytes of its rows.
    pub(crate) fn new(
        x: &'a Matrix,
        squares: &'a [f64],
        kernel: KernelFunction,
        y: &'a [f64],
        cache_bytes: usize,
    ) -> Self {
        Gram {
            x,
            squares,
            kernel,
            y,
            scatter: Scatter::new(x.cols()),
            cache: RowCache::new(x.rows(), cache_bytes),
        }
    }

    /// Q_ii.
    pub(crate) fn diagonal(&self, i: usize) -> f64 {
        let square = self.squares[i];
        self.y[i] * self.y[i] * self.kernel.value(square, square, square)
    }

    /// Makes sure row `i` of Q is cached with every entry of `needed`, and makes it the most
    /// recently used.
    pub(crate) fn fill(&mut self, i: usize, needed: &[usize]) {
        let row = self.cache.row_mut(i);
        if needed.iter().all(|&k| !row[k].is_nan()) {
            return;
        }
        let (indices, values) = matrix_row(self.x, i);
        self.scatter.load(indices, values);
        for &k in needed {
            if row[k].is_nan() {
                let (kj, kv) = matrix_row(self.x, k);
                let dot = self.scatter.dot(kj, kv);
                let value = self.kernel.value(dot, self.squares[i], self.squares[k]);
                row[k] = self.y[i] * self.y[k] * value;
            }
        }
        self.scatter.clear(indices);
    }

    /// Row `i` of Q as last filled; only the entries asked of [`Gram::fill`] are meaningful.
    pub(crate) fn row(&self, i: usize) -> &[f64] {
        self.cache.row(i)
    }
}
