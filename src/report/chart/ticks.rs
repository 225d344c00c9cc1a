//! Where an axis puts its ticks and what they say: round numbers (1, 2 or 5 × 10ᵏ apart) on a
//! linear axis, powers of ten on a logarithmic one.

/// An axis's ticks and the span they cover, which includes the data.
#[derive(Debug, Clone, PartialEq)]
pub struct Ticks {
    /// Tick values, increasing; the first and last are the axis's ends.
    pub values: Vec<f64>,
    /// The labels, one per value.
    pub labels: Vec<String>,
}

/// Round-number ticks covering `lo..=hi`: the smallest step of 1, 2 or 5 × 10ᵏ that cuts the
/// range into at most `intervals` parts, from the multiple of the step at or below `lo` to the
/// one at or above `hi`. A range of zero width is widened to one unit around its value.
pub fn linear(lo: f64, hi: f64, intervals: usize) -> Ticks {
    let (lo, hi) = if hi - lo > f64::EPSILON * hi.abs().max(1.0) {
        (lo, hi)
    } else {
        (lo - 0.5, hi + 0.5)
    };
    let raw = (hi - lo) / intervals.max(1) as f64;
    let mut exponent = raw.log10().floor() as i32;
    let mut mantissa = [1i64, 2, 5, 10]
        .into_iter()
        .find(|&m| m as f64 * 10f64.powi(exponent) >= raw * (1.0 - 1e-12))
        .unwrap_or(10);
    if mantissa == 10 {
        (mantissa, exponent) = (1, exponent + 1);
    }
    let step = scaled(mantissa, exponent);
    let first = (lo / step + 1e-9).floor() as i64;
    let last = (hi / step - 1e-9).ceil() as i64;
    let values: Vec<f64> = (first..=last.max(first + 1))
        .map(|i| scaled(i * mantissa, exponent))
        .collect();
    let decimals = usize::try_from(-exponent).unwrap_or(0);
    let labels = values.iter().map(|&v| number(v, decimals)).collect();
    Ticks { values, labels }
}

/// `units` × 10^`exponent`, computed so that a tick such as 0.3 is the same `f64` as the
/// literal `0.3` (one correctly rounded division, not 3 × 0.1).
fn scaled(units: i64, exponent: i32) -> f64 {
    if exponent >= 0 {
        units as f64 * 10f64.powi(exponent)
    } else {
        units as f64 / 10f64.powi(-exponent)
    }
}

/// Powers of ten covering `lo..=hi` (both above zero), labelled 10ᵏ; every second or fifth
/// power when there are more than `intervals` decades.
pub fn logarithmic(lo: f64, hi: f64, intervals: usize) -> Ticks {
    let lo = lo.max(f64::MIN_POSITIVE);
    let first = (lo.log10() + 1e-9).floor() as i32;
    let last = ((hi.max(lo).log10() - 1e-9).ceil() as i32).max(first + 1);
    let decades = (last - first) as usize;
    let every = [1, 2, 5, 10, 20]
        .into_iter()
        .find(|&e| decades.div_ceil(e) <= intervals.max(1))
        .unwrap_or(50);
    let step = every as i32;
    let first = first.div_euclid(step) * step;
    let last = first + (last - first + step - 1) / step * step;
    let exponents: Vec<i32> = (first..=last).step_by(every).collect();
    Ticks {
        values: exponents.iter().map(|&k| 10f64.powi(k)).collect(),
        labels: exponents.iter().map(|&k| power_of_ten(k)).collect(),
    }
}

/// 10ᵏ with the exponent in superscript digits, which every common font has.
pub fn power_of_ten(exponent: i32) -> String {
    const SUPERSCRIPTS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let mut label = String::from("10");
    if exponent < 0 {
        label.push('⁻');
    }
    for digit in exponent.unsigned_abs().to_string().bytes() {
        label.push(SUPERSCRIPTS[usize::from(digit - b'0')]);
    }
    label
}

