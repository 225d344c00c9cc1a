//! The Nyström approximation of a kernel (Williams and Seeger 2001): M landmark rows drawn from
//! the training data, and the map φ(x) = K(x, L)·V with V = U·D^(−1/2)·Uᵀ from the
//! eigendecomposition K(L, L) = U·D·Uᵀ, so that φ(x)·φ(z) approximates K(x, z) and equals it
//! on the landmarks. Eigenvalues that are zero to rounding are dropped rather than inverted.
//!
//! The features given are K(x, L)·U·D^(−1/2), which is φ(x)·U: the lectures' φ turned by the
//! orthogonal U. Every inner product, and so the kernel it approximates, is the same, and a
//! linear SVM's objective (‖w‖² and the margins) does not change under a rotation, so it learns
//! the same decision function; but there are only as many features as eigenvalues kept (fewer
//! than M when landmarks repeat, as SMS's duplicate messages do), each row costs M × that many
//! multiplications instead of M², and fitting skips V's M³ product.

use faer::{Mat, MatRef, Side};
use serde::{Deserialize, Serialize};

use super::kernel::{dense_matrix, squared_norms, Kernel, KernelFunction, Scatter};
use crate::error::{Error, Result};
use crate::model::random::SplitMix;
use crate::packed::Table;
use crate::vectorize::{matrix_row, pick_rows, renumber, Matrix, SparseRow};

/// Rows transformed at once: enough for the matrix product to run at speed, few enough that a
/// block's kernel values stay small.
const BLOCK: usize = 256;

thread_local! {
    /// One thread's scratch row (as wide as the vocabulary) and kernel values, kept between
    /// documents: zeroing a vocabulary-wide row for every document of a stream cost more than
    /// the kernel values themselves.
    static ROW_SCRATCH: std::cell::RefCell<(Scatter, Vec<f64>)> =
        std::cell::RefCell::new((Scatter::new(0), Vec::new()));
}

/// A fitted Nyström map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Stored", into = "Stored")]
pub struct Nystroem {
    kernel: KernelFunction,
    landmarks: Matrix,
    landmark_squares: Vec<f64>,
    /// U·D^(−1/2) over the eigenvalues kept, M × `rank`, row-major.
    map: Vec<f64>,
    rank: usize,
}

/// What a model file holds of a Nyström map: the landmarks as CSR arrays and the map, as
/// sections of the file; the landmarks' squared norms are computed again on loading.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename = "StoredNystroem")]
struct Stored {
    kernel: KernelFunction,
    /// The landmarks' columns: the vectorizer's features.
    features: usize,
    starts: Table<u64>,
    columns: Table<u32>,
    values: Table<f64>,
    map: Table<f64>,
    rank: usize,
}

impl From<Nystroem> for Stored {
    fn from(nystroem: Nystroem) -> Self {
        let features = nystroem.landmarks.cols();
        let (indptr, columns, values) = nystroem.landmarks.into_raw_storage();
        Stored {
            kernel: nystroem.kernel,
            features,
            starts: indptr.into_iter().map(|i| i as u64).collect(),
            columns: columns.into(),
            values: values.into(),
            map: nystroem.map.into(),
            rank: nystroem.rank,
        }
    }
}

impl TryFrom<Stored> for Nystroem {
    type Error = String;

