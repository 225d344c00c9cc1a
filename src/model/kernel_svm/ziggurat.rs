//! `rand_distr`'s standard normals, with their common case inlined: the random Fourier
//! features' weights draw tens of millions of them, and `StandardNormal::sample` is too large
//! for the compiler to inline, so each normal paid a call and kept the generator's state in
//! memory. On SMS's map, about a third of a fit and predict's samples sat in that call.
//!
//! The ziggurat (`rand_distr` 0.5.1's `utils::ziggurat`) draws 64 bits, takes the layer `i`
//! from the low 8 and a uniform `u` in [−1, 1) from the top 52, and returns `x = u·x_i` when
//! `|x| < x_{i+1}`, which it does for about 99% of draws. [`standard_normal`] does that test
//! itself and, when it fails, rewinds the generator and lets `rand_distr` draw, so every normal
//! is the very one `rand_distr` gives, bit for bit (the tests compare millions).

use std::sync::LazyLock;

use rand_distr::{Distribution, StandardNormal};

use crate::model::random::SplitMix;

/// 2⁴⁰: the probe's `u` is its inverse, small enough that `u·x_i < x_{i+1}` for every layer
/// but the last, and a power of two, so that `u·x_i` is exact.
const PROBE_SCALE: f64 = 1_099_511_627_776.0;

/// The layer edges x_i, read from `rand_distr` itself so that the two cannot disagree: layer
/// `i`'s probe returns `u·x_i` with `u` = 2⁻⁴⁰. x_255 and x_256 are left at zero: x_256 is zero
/// in its table too, and layer 255's probe would fail the fast test and go into the slow path.
/// The draws of layers 254 and 255 (1 in 128) then always go to `rand_distr`.
static EDGES: LazyLock<[f64; 257]> = LazyLock::new(|| {
    let mut edges = [0.0; 257];
    for (i, edge) in edges.iter_mut().enumerate().take(255) {
        let probed: f64 = StandardNormal.sample(&mut Probe(probe_bits(i)));
        *edge = probed * PROBE_SCALE;
    }
    edges
});

/// The 64 bits from which the ziggurat takes layer `i` and `u` = 2⁻⁴⁰: the mantissa of
/// 2·(1 + 2⁻¹ + 2⁻⁴¹), which less 3 is u.
fn probe_bits(i: usize) -> u64 {
    (((1u64 << 51) | (1u64 << 11)) << 12) | i as u64
}

/// A "generator" that gives the same 64 bits every time, for the probe.
struct Probe(u64);

impl rand_core::RngCore for Probe {
    fn next_u32(&mut self) -> u32 {
        (self.0 >> 32) as u32
    }

    fn next_u64(&mut self) -> u64 {
        self.0
    }

    fn fill_bytes(&mut self, dst: &mut [u8]) {
        rand_core::impls::fill_bytes_via_next(self, dst);
    }
}

/// Fills `out` with `scale` times standard normals from `rng`, the same as `rand_distr`'s
/// `StandardNormal` draws from it.
pub(crate) fn scaled_normals(rng: &mut SplitMix, scale: f64, out: &mut [f64]) {
    let edges = &*EDGES;
    for w in out {
        *w = scale * standard_normal(rng, edges);
    }
}

#[inline(always)]
fn standard_normal(rng: &mut SplitMix, edges: &[f64; 257]) -> f64 {
    let before = *rng;
    let bits = rng.next_u64();
    let i = bits as usize & 0xff;
    // Bits 12 to 63 as the mantissa of a number in [2, 4), less 3: a uniform in [−1, 1).
    let u = f64::from_bits((bits >> 12) | (1024 << 52)) - 3.0;
    let x = u * edges[i];
    if x.abs() < edges[i + 1] {
        return x;
    }
    *rng = before;
    StandardNormal.sample(rng)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normals_are_rand_distrs_bit_for_bit() {
        for seed in [0, 1, 42, u64::MAX] {
            let (mut ours, mut theirs) = (SplitMix(seed), SplitMix(seed));
            let mut drawn = vec![0.0; 1 << 20];
            scaled_normals(&mut ours, 1.0, &mut drawn);
            for (i, &x) in drawn.iter().enumerate() {
                let expected: f64 = StandardNormal.sample(&mut theirs);
                assert_eq!(x.to_bits(), expected.to_bits(), "seed {seed}, draw {i}");
            }
            assert_eq!(ours, theirs);
        }
    }

    #[test]
    fn the_edges_are_the_ziggurats() {
        let edges = &*EDGES;
        // rand_distr 0.5.1's table: x_0, x_1 and x_254.
        assert_eq!(edges[0], 3.910_757_959_537_09);
        assert_eq!(edges[1], 3.654_152_885_361_009);
        assert_eq!(edges[254], 0.286_174_591_747_260_5);
        assert!(edges[..255].windows(2).all(|w| w[0] > w[1]));
    }
}
