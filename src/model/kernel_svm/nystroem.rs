//! The Nyström approximation of a kernel (Williams and Seeger 2001): M landmark rows drawn from
//! the training data, and the map φ(x) = K(x, L)·V with V = U·D^(−1/2)·Uᵀ from the
//! eigendecomposition K(L, L) = U·D·Uᵀ, so that φ(x)·φ(z) approximates K(x, z) and equals it
//! on the landmarks. Directions of K(L, L) that are zero to rounding are dropped rather than
//! inverted.
//!
//! The features given are K(x, L₁)·L₁₁^(−T), from a Cholesky factor of the distinct
//! landmarks' K(L, L) (see [`Factor`]): the lectures' φ turned by an orthogonal matrix. Every
//! inner product, and so the kernel it approximates, is the same, and a linear SVM's objective
//! (‖w‖² and the margins) does not change under a rotation, so it learns the same decision
//! function; but there are only as many features as the matrix's rank (fewer than M when
//! landmarks repeat, as SMS's duplicate messages do), and the map is triangular, so a row costs
//! half of M × rank multiplications.

use faer::MatRef;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::kernel::{dense_matrix, squared_norms, Kernel, KernelFunction, Postings};
use crate::error::{Error, Result};
use crate::model::random::SplitMix;
use crate::packed::Table;
use crate::vectorize::{matrix_row, pick_rows, renumber, Matrix, SparseRow};

/// Rows transformed at once: enough for the matrix product to run at speed, few enough that a
/// block's kernel values stay small.
const BLOCK: usize = 256;

thread_local! {
    /// One thread's kernel values of a row, kept between the documents of a stream.
    static ROW_SCRATCH: std::cell::RefCell<Vec<f64>> = std::cell::RefCell::default();
}

/// A fitted Nyström map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Stored", into = "Stored")]
pub struct Nystroem {
    kernel: KernelFunction,
    landmarks: Matrix,
    landmark_squares: Vec<f64>,
    /// M × `rank`, row-major: row a gives landmark a's kernel value's part in each feature.
    map: Vec<f64>,
    rank: usize,
    /// Whether the map's first `rank` rows are upper triangular and the others zero, as a map
    /// fitted from a [`Factor`] is (its landmarks come in pivot order). A map saved by an
    /// earlier version, from an eigendecomposition, is dense and multiplied in full.
    triangular: bool,
    /// The inverted index of the landmarks the map reads ([`Nystroem::landmarks_used`]), so a
    /// row's dot products with them cost only the landmarks' entries in the row's columns. Each
    /// dot product still sums its products in column order, as a walk over the landmark's own
    /// entries would, so the values are the same. With 20 Newsgroups' default features a row
    /// shares few of its columns with each landmark's hundreds: 5-fold `cv` with 1,000
    /// landmarks took 28.5 s against 53.9 s with a walk over every landmark's entries.
    postings: Postings,
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
        let map = stored.map.to_vec();
        let mut nystroem = Nystroem {
            kernel: stored.kernel,
            landmark_squares: squared_norms(&landmarks),
            triangular: is_triangular(&map, stored.rank),
            postings: Postings::default(),
            landmarks,
            map,
            rank: stored.rank,
        };
        nystroem.index();
        Ok(nystroem)
    }
}

impl Nystroem {
    /// Draws `components` landmarks from the rows of `x` (all of them when there are fewer) with
    /// a generator seeded by `seed`, and computes the map.
    pub fn fit(x: &Matrix, kernel: &Kernel, components: usize, seed: u64) -> Result<Self> {
        let (mut nystroem, factor, _) = Self::factored(x, kernel, components, seed)?;
        nystroem.map = factor.map(nystroem.components());
        Ok(nystroem)
    }