    /// Rebuilds the landmarks, which checks that their arrays agree, and checks the map's size.
    fn try_from(stored: Stored) -> std::result::Result<Self, String> {
        let starts: Option<Vec<usize>> = (stored.starts.iter())
            .map(|&i| usize::try_from(i).ok())
            .collect();
        let starts = starts.ok_or("Nyström map: landmark offsets out of range")?;
        let rows = starts.len().saturating_sub(1);
        let landmarks = Matrix::try_new(
            (rows, stored.features),
            starts,
            stored.columns.to_vec(),
            stored.values.to_vec(),
        )
        .map_err(|(.., e)| format!("Nyström map: inconsistent landmarks: {e}"))?;
        if rows.checked_mul(stored.rank) != Some(stored.map.len()) || stored.rank > rows {
            return Err(format!(
                "Nyström map: {} values for {rows} landmarks and {} features",
                stored.map.len(),
                stored.rank
            ));
        }
        stored.kernel.check().map_err(|e| e.to_string())?;
        Ok(Nystroem {
            kernel: stored.kernel,
            landmark_squares: squared_norms(&landmarks),
            landmarks,
            map: stored.map.to_vec(),
            rank: stored.rank,
        })
    }
}

impl Nystroem {
    /// Draws `components` landmarks from the rows of `x` (all of them when there are fewer) with
    /// a generator seeded by `seed`, and computes the map.
    pub fn fit(x: &Matrix, kernel: &Kernel, components: usize, seed: u64) -> Result<Self> {
        kernel.validate()?;
        if components == 0 || x.rows() == 0 {
            return Err(Error::Config(
                "the Nyström map needs at least one component and one row".into(),
            ));
        }
        let function = kernel.resolve(x);
        let mut order: Vec<usize> = (0..x.rows()).collect();
        SplitMix(seed).shuffle(&mut order);
        order.truncate(components);
        let landmarks = pick_rows(x, &order)?;
        let landmark_squares = squared_norms(&landmarks);
        let mut nystroem = Nystroem {
            kernel: function,
            landmarks,
            landmark_squares,
            map: Vec::new(),
            rank: 0,
        };
        let m = order.len();
        let mut gram = vec![0.0; m * m];
        nystroem.landmark_values(&nystroem.landmarks, 0..m, &mut gram);
        (nystroem.map, nystroem.rank) = inverse_square_root(gram, m)?;
        Ok(nystroem)
    }

    /// The landmark rows.
    pub fn landmarks(&self) -> &Matrix {
        &self.landmarks
    }

    /// The kernel, with γ as fixed by the training data.
    pub fn kernel(&self) -> KernelFunction {
        self.kernel
    }

    /// Number of landmarks, M.
    pub fn components(&self) -> usize {
        self.landmarks.rows()
    }

    /// Number of features the map gives: the eigenvalues of K(L, L) kept, at most M.
    pub fn features(&self) -> usize {
        self.rank
    }

    /// The columns of the rows the map was fitted on.
    pub fn columns(&self) -> usize {
        self.landmarks.cols()
    }

    /// K(x_i, landmark m) for rows `rows` of `x`, into `out` (row-major, M per row).
    fn landmark_values(&self, x: &Matrix, rows: std::ops::Range<usize>, out: &mut [f64]) {
        let mut scatter = Scatter::new(self.landmarks.cols());
        for (i, slots) in rows.zip(out.chunks_mut(self.components().max(1))) {
            let (indices, values) = matrix_row(x, i);
            self.row_values(&mut scatter, indices, values, slots);
        }
    }

    /// K(x, landmark m) for one row (`indices`, `values`), into `out` (M long), through the
    /// scratch row `scatter`, which it leaves zero.
    fn row_values(&self, scatter: &mut Scatter, indices: &[u32], values: &[f64], out: &mut [f64]) {
        let square: f64 = values.iter().map(|v| v * v).sum();
        scatter.load(indices, values);
        for (l, slot) in out.iter_mut().enumerate() {
            let (lj, lv) = matrix_row(&self.landmarks, l);
            let dot = scatter.dot(lj, lv);
            *slot = self.kernel.value(dot, square, self.landmark_squares[l]);
        }
        scatter.clear(indices);
    }

