//! The Nyström approximation of a kernel (Williams and Seeger 2001): M landmark rows drawn from
//! the training data, and the map φ(x) = K(x, L)·V with V = U·D^(−1/2)·Uᵀ from the
//! eigendecomposition K(L, L) = U·D·Uᵀ, so that φ(x)·φ(z) approximates K(x, z) and equals it
//! on the landmarks. Eigenvalues that are zero to rounding are dropped rather than inverted.

use nalgebra::{DMatrix, SymmetricEigen};

use super::kernel::{dense_rows, squared_norms, Kernel, KernelFunction, Scatter};
use crate::error::{Error, Result};
use crate::model::random::SplitMix;
use crate::vectorize::{matrix_row, pick_rows, Matrix};

/// A fitted Nyström map.
#[derive(Debug, Clone, PartialEq)]
pub struct Nystroem {
    kernel: KernelFunction,
    landmarks: Matrix,
    landmark_squares: Vec<f64>,
    /// V, M × M, row-major.
    map: Vec<f64>,
}

impl Nystroem {
    /// Draws `components` landmarks from the rows of `x` (all of them when there are fewer) with
    /// a generator seeded by `seed`, and computes V.
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
        };
        let gram = nystroem.landmark_values(&nystroem.landmarks)?;
        nystroem.map = inverse_square_root(gram, order.len())?;
        Ok(nystroem)
    }

    /// The landmark rows, in the order of the features.
    pub fn landmarks(&self) -> &Matrix {
        &self.landmarks
    }

    /// The kernel, with γ as fixed by the training data.
    pub fn kernel(&self) -> KernelFunction {
        self.kernel
    }

    /// Number of features the map gives.
    pub fn components(&self) -> usize {
        self.landmarks.rows()
    }

    /// K(x_i, landmark m) for every row of `x`, `rows × M`.
    fn landmark_values(&self, x: &Matrix) -> Result<Matrix> {
        let m = self.components();
        let squares = squared_norms(x);
        dense_rows(x.rows(), m, |i, out| {
            let mut scatter = Scatter::new(self.landmarks.cols());
            let (indices, values) = matrix_row(x, i);
            scatter.load(indices, values);
            for (l, slot) in out.iter_mut().enumerate() {
                let (lj, lv) = matrix_row(&self.landmarks, l);
                let dot = scatter.dot(lj, lv);
                *slot = (self.kernel).value(dot, squares[i], self.landmark_squares[l]);
            }
        })
    }

    /// φ(x) for every row of `x`: M dense features per row.
    pub fn transform(&self, x: &Matrix) -> Result<Matrix> {
        let m = self.components();
        let values = self.landmark_values(x)?;
        dense_rows(x.rows(), m, |i, out| {
            let (indices, kx) = matrix_row(&values, i);
            for (&l, &k) in indices.iter().zip(kx) {
                let v_row = &self.map[l as usize * m..][..m];
                out.iter_mut().zip(v_row).for_each(|(o, &v)| *o += k * v);
            }
        })
    }
}

/// U·D^(−1/2)·Uᵀ of the symmetric `m` × `m` matrix `gram`, over the eigenvalues above
/// m·ε·λ_max; the others are rounding noise of a singular matrix, and inverting them would
/// amplify that noise.
fn inverse_square_root(gram: Matrix, m: usize) -> Result<Vec<f64>> {
    let dense = DMatrix::from_fn(m, m, |i, j| gram.get(i, j).copied().unwrap_or(0.0));
    let eigen = SymmetricEigen::try_new(dense, f64::EPSILON, 0).ok_or_else(|| {
        Error::Config("the landmarks' kernel matrix has no eigendecomposition".into())
    })?;
    let largest = eigen.eigenvalues.iter().copied().fold(0.0, f64::max);
    let floor = largest * m as f64 * f64::EPSILON;
    let mut map = vec![0.0; m * m];
    for (k, &lambda) in eigen.eigenvalues.iter().enumerate() {
        if lambda <= floor {
            continue;
        }
        let u = eigen.eigenvectors.column(k);
        let scale = lambda.sqrt().recip();
        for i in 0..m {
            let ui = u[i] * scale;
            (map[i * m..][..m].iter_mut().zip(u.iter())).for_each(|(v, &uj)| *v += ui * uj);
        }
    }
    Ok(map)
}
