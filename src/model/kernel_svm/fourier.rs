//! Random Fourier features for the RBF kernel (Rahimi and Recht 2007): with w ~ N(0, 2γ·I) and
//! b ~ U[0, 2π], z(x) = √(2/M)·cos(W·x + b) has E[z(x)·z(y)] = exp(−γ·‖x − y‖²), so M features
//! approximate the kernel with an error that shrinks as 1/√M.
//!
//! W is stored feature-major (M weights per input column) so that a sparse row costs its
//! non-zeros × M; it takes columns × M × 8 bytes.

use super::kernel::{dense_rows, Gamma, Kernel, KernelKind};
use crate::error::{Error, Result};
use crate::model::random::SplitMix;
use crate::vectorize::{matrix_row, Matrix};

/// A fitted random Fourier feature map.
#[derive(Debug, Clone, PartialEq)]
pub struct FourierFeatures {
    components: usize,
    /// `weights[j * components + m]`.
    weights: Vec<f64>,
    offsets: Vec<f64>,
}

impl FourierFeatures {
    /// Draws the map for inputs of `x`'s columns, with `components` features, from a generator
    /// seeded by `seed`; γ = `scale` is computed from `x`.
    pub fn fit(x: &Matrix, gamma: Gamma, components: usize, seed: u64) -> Result<Self> {
        let kernel = Kernel {
            gamma,
            ..Kernel::new(KernelKind::Rbf)
        };
        kernel.validate()?;
        if components == 0 {
            return Err(Error::Config(
                "random Fourier features need at least one component".into(),
            ));
        }
        let deviation = (2.0 * kernel.resolve(x).gamma).sqrt();
        let mut rng = SplitMix(seed);
        let weights = (0..x.cols() * components)
            .map(|_| deviation * normal(&mut rng))
            .collect();
        let offsets = (0..components)
            .map(|_| std::f64::consts::TAU * unit(&mut rng))
            .collect();
        Ok(FourierFeatures {
            components,
            weights,
            offsets,
        })
    }

    /// z(x) for every row of `x`; columns the map was not fitted on are left out.
    pub fn transform(&self, x: &Matrix) -> Result<Matrix> {
        let m = self.components;
        let scale = (2.0 / m as f64).sqrt();
        dense_rows(x.rows(), m, |i, out| {
            out.copy_from_slice(&self.offsets);
            let (indices, values) = matrix_row(x, i);
            for (&j, &v) in indices.iter().zip(values) {
                if let Some(w) = self.weights.get(j as usize * m..(j as usize + 1) * m) {
                    out.iter_mut().zip(w).for_each(|(o, &w)| *o += v * w);
                }
            }
            out.iter_mut().for_each(|o| *o = scale * o.cos());
        })
    }
}

/// A uniform draw from (0, 1), never 0, from the generator's top 53 bits.
fn unit(rng: &mut SplitMix) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
}

/// A standard normal draw (Box–Muller; the second value of each pair is not used, which keeps
/// the draw order simple at a cost only at fitting).
fn normal(rng: &mut SplitMix) -> f64 {
    let (u, v) = (unit(rng), unit(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}