    /// The features of every row of `x`, row-major, [`Nystroem::features`] per row: blocks of
    /// rows in parallel, each a matrix product.
    pub fn transform_dense(&self, x: &Matrix) -> Vec<f64> {
        use rayon::prelude::*;
        let (m, r) = (self.components(), self.rank);
        let mut out = vec![0.0; x.rows() * r];
        // U·D^(−1/2) is stored row-major, so read column-major it is its transpose.
        let map_t = MatRef::from_column_major_slice(&self.map, r, m);
        out.par_chunks_mut((BLOCK * r).max(1))
            .enumerate()
            .for_each(|(b, chunk)| {
                let rows = b * BLOCK..(b * BLOCK + chunk.len() / r.max(1));
                let mut values = vec![0.0; rows.len() * m];
                self.landmark_values(x, rows.clone(), &mut values);
                // Row-major values read column-major are their transpose, M × rows; the product
                // (features × rows, column-major) is the rows' features, row-major.
                let values_t = MatRef::from_column_major_slice(&values, m, rows.len());
                let features = map_t * values_t;
                for (j, out) in chunk.chunks_exact_mut(r.max(1)).enumerate() {
                    out.iter_mut()
                        .enumerate()
                        .for_each(|(f, slot)| *slot = features[(f, j)]);
                }
            });
        out
    }

    /// φ(x) for every row of `x`, as a matrix of [`Nystroem::features`] columns.
    pub fn transform(&self, x: &Matrix) -> Result<Matrix> {
        dense_matrix(self.transform_dense(x), x.rows(), self.rank)
    }

    /// The features of one row (`indices`, `values`), into `out` ([`Nystroem::features`]
    /// long); columns the map was not fitted on are left out.
    pub fn transform_row(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        ROW_SCRATCH.with_borrow_mut(|(scatter, kernel)| {
            scatter.reserve_columns(self.landmarks.cols());
            kernel.resize(self.components(), 0.0);
            self.row_values(scatter, indices, values, kernel);
            out.fill(0.0);
            for (k, map_row) in kernel.iter().zip(self.map.chunks(self.rank.max(1))) {
                out.iter_mut().zip(map_row).for_each(|(o, &u)| *o += k * u);
            }
        });
    }

    /// Moves the landmarks into a grown vocabulary's columns: `columns` gives each old column
    /// its place among `features`. Their values stay as they were, so the map does not change.
    pub fn remap(&mut self, columns: &[u32], features: usize) -> Result<()> {
        let (mut keys, mut row) = (Vec::new(), SparseRow::default());
        let mut builder = crate::vectorize::MatrixBuilder::default();
        for l in 0..self.landmarks.rows() {
            let (indices, values) = matrix_row(&self.landmarks, l);
            renumber(indices, values, columns, &mut keys, &mut row);
            builder.push(&row);
        }
        self.landmarks = builder.finish(features)?;
        Ok(())
    }
}

/// U·D^(−1/2) of the symmetric `m` × `m` matrix `gram` (row-major), row-major over the
/// eigenvalues above m·ε·λ_max, with their number; the others are rounding noise of a singular
/// matrix, and inverting them would amplify that noise.
fn inverse_square_root(gram: Vec<f64>, m: usize) -> Result<(Vec<f64>, usize)> {
    let dense = Mat::from_fn(m, m, |i, j| gram[i * m + j]);
    let eigen = dense.self_adjoint_eigen(Side::Lower).map_err(|_| {
        Error::Config("the landmarks' kernel matrix has no eigendecomposition".into())
    })?;
    let (values, vectors) = (eigen.S().column_vector(), eigen.U());
    let largest = values.iter().copied().fold(0.0, f64::max);
    let floor = largest * m as f64 * f64::EPSILON;
    let kept: Vec<usize> = (0..m).filter(|&k| values[k] > floor).collect();
    let rank = kept.len();
    let mut map = vec![0.0; m * rank];
    for (f, &k) in kept.iter().enumerate() {
        let scale = values[k].sqrt().recip();
        for (i, &u) in vectors.col(k).iter().enumerate() {
            map[i * rank + f] = u * scale;
        }
    }
    Ok((map, rank))
}
