//! Scoring documents with naive Bayes: a score per class whose highest is the prediction.
//!
//! Naive Bayes weights are dense in principle (every term has a weight in every class) but
//! simple in structure: a term a class never saw has a weight that depends on the class alone,
//! or on the term alone. [`SparseScorer`] keeps that shared part and stores a delta only where a
//! class has counts, so a model over a million bigrams stays as small as its counts and is
//! ready in milliseconds after loading.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::sums::ClassSums;
use crate::packed::{Table, Word};

/// score_c = bias_c + scale_c · (Σ_j x_j base_j + slope_c Σ_j x_j + Σ_j x_j delta_cj), with the
/// deltas stored feature-major for the (few) classes that have them.
///
/// A model file stores it, so that loading uses it where it lies instead of computing it again
/// (about a million logarithms for a bigram vocabulary); the same values give the same scores to
/// the bit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SparseScorer {
    /// Per class: added last.
    pub bias: Vec<f64>,
    /// Per class: weight of every term, on top of `base` and the deltas.
    pub slope: Vec<f64>,
    /// Per class: multiplies everything but the bias.
    pub scale: Vec<f64>,
    /// Per feature, shared by all classes; empty when zero.
    pub base: Table<f64>,
    /// Treat every stored value as 1 (Bernoulli presence).
    pub binary: bool,
    features: usize,
    /// Feature j's deltas are `deltas[starts[j]..starts[j + 1]]`.
    starts: Table<u32>,
    deltas: Table<Delta>,
}

/// A class's delta for one feature.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[repr(C)]
pub struct Delta {
    class: u32,
    /// Spelled out, so that the record has no padding and its bytes are all defined.
    unused: u32,
    delta: f64,
}

// SAFETY: two `u32` and an `f64`, 16 bytes without padding, aligned to 8: any bytes are a value.
unsafe impl Word for Delta {
    const SIZE: usize = 16;

    fn put(&self, out: &mut Vec<u8>) {
        self.class.put(out);
        self.unused.put(out);
        self.delta.put(out);
    }

    fn take(bytes: &[u8]) -> Self {
        Delta {
            class: u32::take(&bytes[..4]),
            unused: u32::take(&bytes[4..8]),
            delta: f64::take(&bytes[8..]),
        }
    }
}

impl SparseScorer {
    /// A scorer with the given biases, slopes 0, scales 1, no base, and a delta wherever a
    /// class has counts: `delta(c, j, s)` for class `c`'s sum `s` of feature `j`. Returns it
    /// with each class's sum of deltas.
    ///
    /// The counts are class-major and the deltas feature-major, so this is a transpose. It runs
    /// over blocks of 16,384 features in parallel, each writing its own part of the layout;
    /// a part small enough to stay in cache turns a million scattered writes to memory into
    /// writes to cache, which matters when a model is loaded to classify one document.
    pub fn new(
        features: usize,
        bias: Vec<f64>,
        sums: &[ClassSums],
        delta: impl Fn(usize, u32, f64) -> f64 + Sync,
    ) -> (Self, Vec<f64>) {
        let classes = bias.len();
        let blocks = feature_blocks(features, sums);
        let mut deltas = vec![Delta::default(); blocks.iter().map(Block::entries).sum()];
        let mut starts = vec![0u32; features + 1];
        let mut tasks = Vec::with_capacity(blocks.len());
        let (mut rest, mut offset) = (&mut deltas[..], 0);
        for (block, ends) in blocks.into_iter().zip(starts[1..].chunks_mut(BLOCK)) {
            let entries = block.entries();
            let (part, tail) = std::mem::take(&mut rest).split_at_mut(entries);
            tasks.push((block, part, ends, offset));
            offset += entries;
            rest = tail;
        }
        let block_totals: Vec<Vec<f64>> = tasks
            .into_par_iter()
            .map(|(block, part, ends, offset)| block.lay_out(sums, part, ends, offset, &delta))
            .collect();
        let mut totals = vec![0.0; classes];
        for block in &block_totals {
            totals.iter_mut().zip(block).for_each(|(t, b)| *t += b);
        }
        let scorer = SparseScorer {
            bias,
            slope: vec![0.0; classes],
            scale: vec![1.0; classes],
            base: Table::default(),
            binary: false,
            features,
            starts: starts.into(),
            deltas: deltas.into(),
        };
        (scorer, totals)
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.bias.len()
    }

