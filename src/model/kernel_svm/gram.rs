//! The kernel matrix K of the training rows, and each binary problem's view of it.
//!
//! K does not depend on the class: a one-vs-rest problem's Q_ij = y_i·y_j·K_ij differs only by
//! signs, which the solver applies as it reads. So K is computed once for every class. When all
//! of it fits in the cache budget (l² `f32` values), it is computed whole before the solvers
//! start, and every class reads it: the upper triangle, rows in parallel, then its mirror image,
//! since K is symmetric. Otherwise each class keeps its own cache of K's rows, computed on
//! demand, in its share of the budget.

use rayon::prelude::*;

use super::cache::RowCache;
use super::kernel::{KernelFunction, Postings};
use crate::vectorize::{matrix_row, Matrix};

/// The training rows, their kernel and, when it fits, the whole of K; shared by the classes.
pub(crate) struct Kernels<'a> {
    x: &'a Matrix,
    squares: &'a [f64],
    kernel: KernelFunction,
    postings: Postings,
    /// K row-major, when l² values fit in the budget.
    whole: Option<Vec<f32>>,
}

impl<'a> Kernels<'a> {
    /// K of rows `x` (with squared norms `squares`), computed whole when its l² `f32` values take
    /// at most `cache_bytes` bytes.
    pub(crate) fn new(
        x: &'a Matrix,
        squares: &'a [f64],
        kernel: KernelFunction,
        cache_bytes: usize,
    ) -> Self {
        let mut kernels = Kernels {
            x,
            squares,
            kernel,
            postings: Postings::new(x),
            whole: None,
        };
        let l = x.rows();
        let fits = (l.checked_mul(l)).and_then(|n| n.checked_mul(size_of::<f32>()));
        if fits.is_some_and(|bytes| bytes <= cache_bytes) {
            let mut whole = vec![0.0f32; l * l];
            (whole.par_chunks_mut(l.max(1)).enumerate()).for_each_init(
                || vec![0.0; l],
                |dots, (i, row)| kernels.compute(i, i, dots, row),
            );
            mirror(&mut whole, l);
            kernels.whole = Some(whole);
        }
        kernels
    }

    /// Whether K is held whole, so that the problems need no cache of their own.
    pub(crate) fn whole(&self) -> bool {
        self.whole.is_some()
    }

    /// Row `i` of K from column `first` on into `row`, with `dots` (l values) as scratch.
    fn compute(&self, i: usize, first: usize, dots: &mut [f64], row: &mut [f32]) {
        dots[first..].fill(0.0);
        let (indices, values) = matrix_row(self.x, i);
        self.postings.add_dots(indices, values, first, dots);
        let square = self.squares[i];
        let columns = (row.iter_mut().zip(dots.iter()).enumerate()).skip(first);
        for (k, (out, &dot)) in columns {
            *out = self.kernel.value(dot, square, self.squares[k]) as f32;
        }
    }
}

/// One binary problem's access to K: the shared whole matrix, or its own cache of rows.
pub(crate) struct Gram<'a> {
    kernels: &'a Kernels<'a>,
    /// Empty when K is whole.
    dots: Vec<f64>,
    cache: Option<RowCache>,
}

impl<'a> Gram<'a> {
    /// Access to `kernels`, caching up to `cache_bytes` bytes of rows unless K is whole.
    pub(crate) fn new(kernels: &'a Kernels<'a>, cache_bytes: usize) -> Self {
        let l = kernels.x.rows();
        let (dots, cache) = match kernels.whole {
            Some(_) => (Vec::new(), None),
            None => (vec![0.0; l], Some(RowCache::new(l, cache_bytes))),
        };
        Gram {
            kernels,
            dots,
            cache,
        }
    }

    /// K_ii, in `f64`: the diagonal is not rounded.
    pub(crate) fn diagonal(&self, i: usize) -> f64 {
        let square = self.kernels.squares[i];
        self.kernels.kernel.value(square, square, square)
    }

    /// Makes sure row `i` of K is available, the most recently used of the cache if any.
    pub(crate) fn fill(&mut self, i: usize) {
        if let Some(cache) = &mut self.cache {
            let (row, fresh) = cache.row_mut(i);
            if fresh {
                self.kernels.compute(i, 0, &mut self.dots, row);
            }
        }
    }

    /// Row `i` of K, as last made available by [`Gram::fill`].
    pub(crate) fn row(&self, i: usize) -> &[f32] {
        match (&self.kernels.whole, &self.cache) {
            (Some(whole), _) => {
                let l = self.kernels.x.rows();
                &whole[i * l..(i + 1) * l]
            }
            (None, Some(cache)) => cache.row(i),
            (None, None) => &[],
        }
    }
}

/// Copies the upper triangle of the `l` × `l` row-major matrix `k` onto its lower triangle, in
/// square tiles so that the column reads stay in the processor's cache.
fn mirror(k: &mut [f32], l: usize) {
    const TILE: usize = 64;
    for top in (0..l).step_by(TILE) {
        for left in (0..=top).step_by(TILE) {
            for i in top..(top + TILE).min(l) {
                for j in left..(left + TILE).min(i) {
                    k[i * l + j] = k[j * l + i];
                }
            }
        }
    }
}
