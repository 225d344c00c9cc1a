//! Random Fourier features for the RBF kernel (Rahimi and Recht 2007): with w ~ N(0, 2γ·I) and
//! b ~ U[0, 2π], z(x) = √(2/M)·cos(W·x + b) has E[z(x)·z(y)] = exp(−γ·‖x − y‖²), so M features
//! approximate the kernel with an error that shrinks as 1/√M.
//!
//! W has columns × M entries: for a vocabulary of a million terms and M = 4,000, 32 GB. It is
//! therefore never stored: the M weights of input column j are drawn again, whenever they are
//! needed, from a generator seeded by the map's seed and the column's key (the column's number
//! when the map was fitted), so the map is its seed, γ, M offsets and one key per column. A
//! batch of rows draws each column it uses once; one row draws its own columns' weights.

use serde::{Deserialize, Serialize};

use super::kernel::{Gamma, Kernel, KernelKind};
use crate::error::{Error, Result};
use crate::model::random::SplitMix;
use crate::packed::Table;
use crate::vectorize::{matrix_row, Matrix};

thread_local! {
    /// One thread's weights of one input column, kept between documents so that mapping a
    /// stream allocates nothing per document after the first.
    static COLUMN_WEIGHTS: std::cell::RefCell<Vec<f64>> = std::cell::RefCell::default();
}

/// Input columns whose weights are drawn and held at once when transforming a batch: at M =
/// 4,000, 32 MB.
const COLUMN_BLOCK: usize = 1024;