    /// The value scoring gives `value` of feature `j`: `None` where scoring skips it (a feature
    /// beyond the model's, or a Bernoulli term that is absent), 1 for a Bernoulli term that is
    /// present, and `value` itself otherwise.
    pub(crate) fn unit_value(&self, j: u32, value: f64) -> Option<f64> {
        match (j as usize) < self.features {
            false => None,
            true if self.binary => (value > 0.0).then_some(1.0),
            true => Some(value),
        }
    }

    /// Fills `out` (one slot per class) with what one unit of feature `j` adds to each class's
    /// score, `scale_c · (base_j + slope_c + delta_cj)`: the score, less the bias, is the sum of
    /// these times the row's [`unit_value`](SparseScorer::unit_value)s. `j` must be below the
    /// model's features.
    pub(crate) fn term_weights(&self, j: usize, out: &mut [f64]) {
        let base = self.base.get(j).copied().unwrap_or(0.0);
        out.iter_mut()
            .zip(&self.slope)
            .for_each(|(w, slope)| *w = base + slope);
        for d in self.deltas_of(j) {
            if let Some(w) = out.get_mut(d.class as usize) {
                *w += d.delta;
            }
        }
        out.iter_mut().zip(&self.scale).for_each(|(w, s)| *w *= s);
    }

    /// Fills `out` (one slot per class) with the scores of one row.
    pub fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|s| *s = 0.0);
        let (mut shared, mut total) = (0.0, 0.0);
        for (&j, &value) in indices.iter().zip(values) {
            let j = j as usize;
            if j >= self.features || (self.binary && value <= 0.0) {
                continue;
            }
            let x = if self.binary { 1.0 } else { value };
            total += x;
            if let Some(base) = self.base.get(j) {
                shared += x * base;
            }
            for d in self.deltas_of(j) {
                if let Some(score) = out.get_mut(d.class as usize) {
                    *score += x * d.delta;
                }
            }
        }
        for (c, score) in out.iter_mut().enumerate() {
            *score = self.bias[c] + self.scale[c] * (shared + self.slope[c] * total + *score);
        }
    }

    /// Feature `j`'s deltas. A scorer from a model file is not checked whole at load (it would
    /// take a pass over all of it), so a damaged one's spans and classes are checked here: a
    /// span outside the deltas reads as none, and scoring skips a class beyond the model's.
    fn deltas_of(&self, j: usize) -> &[Delta] {
        let (start, end) = (self.starts[j] as usize, self.starts[j + 1] as usize);
        self.deltas.get(start..end).unwrap_or_default()
    }

    /// Whether the scorer has the shape of a model of `classes` classes and `features`
    /// features: what indexing relies on beyond the checks each read of a feature's deltas makes.
    pub(crate) fn fits(&self, classes: usize, features: usize) -> bool {
        let per_class = [&self.bias, &self.slope, &self.scale];
        per_class.iter().all(|v| v.len() == classes)
            && self.features == features
            && self.starts.len() == features + 1
            && (self.base.is_empty() || self.base.len() == features)
    }
}

/// Features per block in [`SparseScorer::new`]: a block's counts and deltas take tens to
/// hundreds of kilobytes.
pub(crate) const BLOCK: usize = 1 << 14;

/// Features `first..first + BLOCK` (fewer in the last block) and, for each class, the range of
/// its sorted entries that falls in them.
pub(crate) struct Block {
    /// The block's first feature.
    first: usize,
    /// Per class, positions in its `indices`.
    spans: Vec<std::ops::Range<usize>>,
}

/// Cuts the features into blocks of `BLOCK`, finding each class's entries by binary search.
fn feature_blocks(features: usize, sums: &[ClassSums]) -> Vec<Block> {
    let position = |s: &ClassSums, j: usize| s.indices.partition_point(|&i| (i as usize) < j);
    (0..features)
        .step_by(BLOCK)
        .map(|first| {
            let last = (first + BLOCK).min(features);
            let spans = sums
                .iter()
                .map(|s| position(s, first)..position(s, last))
                .collect();
            Block { first, spans }
        })
        .collect()
}