    /// Fits the map as [`Nystroem::fit`] does and gives the features of the rows of `x`, as
    /// [`Nystroem::transform`] does. A landmark's features are its row of the kernel matrix's
    /// Cholesky factor, K(l, L₁)·L₁₁^(−T) = L_l, equal to what [`Nystroem::transform`] gives
    /// up to rounding; only the other rows are mapped. With SMS's 2,000 landmarks among 3,900
    /// rows, that took the fit to 0.60–0.66 s from 0.73–0.80 s.
    pub fn fit_transform(
        x: &Matrix,
        kernel: &Kernel,
        components: usize,
        seed: u64,
    ) -> Result<(Self, Matrix)> {
        let (mut nystroem, factor, landmark_rows) = Self::factored(x, kernel, components, seed)?;
        let r = nystroem.rank;
        let mut features = vec![0.0; x.rows() * r];
        factor.write_rows(&landmark_rows, &mut features);
        nystroem.map = factor.map(nystroem.components());
        let mut landmark = vec![false; x.rows()];
        landmark_rows.iter().for_each(|&i| landmark[i] = true);
        let others: Vec<usize> = (0..x.rows()).filter(|&i| !landmark[i]).collect();
        let mapped = nystroem.transform_dense(&pick_rows(x, &others)?);
        for (&i, row) in others.iter().zip(mapped.chunks(r.max(1))) {
            features[i * r..][..r].copy_from_slice(row);
        }
        let features = dense_matrix(features, x.rows(), r)?;
        Ok((nystroem, features))
    }

    /// Draws the landmarks and factors their kernel matrix: the map without its values, with
    /// its landmarks in the factor's pivot order, the factor, and the landmarks' rows of `x` in
    /// that order.
    fn factored(
        x: &Matrix,
        kernel: &Kernel,
        components: usize,
        seed: u64,
    ) -> Result<(Self, Factor, Vec<usize>)> {
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
        let distinct = distinct_first(x, &mut order);
        let landmarks = pick_rows(x, &order)?;
        let landmark_squares = squared_norms(&landmarks);
        // Until the factor gives the rank, the map reads the distinct landmarks: their kernel
        // matrix is the one factored.
        let mut nystroem = Nystroem {
            kernel: function,
            landmarks,
            landmark_squares,
            map: Vec::new(),
            rank: distinct,
            triangular: true,
            postings: Postings::default(),
        };
        nystroem.index();
        let factor = Factor::new(|| nystroem.landmark_kernel(), distinct)?;
        let pivots = factor.order.iter().copied().chain(distinct..order.len());
        let mut order: Vec<usize> = pivots.map(|l| order[l]).collect();
        nystroem.landmarks = pick_rows(x, &order)?;
        nystroem.landmark_squares = squared_norms(&nystroem.landmarks);
        nystroem.rank = factor.rank;
        nystroem.index();
        order.truncate(distinct);
        Ok((nystroem, factor, order))
    }

