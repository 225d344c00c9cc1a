//! Random Fourier features for the RBF kernel (Rahimi and Recht 2007): with w ~ N(0, 2γ·I) and
//! b ~ U[0, 2π], z(x) = √(2/M)·cos(W·x + b) has E[z(x)·z(y)] = exp(−γ·‖x − y‖²), so M features
//! approximate the kernel with an error that shrinks as 1/√M.
//!
//! W has columns × M entries: for a vocabulary of a million terms and M = 4,000, 32 GB. It is
//! therefore never stored: the M weights of input column j are drawn again, whenever they are
//! needed, from generators seeded by the map's seed and the column's key (the column's number
//! when the map was fitted), one per block of [`DRAW_BLOCK`] components, so the map is its
//! seed, γ, M offsets and one key per column. A batch of rows draws each column it uses once;
//! one row draws its own columns' weights.

use serde::{Deserialize, Serialize};

use super::kernel::{Gamma, Kernel, KernelKind};
use super::{cosine, ziggurat};
use crate::error::{Error, Result};
use crate::model::random::SplitMix;
use crate::packed::Table;
use crate::vectorize::{matrix_row, Matrix};

thread_local! {
    /// One thread's weights of one input column, kept between documents so that mapping a
    /// stream allocates nothing per document after the first.
    static COLUMN_WEIGHTS: std::cell::RefCell<Vec<f64>> = std::cell::RefCell::default();
}

/// The weights drawn and held at once when transforming a batch: 32 MB.
const WEIGHTS_HELD: usize = 1 << 22;

/// The components whose weights, for one column, one generator draws in a map of the
/// ziggurat's. A batch then draws and holds one block of components of many columns at once.
/// Part of what a saved map means: changing it changes every map's weights.
const DRAW_BLOCK: usize = 256;

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
    /// How the weights are drawn; a map saved before format 15 reads as Box–Muller.
    #[serde(default)]
    normals: Normals,
}