/// Each feature's sum over all classes, in class order, a block of features at a time in
/// parallel.
pub(crate) fn feature_totals(features: usize, sums: &[ClassSums]) -> Vec<f64> {
    let mut all = vec![0.0; features];
    let blocks = feature_blocks(features, sums);
    all.par_chunks_mut(BLOCK)
        .zip(blocks)
        .for_each(|(out, block)| {
            block.each(sums, |_, j, s| out[j as usize - block.first] += s);
        });
    all
}

impl Block {
    /// Entries of every class in the block.
    fn entries(&self) -> usize {
        self.spans.iter().map(|span| span.len()).sum()
    }

    /// Calls `f(class, feature, value)` for the block's entries, class by class. (Plain loops:
    /// a flattened iterator here took a fifth of a model's load time.)
    fn each(&self, sums: &[ClassSums], mut f: impl FnMut(usize, u32, f64)) {
        for (c, span) in self.spans.iter().enumerate() {
            let class = &sums[c];
            let values = &class.values[span.clone()];
            for (&j, &s) in class.indices[span.clone()].iter().zip(values) {
                f(c, j, s);
            }
        }
    }

    /// Writes the block's deltas feature-major into `part` (which starts at `offset` in the
    /// whole layout) and each feature's end in the layout into `ends`; returns the per-class
    /// sums of the deltas.
    fn lay_out(
        &self,
        sums: &[ClassSums],
        part: &mut [Delta],
        ends: &mut [u32],
        offset: usize,
        delta: &impl Fn(usize, u32, f64) -> f64,
    ) -> Vec<f64> {
        let mut next = vec![0u32; ends.len()];
        self.each(sums, |_, j, _| next[j as usize - self.first] += 1);
        let mut running = 0;
        for (slot, end) in next.iter_mut().zip(ends.iter_mut()) {
            let count = *slot;
            *slot = running;
            running += count;
            *end = (offset + running as usize) as u32;
        }
        let mut totals = vec![0.0; sums.len()];
        self.each(sums, |c, j, s| {
            let d = delta(c, j, s);
            totals[c] += d;
            let slot = &mut next[j as usize - self.first];
            part[*slot as usize] = Delta {
                class: c as u32,
                unused: 0,
                delta: d,
            };
            *slot += 1;
        });
        totals
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a little-endian machine a table is its file's bytes as they lie; `put` and `take` are
    /// the portable path, which must read and write the same bytes.
    #[test]
    fn a_delta_is_written_and_read_as_its_little_endian_bytes() {
        let delta = Delta {
            class: 7,
            unused: 0,
            delta: -1.25,
        };
        let mut bytes = Vec::new();
        delta.put(&mut bytes);
        let mut expected = 7u32.to_le_bytes().to_vec();
        expected.extend(0u32.to_le_bytes());
        expected.extend((-1.25f64).to_le_bytes());
        assert_eq!(bytes, expected);
        assert_eq!(*Delta::bytes_of(&[delta]), expected[..]);
        assert_eq!(Delta::take(&bytes), delta);
    }

    /// A loaded scorer is checked against the model's shape, and scoring skips a feature
    /// beyond the model's: one class or one feature more or less does not fit.
    #[test]
    fn a_scorer_fits_its_own_shape_alone_and_skips_features_beyond_it() {
        let sums = vec![ClassSums::default(); 2];
        let (scorer, _) = SparseScorer::new(3, vec![0.0; 2], &sums, |_, _, s| s);
        assert!(scorer.fits(2, 3));
        for (classes, features) in [(1, 3), (3, 3), (2, 2), (2, 4)] {
            assert!(!scorer.fits(classes, features), "{classes} × {features}");
        }
        assert_eq!(scorer.unit_value(2, 0.5), Some(0.5));
        assert_eq!(scorer.unit_value(3, 0.5), None);
    }
}