/// A fitted random Fourier feature map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FourierFeatures {
    components: usize,
    /// γ as fixed by the training data.
    gamma: f64,
    seed: u64,
    offsets: Vec<f64>,
    /// Per input column, the key its weights are drawn with.
    keys: Table<u32>,
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
        let gamma = kernel.resolve(x).gamma;
        let mut rng = SplitMix(seed);
        let offsets = (0..components)
            .map(|_| std::f64::consts::TAU * unit(&mut rng))
            .collect();
        let columns = u32::try_from(x.cols())
            .map_err(|_| Error::Config("too many columns for random Fourier features".into()))?;
        Ok(FourierFeatures {
            components,
            gamma,
            seed,
            offsets,
            keys: (0..columns).collect(),
        })
    }

    /// Number of features, M.
    pub fn components(&self) -> usize {
        self.components
    }

    /// γ of the RBF kernel approximated.
    pub fn gamma(&self) -> f64 {
        self.gamma
    }

    /// The columns of the rows the map takes.
    pub fn columns(&self) -> usize {
        self.keys.len()
    }

    /// Checks what a damaged model file could make unusable.
    pub(crate) fn check(&self) -> Result<()> {
        if self.components == 0 || self.offsets.len() != self.components {
            return Err(Error::Config(format!(
                "random Fourier features: {} offsets for {} components",
                self.offsets.len(),
                self.components
            )));
        }
        if !(self.gamma > 0.0 && self.gamma.is_finite()) {
            return Err(Error::Config("random Fourier features: bad gamma".into()));
        }
        Ok(())
    }

    /// The M weights of the input column with key `key`, N(0, 2γ) each, into `out`.
    fn column_weights(&self, key: u32, out: &mut [f64]) {
        let deviation = (2.0 * self.gamma).sqrt();
        // The key is mixed into one word first, so that no two columns' streams overlap.
        let mut mixer = SplitMix(self.seed ^ u64::from(key).wrapping_mul(0xD1B5_4A32_D192_ED03));
        let mut rng = SplitMix(mixer.next_u64());
        // Box–Muller gives two independent normals per pair of uniforms; both are used.
        for pair in out.chunks_mut(2) {
            let (u, v) = (unit(&mut rng), unit(&mut rng));
            let radius = deviation * (-2.0 * u.ln()).sqrt();
            let (sin, cos) = (std::f64::consts::TAU * v).sin_cos();
            pair[0] = radius * cos;
            if let Some(second) = pair.get_mut(1) {
                *second = radius * sin;
            }
        }
    }

    /// z(x) for every row of `x`, row-major, M per row; columns the map was not fitted on are
    /// left out. The columns that occur are taken `COLUMN_BLOCK` at a time: their weights
    /// are drawn (in parallel), then every row adds its values' share, rows in parallel.
    pub fn transform_dense(&self, x: &Matrix) -> Vec<f64> {
        use rayon::prelude::*;
        let m = self.components;
        let mut out: Vec<f64> = (0..x.rows())
            .flat_map(|_| self.offsets.iter().copied())
            .collect();
        let mut used = vec![false; self.keys.len()];
        for &j in x.indices() {
            if let Some(u) = used.get_mut(j as usize) {
                *u = true;
            }
        }
        let columns: Vec<u32> = (0..used.len() as u32)
            .filter(|&j| used[j as usize])
            .collect();
        let mut cursors = vec![0usize; x.rows()];
        let mut weights = vec![0.0; COLUMN_BLOCK.min(columns.len()) * m];
        for block in columns.chunks(COLUMN_BLOCK) {
            let weights = &mut weights[..block.len() * m];
            (weights.par_chunks_mut(m.max(1)).zip(block))
                .for_each(|(w, &j)| self.column_weights(self.keys[j as usize], w));
            let last = block[block.len() - 1];
            (out.par_chunks_mut(m.max(1)).zip(cursors.par_iter_mut()))
                .enumerate()
                .for_each(|(i, (row, cursor))| {
                    let (indices, values) = matrix_row(x, i);
                    while let (Some(&j), Some(&v)) = (indices.get(*cursor), values.get(*cursor)) {
                        if j > last {
                            break;
                        }
                        *cursor += 1;
                        let slot = block.partition_point(|&c| c < j);
                        let w = &weights[slot * m..][..m];
                        row.iter_mut().zip(w).for_each(|(o, &w)| *o += v * w);
                    }
                });
        }
        let scale = (2.0 / m as f64).sqrt();
        out.par_iter_mut().for_each(|o| *o = scale * o.cos());
        out
    }

    /// z(x) for every row of `x`, as a matrix of M columns.
    pub fn transform(&self, x: &Matrix) -> Result<Matrix> {
        super::kernel::dense_matrix(self.transform_dense(x), x.rows(), self.components)
    }

    /// z(x) of one row (`indices`, `values`), into `out` (M long); columns the map was not
    /// fitted on are left out.
    pub fn transform_row(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        out.copy_from_slice(&self.offsets);
        COLUMN_WEIGHTS.with_borrow_mut(|w| {
            w.resize(self.components, 0.0);
            for (&j, &v) in indices.iter().zip(values) {
                if let Some(&key) = self.keys.get(j as usize) {
                    self.column_weights(key, w);
                    out.iter_mut().zip(w.iter()).for_each(|(o, &w)| *o += v * w);
                }
            }
        });
        let scale = (2.0 / self.components as f64).sqrt();
        out.iter_mut().for_each(|o| *o = scale * o.cos());
    }

    /// Follows a grown vocabulary: `columns` gives each old column its place among `features`.
    /// Each old column keeps its key, so its weights do not change; a new column gets a key of
    /// its own, past every key in use.
    pub fn remap(&mut self, columns: &[u32], features: usize) -> Result<()> {
        let mut keys = vec![u32::MAX; features];
        for (&new, &key) in columns.iter().zip(self.keys.iter()) {
            if let Some(slot) = keys.get_mut(new as usize) {
                *slot = key;
            }
        }
        let mut next = self.keys.iter().max().map_or(0, |&k| k.saturating_add(1));
        for key in keys.iter_mut().filter(|k| **k == u32::MAX) {
            *key = next;
            next = next.checked_add(1).ok_or_else(|| {
                Error::Config("too many columns for random Fourier features".into())
            })?;
        }
        self.keys = keys.into();
        Ok(())
    }
}

/// A uniform draw from (0, 1), never 0, from the generator's top 53 bits.
fn unit(rng: &mut SplitMix) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
}