/// A number with `decimals` decimals and its thousands separated by commas: `12,345.5`.
pub fn number(value: f64, decimals: usize) -> String {
    let text = format!("{:.*}", decimals, value.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let negative = value < 0.0 && text.bytes().any(|b| b.is_ascii_digit() && b != b'0');
    let mut out = String::from(if negative { "-" } else { "" });
    out.push_str(&group_thousands(whole));
    if !fraction.is_empty() {
        out.push('.');
        out.push_str(fraction);
    }
    out
}

/// A count with its thousands separated by commas: `1,234,567`.
pub fn count(value: u64) -> String {
    group_thousands(&value.to_string())
}

fn group_thousands(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(ticks: &Ticks) -> &[f64] {
        &ticks.values
    }

    #[test]
    fn linear_ticks_are_round_numbers_that_cover_the_data() {
        assert_eq!(values(&linear(0.0, 1.0, 5)), [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]);
        // The Heaps chart of the issue: 0 to 514,381 terms read.
        let heaps = linear(0.0, 514_381.0, 5);
        assert_eq!(values(&heaps), [0.0, 200_000.0, 400_000.0, 600_000.0]);
        assert_eq!(heaps.labels, ["0", "200,000", "400,000", "600,000"]);
        // 1153 to 8050 distinct terms: steps of 2,000 from 0 to 10,000.
        let vocabulary = linear(1153.0, 8050.0, 5);
        assert_eq!(
            vocabulary.labels,
            ["0", "2,000", "4,000", "6,000", "8,000", "10,000"]
        );
        assert_eq!(values(&linear(-3.2, 7.9, 5)), [-5.0, 0.0, 5.0, 10.0]);
        let small = linear(0.0012, 0.0047, 5);
        assert_eq!(values(&small), [0.001, 0.002, 0.003, 0.004, 0.005]);
        assert_eq!(small.labels, ["0.001", "0.002", "0.003", "0.004", "0.005"]);
        let fine = linear(0.83, 0.97, 5);
        assert_eq!(values(&fine), [0.8, 0.85, 0.9, 0.95, 1.0]);
        assert_eq!(fine.labels, ["0.80", "0.85", "0.90", "0.95", "1.00"]);
        assert_eq!(
            linear(0.0, 2313.0, 5).labels,
            ["0", "500", "1,000", "1,500", "2,000", "2,500"]
        );
        // A flat range is widened; a range that is exactly one step keeps two ticks.
        assert_eq!(
            values(&linear(3.0, 3.0, 5)),
            [2.4, 2.6, 2.8, 3.0, 3.2, 3.4, 3.6]
        );
        assert_eq!(values(&linear(0.0, 10.0, 1)), [0.0, 10.0]);
    }

    #[test]
    fn logarithmic_ticks_are_powers_of_ten() {
        let zipf = logarithmic(1.0, 52_000.0, 8);
        assert_eq!(values(&zipf), [1.0, 10.0, 100.0, 1e3, 1e4, 1e5]);
        assert_eq!(zipf.labels, ["10⁰", "10¹", "10²", "10³", "10⁴", "10⁵"]);
        assert_eq!(values(&logarithmic(3.0, 7.0, 8)), [1.0, 10.0]);
        let wide = logarithmic(1e-3, 1e12, 8);
        assert_eq!(
            values(&wide),
            [1e-4, 1e-2, 1.0, 1e2, 1e4, 1e6, 1e8, 1e10, 1e12]
        );
        assert_eq!(power_of_ten(-12), "10⁻¹²");
    }

    #[test]
    fn numbers_have_thousands_separators() {
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(1_000), "1,000");
        assert_eq!(count(1_234_567), "1,234,567");
        assert_eq!(number(-12_345.25, 1), "-12,345.2");
        assert_eq!(number(-0.0001, 2), "0.00");
    }
}