    /// The kernel matrix of the landmarks the map reads, row-major, computed in parallel blocks
    /// of rows.
    fn landmark_kernel(&self) -> Vec<f64> {
        let m = self.landmarks_used();
        let mut gram = vec![0.0; m * m];
        // Each row from its diagonal on: the upper triangle, the only one either factor reads
        // (see [`cholesky`] and [`pivoted_cholesky`]); the matrix is symmetric, so the rest
        // would repeat it.
        gram.par_chunks_mut(m).enumerate().for_each(|(a, row)| {
            let (indices, values) = matrix_row(&self.landmarks, a);
            self.row_values(indices, values, a, row);
        });
        gram
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

    /// Number of features the map gives: the numerical rank of K(L, L), at most M.
    pub fn features(&self) -> usize {
        self.rank
    }

    /// The columns of the rows the map was fitted on.
    pub fn columns(&self) -> usize {
        self.landmarks.cols()
    }

    /// How many landmarks' kernel values the map reads: the first `rank` of a triangular map,
    /// every landmark of a dense one.
    fn landmarks_used(&self) -> usize {
        if self.triangular {
            self.rank
        } else {
            self.components()
        }
    }

    /// Indexes the landmarks the map reads.
    fn index(&mut self) {
        let used = self
            .landmarks
            .slice_outer(0..self.landmarks_used())
            .to_owned();
        self.postings = Postings::new(&used);
    }

    /// K(x_i, landmark l) for rows `rows` of `x` and the landmarks the map reads, into `out`
    /// (row-major, [`Nystroem::landmarks_used`] per row).
    fn landmark_values(&self, x: &Matrix, rows: std::ops::Range<usize>, out: &mut [f64]) {
        for (i, slots) in rows.zip(out.chunks_mut(self.landmarks_used().max(1))) {
            let (indices, values) = matrix_row(x, i);
            self.row_values(indices, values, 0, slots);
        }
    }

    /// K(x, landmark l) for one row (`indices`, `values`) and the landmarks the map reads from
    /// `first` on, into `out` ([`Nystroem::landmarks_used`] long; the first `first` left alone).
    fn row_values(&self, indices: &[u32], values: &[f64], first: usize, out: &mut [f64]) {
        let square: f64 = values.iter().map(|v| v * v).sum();
        out[first..].fill(0.0);
        self.postings.add_dots(indices, values, first, out);
        for (l, slot) in out.iter_mut().enumerate().skip(first) {
            *slot = self.kernel.value(*slot, square, self.landmark_squares[l]);
        }
    }

    /// The features of every row of `x`, row-major, [`Nystroem::features`] per row: blocks of
    /// rows in parallel, each a matrix product.
    pub fn transform_dense(&self, x: &Matrix) -> Vec<f64> {
        use faer::linalg::matmul::triangular::{matmul, BlockStructure};
        use faer::{Accum, MatMut};
        let (n, r) = (self.landmarks_used(), self.rank);
        let mut out = vec![0.0; x.rows() * r];
        // The map is stored row-major, so read column-major it is its transpose, r × n: lower
        // triangular when the map is upper triangular.
        let map_t = MatRef::from_column_major_slice(&self.map[..n * r], r, n);
        let structure = match self.triangular {
            true => BlockStructure::TriangularLower,
            false => BlockStructure::Rectangular,
        };
        let par = faer::get_global_parallelism();
        out.par_chunks_mut((BLOCK * r).max(1))
            .enumerate()
            .for_each(|(b, chunk)| {
                let rows = b * BLOCK..(b * BLOCK + chunk.len() / r.max(1));
                let mut values = vec![0.0; rows.len() * n];
                self.landmark_values(x, rows.clone(), &mut values);
                // Row-major values read column-major are their transpose, n × rows; the
                // product, features × rows column-major, is the rows' features row-major.
                let values_t = MatRef::from_column_major_slice(&values, n, rows.len());
                let features = MatMut::from_column_major_slice_mut(chunk, r, rows.len());
                let rectangular = BlockStructure::Rectangular;
                matmul(
                    features,
                    rectangular,
                    Accum::Replace,
                    map_t,
                    structure,
                    values_t,
                    rectangular,
                    1.0,
                    par,
                );
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
        ROW_SCRATCH.with_borrow_mut(|kernel| {
            kernel.resize(self.landmarks_used(), 0.0);
            self.row_values(indices, values, 0, kernel);
            out.fill(0.0);
            let map_rows = self.map.chunks(self.rank.max(1));
            for (a, (k, map_row)) in kernel.iter().zip(map_rows).enumerate() {
                // A triangular map's row a is zero before its a-th value.
                let from = if self.triangular { a } else { 0 };
                let pairs = out[from..].iter_mut().zip(&map_row[from..]);
                pairs.for_each(|(o, &u)| *o += k * u);
            }
        });
    }

    /// The same map with its features in reverse order, rebuilt from what a model file holds:
    /// a rotation of the features, which is not triangular.
    #[cfg(test)]
    pub(super) fn with_features_reversed(&self) -> Self {
        let mut stored = Stored::from(self.clone());
        let rows = stored.map.chunks(stored.rank.max(1));
        let reversed: Vec<f64> = rows.flat_map(|row| row.iter().rev().copied()).collect();
        stored.map = reversed.into();
        Nystroem::try_from(stored).expect("a reversed map is a valid map")
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
        self.index();
        Ok(())
    }
}

/// The Cholesky factor L of the distinct landmarks' kernel matrix K, whose first r columns give
/// the map. Repeated landmarks are left out of K: they would make it singular, and add nothing.
///
/// The factor is first sought without pivots, K = L·Lᵀ, which faer computes in blocks. It is
/// kept when every pivot (what is left of a diagonal entry when its column comes) is at least
/// √ε times K's largest diagonal entry, so that K is well within full rank; then r = n. With
/// SMS's 1,915 distinct landmarks among 2,000 (the smallest pivot 0.033 times the largest
/// entry) it took 48 ms, against about 120 ms for the pivoted factor.
///
/// A smaller pivot means K may be singular, or nearly so. Then the factor is a pivoted one,
/// P·K·Pᵀ = L·Lᵀ: it picks, one by one, the landmark that the ones chosen before explain least,
/// and stops when what is left of every diagonal entry falls below n·ε times the largest. The
/// rest is rounding noise, and inverting it would amplify that noise; r is the numerical rank.
///
/// The map sends the first r landmarks' kernel values through L₁₁^(−T), their block's inverse
/// transposed. Then φ(x)·φ(z) = K(x, L₁)·K(L₁, L₁)^(−1)·K(L₁, z), the lectures' Nyström
/// kernel, and φ is their U·D^(−1/2)·Uᵀ map turned by an orthogonal matrix. The factor and the
/// triangular inverse take n³/3 multiplications each, against about 9n³ for the
/// eigendecomposition: with SMS's 2,000 landmarks, the fit took 1.0 s against 1.56 s.
struct Factor {
    /// The distinct landmarks' order for the map: the r pivots first, then the others.
    order: Vec<usize>,
    /// r.
    rank: usize,
    /// n × n, column-major: L in its first r columns, lower triangular in its first r rows.
    /// The other columns, and the upper triangle, hold what the factorization left there.
    values: Vec<f64>,
    /// n, the distinct landmarks.
    side: usize,
}

impl Factor {
    /// Factors the symmetric `n` × `n` kernel matrix whose upper triangle `kernel_matrix` gives,
    /// row-major; refuses one with a negative or NaN diagonal entry. `kernel_matrix` is called
    /// again when the factor without pivots is not kept, since it factors the matrix in place.
    fn new(kernel_matrix: impl Fn() -> Vec<f64>, n: usize) -> Result<Factor> {
        let mut values = kernel_matrix();
        let diagonal: Vec<f64> = (0..n).map(|i| values[i * n + i]).collect();
        if diagonal.iter().any(|k| k.is_nan() || *k < 0.0) {
            return Err(Error::Config(
                "the landmarks' kernel is not positive semi-definite (a document's kernel with \
                 itself is negative or not a number): choose another --coef0 or --degree"
                    .into(),
            ));
        }
        let largest = diagonal.iter().copied().fold(0.0, f64::max);
        let (order, rank) = if largest == 0.0 {
            ((0..n).collect(), 0)
        } else if cholesky(&mut values, n, f64::EPSILON.sqrt() * largest) {
            ((0..n).collect(), n)
        } else {
            values = kernel_matrix();
            pivoted_cholesky(&mut values, n)?
        };
        Ok(Factor {
            order,
            rank,
            values,
            side: n,
        })
    }

    /// Writes each landmark a's row of L (r values, zero past the diagonal) into row
    /// `rows[a]` of `out`, row-major with r values a row. L is column-major, so its rows are
    /// read 32 columns at a time: each column's cache line then serves 8 landmarks in turn.
    fn write_rows(&self, rows: &[usize], out: &mut [f64]) {
        let r = self.rank;
        for first in (0..r).step_by(32) {
            // L's row a is zero past column a, so rows before `first` have nothing here.
            for (a, &i) in rows.iter().enumerate().skip(first) {
                let columns = first..(first + 32).min(r).min(a + 1);
                let row = &mut out[i * r..][columns.clone()];
                let values = columns.map(|f| self.values[f * self.side + a]);
                row.iter_mut().zip(values).for_each(|(o, v)| *o = v);
            }
        }
    }

    /// L₁₁, L's first r rows.
    fn leading(&self) -> MatRef<'_, f64> {
        let factor = MatRef::from_column_major_slice(&self.values, self.side, self.side);
        factor.submatrix(0, 0, self.rank, self.rank)
    }

    /// The map of `landmarks` (M) landmarks: M × r, row-major, L₁₁^(−T) in its first r rows
    /// (upper triangular) and zeros in the others; the factor is dropped once inverted.
    fn map(self, landmarks: usize) -> Vec<f64> {
        let par = faer::get_global_parallelism();
        let r = self.rank;
        let mut map = vec![0.0; landmarks * r];
        // The map's first r rows, row-major, read column-major are L₁₁^(−1), lower triangular.
        let inverse = faer::MatMut::from_column_major_slice_mut(&mut map[..r * r], r, r);
        faer::linalg::triangular_inverse::invert_lower_triangular(inverse, self.leading(), par);
        // faer writes the lower triangle only; the upper stays as it was, zero.
        map
    }
}

/// faer's Cholesky factor, without pivots, of the symmetric `n` × `n` matrix whose upper triangle
/// `gram` holds row-major, in place (as [`pivoted_cholesky`]'s); whether it exists with every
/// pivot at least `threshold`.
fn cholesky(gram: &mut [f64], n: usize, threshold: f64) -> bool {
    use faer::dyn_stack::{MemBuffer, MemStack};
    use faer::linalg::cholesky::llt::factor::{cholesky_in_place, cholesky_in_place_scratch};
    let mut factor = faer::MatMut::from_column_major_slice_mut(gram, n, n);
    let par = faer::get_global_parallelism();
    let scratch = cholesky_in_place_scratch::<f64>(n, par, Default::default());
    let mut buffer = MemBuffer::new(scratch);
    let stack = MemStack::new(&mut buffer);
    let (no_regularization, params) = (Default::default(), Default::default());
    let factored = cholesky_in_place(factor.as_mut(), no_regularization, par, stack, params);
    // A pivot is the square of L's diagonal entry.
    factored.is_ok() && (0..n).all(|i| factor[(i, i)] * factor[(i, i)] >= threshold)
}

/// Puts first the first draw of each distinct row among the rows `order` of `x`, in their order,
/// and the repeats after them; returns how many are distinct. A repeated landmark's kernel
/// values repeat another's: it adds nothing to the map, and makes the kernel matrix singular.
fn distinct_first(x: &Matrix, order: &mut Vec<usize>) -> usize {
    let mut seen = std::collections::HashSet::new();
    let (distinct, repeats): (Vec<usize>, Vec<usize>) = order.iter().partition(|&&i| {
        let (indices, values) = matrix_row(x, i);
        seen.insert((
            indices,
            values.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        ))
    });
    let n = distinct.len();
    *order = [distinct, repeats].concat();
    n
}

/// faer's pivoted Cholesky factor of the symmetric `m` × `m` matrix whose upper triangle
/// `gram` holds row-major, in place, stopped at its numerical rank: `gram` read column-major
/// then holds the factor, its first `rank` columns lower triangular. Returns the pivots in
/// order and the rank. Read column-major, the row-major upper triangle is the lower one, the
/// only one the factorization reads.
fn pivoted_cholesky(gram: &mut [f64], m: usize) -> Result<(Vec<usize>, usize)> {
    use faer::dyn_stack::{MemBuffer, MemStack};
    use faer::linalg::cholesky::llt_pivoting::factor::{
        cholesky_in_place, cholesky_in_place_scratch,
    };
    let factor = faer::MatMut::from_column_major_slice_mut(gram, m, m);
    let par = faer::get_global_parallelism();
    let (mut perm, mut perm_inverse) = (vec![0usize; m], vec![0usize; m]);
    let scratch = cholesky_in_place_scratch::<usize, f64>(m, par, Default::default());
    let mut buffer = MemBuffer::new(scratch);
    let (stack, params) = (MemStack::new(&mut buffer), Default::default());
    let factored = cholesky_in_place(factor, &mut perm, &mut perm_inverse, par, stack, params);
    let error = |e| {
        Error::Config(format!(
            "the landmarks' kernel has no Cholesky factor: {e:?}"
        ))
    };
    let rank = factored.map_err(error)?.0.rank;
    Ok((perm, rank))
}

/// Whether the row-major `map` of `rank` columns has its first `rank` rows upper triangular and
/// the others zero.
fn is_triangular(map: &[f64], rank: usize) -> bool {
    let mut rows = map.chunks(rank.max(1)).enumerate();
    rows.all(|(a, row)| {
        row.iter()
            .enumerate()
            .all(|(f, &v)| v == 0.0 || (a < rank && f >= a))
    })
}
