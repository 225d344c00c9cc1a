//! The cosine of many values at once, for random Fourier features: SMS's 15.6 million
//! features took most of their map's time in glibc's `cos`, one value per call.
//!
//! Each value is reduced to r = x − kπ with |r| ≤ π/2 (Cody and Waite's method, π in four
//! parts, as SLEEF does), and cos x = (−1)^k·cos r, with cos r from its Taylor series to the
//! r²⁰ term: the first term left out is below 2·10⁻¹⁷. The loop has no calls or branches, so
//! the compiler does two values at a time; its additions and products are IEEE ones, never
//! fused, so every machine gets the same bits. The result is within 4·10⁻¹⁶ of glibc's (the
//! tests). Values beyond [`REDUCED`] in size, where the four parts of π would lose bits, take
//! the standard library's `cos`.

/// π in four parts; each of the first three has its last 28 bits zero, so k times it is exact
/// for |k| below 2²⁴.
const PI: [f64; 4] = [
    f64::from_bits(0x4009_21fb_5000_0000),
    f64::from_bits(0x3e61_10b4_6000_0000),
    f64::from_bits(0x3ca1_a626_3000_0000),
    f64::from_bits(0x3af8_a2e0_3707_344a),
];

/// The size below which the reduction keeps every bit (k ≤ 2²⁰).
const REDUCED: f64 = 3.0e6;

/// 1.5·2⁵²: added to a value below 2⁵¹ in size, it rounds the value to an integer, which the
/// sum's last bits then hold.
const ROUNDER: f64 = 6_755_399_441_055_744.0;

/// (−1)ⁿ/(2n)!, from the r²⁰ term down to the constant one.
const TAYLOR: [f64; 11] = [
    4.110317623312165e-19,
    -1.5619206968586225e-16,
    4.779477332387385e-14,
    -1.1470745597729725e-11,
    2.08767569878681e-09,
    -2.755731922398589e-07,
    2.48015873015873e-05,
    -0.001388888888888889,
    0.041666666666666664,
    -0.5,
    1.0,
];

/// Replaces every value x of `values` by `scale`·cos x.
pub(crate) fn scaled_cosines(values: &mut [f64], scale: f64) {
    if values.iter().all(|x| x.abs() < REDUCED) {
        values.iter_mut().for_each(|x| *x = scale * reduced_cos(*x));
    } else {
        values.iter_mut().for_each(|x| *x = scale * x.cos());
    }
}

/// cos x for |x| below [`REDUCED`].
#[inline(always)]
fn reduced_cos(x: f64) -> f64 {
    let shifted = x * std::f64::consts::FRAC_1_PI + ROUNDER;
    let k = shifted - ROUNDER;
    let r = (((x - k * PI[0]) - k * PI[1]) - k * PI[2]) - k * PI[3];
    let r2 = r * r;
    let cos = TAYLOR.iter().fold(0.0, |sum, &c| sum * r2 + c);
    // The last bit of the shifted sum is k's: an odd k turns the sign.
    f64::from_bits(cos.to_bits() ^ (shifted.to_bits() << 63))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cosines_agree_with_the_standard_library() {
        let mut x: Vec<f64> = (-200_000..=200_000).map(|i| f64::from(i) * 1e-3).collect();
        x.extend([
            0.0,
            -0.0,
            1e-300,
            12_345.678,
            2.9e6,
            std::f64::consts::FRAC_PI_2,
        ]);
        let mut cosines = x.clone();
        scaled_cosines(&mut cosines, 1.0);
        for (&x, &c) in x.iter().zip(&cosines) {
            assert!(
                (c - x.cos()).abs() <= 4e-16,
                "cos {x}: {c} against {}",
                x.cos()
            );
        }
    }

    #[test]
    fn large_values_take_the_standard_cosine_and_scale_applies() {
        let mut values = vec![1.0, 4e6];
        scaled_cosines(&mut values, 0.5);
        assert_eq!(values, vec![0.5 * 1f64.cos(), 0.5 * 4e6f64.cos()]);
    }
}