/// How a map draws its normal weights from a column's generator. A saved map keeps its way, so
/// that it draws the same weights again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Normals {
    /// Box–Muller, two normals from each pair of uniforms: the maps of formats 12 to 14.
    #[default]
    BoxMuller,
    /// `rand_distr`'s ziggurat, which mostly needs one uniform and a table lookup per normal
    /// instead of a logarithm, a sine and a cosine per pair: SMS's 31 million weights drew in
    /// 83 ms against 625 ms. Every map fitted since format 15 draws so.
    Ziggurat,
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
            normals: Normals::Ziggurat,
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

    /// How many components' weights one generator draws: every component for Box–Muller, a
    /// block of [`DRAW_BLOCK`] for the ziggurat.
    fn draw_block(&self) -> usize {
        match self.normals {
            Normals::BoxMuller => self.components.max(1),
            Normals::Ziggurat => DRAW_BLOCK,
        }
    }

    /// The weights, N(0, 2γ) each, of the input column with key `key` for the components of
    /// draw block `block` (every component for Box–Muller), into `out`.
    fn block_weights(&self, key: u32, block: usize, out: &mut [f64]) {
        let deviation = (2.0 * self.gamma).sqrt();
        // The key is mixed into one word first, so that no two columns' streams overlap; for
        // the ziggurat, the block's number is mixed with that word again, so that no two
        // blocks' streams do.
        let mut rng = mixed(self.seed, u64::from(key));
        if self.normals == Normals::Ziggurat {
            rng = mixed(rng.0, block as u64);
            ziggurat::scaled_normals(&mut rng, deviation, out);
            return;
        }
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

    /// The M weights of the input column with key `key`, into `out`.
    fn column_weights(&self, key: u32, out: &mut [f64]) {
        for (block, out) in out.chunks_mut(self.draw_block()).enumerate() {
            self.block_weights(key, block, out);
        }
    }

    /// z(x) for every row of `x`, row-major, M per row; columns the map was not fitted on are
    /// left out. The components are taken one draw block at a time, and within it the columns
    /// that occur as many at a time as 32 MB of weights allows: their weights are drawn (in
    /// parallel), then every row adds its values' share, rows in parallel. A row's block of
    /// sums stays in cache while its entries add to it, and takes its cosines before it
    /// leaves; with Box–Muller's one block of every component, the whole rows are swept again
    /// for each group of columns.
    pub fn transform_dense(&self, x: &Matrix) -> Vec<f64> {
        use rayon::prelude::*;
        let (m, draw) = (self.components, self.draw_block());
        // Zeros from the allocator are pages not yet touched: each row's first group writes its
        // offsets, so the pages are first touched by the threads that fill them.
        let mut out = vec![0.0; x.rows() * m];
        let (columns, places) = self.used_columns(x);
        let held = (WEIGHTS_HELD / draw).max(1);
        // Rows with no entries in the map's columns still take their cosines, in one group.
        let groups = columns.len().div_ceil(held).max(1);
        let mut weights = vec![0.0; held.min(columns.len()) * draw];
        let scale = (2.0 / m as f64).sqrt();
        for (block, first) in (0..m).step_by(draw).enumerate() {
            let width = draw.min(m - first);
            let mut cursors = vec![0usize; x.rows()];
            for group in 0..groups {
                let start = (group * held).min(columns.len());
                let part = &columns[start..][..held.min(columns.len() - start)];
                let weights = &mut weights[..part.len() * width];
                (weights.par_chunks_mut(width).zip(part))
                    .for_each(|(w, &j)| self.block_weights(self.keys[j as usize], block, w));
                let group = Group {
                    last: part.last().copied(),
                    start,
                    places: &places,
                    weights,
                };
                (out.par_chunks_mut(m).zip(cursors.par_iter_mut()))
                    .enumerate()
                    .for_each(|(i, (row, cursor))| {
                        let sums = &mut row[first..first + width];
                        if start == 0 {
                            sums.copy_from_slice(&self.offsets[first..first + width]);
                        }
                        group.add_row_share(matrix_row(x, i), cursor, sums);
                        if start + held >= columns.len() {
                            cosine::scaled_cosines(sums, scale);
                        }
                    });
            }
        }
        out
    }

    /// The columns the map was fitted on that `x`'s rows hold, in order, and each column's
    /// place among them (meaningless for the others).
    fn used_columns(&self, x: &Matrix) -> (Vec<u32>, Vec<u32>) {
        let mut used = vec![false; self.keys.len()];
        for &j in x.indices() {
            if let Some(u) = used.get_mut(j as usize) {
                *u = true;
            }
        }
        let columns: Vec<u32> = (0..used.len() as u32)
            .filter(|&j| used[j as usize])
            .collect();
        let mut places = vec![0; used.len()];
        (columns.iter().enumerate()).for_each(|(place, &j)| places[j as usize] = place as u32);
        (columns, places)
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
        cosine::scaled_cosines(out, (2.0 / self.components as f64).sqrt());
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

/// A group of the used columns whose weights for one draw block are held at once.
struct Group<'g> {
    /// The group's last column; `None` for a group of no columns.
    last: Option<u32>,
    /// The place of the group's first column among the used columns.
    start: usize,
    /// Each used column's place among them.
    places: &'g [u32],
    /// The group's columns' weights, in order, `width` per column.
    weights: &'g [f64],
}

impl Group<'_> {
    /// Adds to `sums` (`width` long) the share of the row (`indices`, `values`) in the group's
    /// columns. `cursor` is where the row's entries in the group start, and is moved past them.
    fn add_row_share(
        &self,
        (indices, values): (&[u32], &[f64]),
        cursor: &mut usize,
        sums: &mut [f64],
    ) {
        let width = sums.len();
        let Some(last) = self.last else { return };
        // Every column up to `last` that a row holds is in this group or an earlier one: the
        // groups hold every column of the rows that the map was fitted on, and the others come
        // after them.
        while let (Some(&j), Some(&v)) = (indices.get(*cursor), values.get(*cursor)) {
            if j > last {
                break;
            }
            *cursor += 1;
            let slot = self.places[j as usize] as usize - self.start;
            let w = &self.weights[slot * width..][..width];
            sums.iter_mut().zip(w).for_each(|(o, &w)| *o += v * w);
        }
    }
}

/// A generator seeded by `number` mixed into `word`: the first draw of a generator from `word`
/// with `number` times an odd constant folded in.
fn mixed(word: u64, number: u64) -> SplitMix {
    SplitMix(SplitMix(word ^ number.wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64())
}

/// A uniform draw from (0, 1), never 0, from the generator's top 53 bits.
fn unit(rng: &mut SplitMix) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
}
