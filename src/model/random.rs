//! A small, fast, seedable generator (SplitMix64): the SVM's coordinate order and the reservoir's
//! sampling draw from it, so both are deterministic for a given seed.

use serde::{Deserialize, Serialize};

/// SplitMix64 (Steele, Lea and Flood 2014). Its state is one word, which the reservoir saves
/// with the model so that sampling continues where it stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct SplitMix(pub u64);

impl SplitMix {
    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound`; `bound` must be positive. The modulo bias is below 2⁻³² for the
    /// bounds used here (row counts), which does not matter for a coordinate order or a sample.
    pub(crate) fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub(crate) fn shuffle(&mut self, items: &mut [usize]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// So that `rand_distr`'s distributions draw from it (the random Fourier features' normals).
impl rand_core::RngCore for SplitMix {
    fn next_u32(&mut self) -> u32 {
        (SplitMix::next_u64(self) >> 32) as u32
    }

    fn next_u64(&mut self) -> u64 {
        SplitMix::next_u64(self)
    }

    fn fill_bytes(&mut self, dst: &mut [u8]) {
        rand_core::impls::fill_bytes_via_next(self, dst);
    }
}
