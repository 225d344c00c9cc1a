//! Quantiles, histograms and the log-log least-squares fits of Zipf's and Heaps' laws.

use super::{Heaps, Histogram, Lengths, Zipf};

/// Points kept for a plotted curve.
const PLOT_POINTS: usize = 200;
/// Histogram bins up to the 95th percentile.
const BINS: u64 = 20;

/// A fitted line y = intercept + slope · x.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Line {
    /// dy/dx.
    pub slope: f64,
    /// y at x = 0.
    pub intercept: f64,
    /// Share of y's variance the line explains (1 when y is constant and fitted exactly).
    pub r_squared: f64,
}

/// Ordinary least squares over `(x, y)` points; `None` with fewer than two distinct x.
pub(crate) fn least_squares(points: impl Iterator<Item = (f64, f64)> + Clone) -> Option<Line> {
    let (mut n, mut sx, mut sy) = (0.0, 0.0, 0.0);
    for (x, y) in points.clone() {
        n += 1.0;
        sx += x;
        sy += y;
    }
    let (mx, my) = (sx / n, sy / n);
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in points {
        sxx += (x - mx) * (x - mx);
        sxy += (x - mx) * (y - my);
        syy += (y - my) * (y - my);
    }
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let r_squared = if syy > 0.0 {
        sxy * sxy / (sxx * syy)
    } else {
        1.0
    };
    Some(Line {
        slope,
        intercept: my - slope * mx,
        r_squared,
    })
}

/// The `q` quantile of sorted values, interpolating linearly between order statistics (the
/// usual "type 7" definition, as numpy's default); 0 for no values.
pub(crate) fn quantile(sorted: &[u64], q: f64) -> f64 {
    let Some(&last) = sorted.last() else {
        return 0.0;
    };
    let position = q * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let fraction = position - below as f64;
    let low = sorted[below] as f64;
    let high = sorted.get(below + 1).map_or(last as f64, |&v| v as f64);
    low + fraction * (high - low)
}

/// The length figures of `sorted` document lengths.
pub fn lengths(sorted: &[u64]) -> Lengths {
    let total: u64 = sorted.iter().sum();
    let p95 = quantile(sorted, 0.95);
    Lengths {
        min: sorted.first().copied().unwrap_or(0),
        q1: quantile(sorted, 0.25),
        median: quantile(sorted, 0.5),
        q3: quantile(sorted, 0.75),
        p95,
        max: sorted.last().copied().unwrap_or(0),
        mean: total as f64 / sorted.len().max(1) as f64,
        histogram: histogram(sorted, p95),
    }
}

/// Bins of a round width (1, 2 or 5 times a power of ten) so that about [`BINS`] of them reach
/// the 95th percentile; the last bin is open-ended.
fn histogram(sorted: &[u64], p95: f64) -> Histogram {
    let width = round_width((p95.ceil() as u64 + 1).div_ceil(BINS));
    let bins = (p95.ceil() as u64 / width + 1).max(1);
    let edges: Vec<u64> = (0..=bins).map(|i| i * width).collect();
    let mut counts = vec![0u64; bins as usize];
    for &length in sorted {
        let bin = (length / width).min(bins - 1);
        counts[bin as usize] += 1;
    }
    Histogram { edges, counts }
}

/// The smallest of 1, 2, 5, 10, 20, 50, ... that is at least `at_least`.
fn round_width(at_least: u64) -> u64 {
    let mut scale = 1u64;
    loop {
        for step in [1, 2, 5] {
            if step * scale >= at_least {
                return step * scale;
            }
        }
        scale = scale.saturating_mul(10);
    }
}

/// Zipf's law over term frequencies sorted from the most frequent down.
pub fn zipf(descending: &[u64]) -> Zipf {
    let points = descending
        .iter()
        .enumerate()
        .map(|(i, &f)| (((i + 1) as f64).ln(), (f as f64).ln()));
    let line = least_squares(points).unwrap_or_default();
    Zipf {
        exponent: -line.slope,
        intercept: line.intercept,
        r_squared: line.r_squared,
        points: log_spaced(descending.len())
            .map(|rank| (rank as u64, descending[rank - 1]))
            .collect(),
    }
}

/// Heaps' law over `(terms read, distinct terms)` after each document; documents that add no
/// terms before the first term is read are left out (log 0).
pub fn heaps(growth: &[(u64, u64)]) -> Heaps {
    let seen: Vec<(u64, u64)> = growth.iter().copied().filter(|&(n, _)| n > 0).collect();
    let points = seen
        .iter()
        .map(|&(n, v)| ((n as f64).ln(), (v as f64).ln()));
    let line = least_squares(points).unwrap_or_default();
    let step = seen.len().div_ceil(PLOT_POINTS).max(1);
    let mut plotted: Vec<(u64, u64)> = seen.iter().copied().step_by(step).collect();
    if let Some(&last) = seen.last() {
        if plotted.last() != Some(&last) {
            plotted.push(last);
        }
    }
    Heaps {
        k: line.intercept.exp(),
        beta: line.slope,
        r_squared: line.r_squared,
        points: plotted,
    }
}

/// About [`PLOT_POINTS`] distinct ranks from 1 to `n`, evenly spaced in log scale, `n` included.
fn log_spaced(n: usize) -> impl Iterator<Item = usize> {
    let ratio = (n.max(2) as f64).powf(1.0 / PLOT_POINTS as f64);
    let mut next = 1.0f64;
    let mut last = 0usize;
    std::iter::from_fn(move || {
        while last < n {
            let rank = (next.round() as usize).clamp(last + 1, n);
            next *= ratio;
            if rank > last {
                last = rank;
                return Some(rank);
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_interpolate_between_order_statistics() {
        let sorted = [1, 2, 4, 10];
        // Positions 0.75, 1.5, 2.25 and 2.85 of 0..=3.
        assert_eq!(quantile(&sorted, 0.25), 1.75);
        assert_eq!(quantile(&sorted, 0.5), 3.0);
        assert_eq!(quantile(&sorted, 0.75), 5.5);
        assert!((quantile(&sorted, 0.95) - 9.1).abs() < 1e-12);
        assert_eq!(quantile(&[], 0.5), 0.0);
        assert_eq!(quantile(&[7], 0.95), 7.0);
    }

    #[test]
    fn least_squares_recovers_an_exact_line() {
        let points = [(0.0, 1.0), (1.0, 3.0), (2.0, 5.0)];
        let line = least_squares(points.iter().copied()).unwrap();
        assert_eq!(
            (line.slope, line.intercept, line.r_squared),
            (2.0, 1.0, 1.0)
        );
        assert!(least_squares([(1.0, 1.0), (1.0, 2.0)].into_iter()).is_none());
    }

    #[test]
    fn zipf_of_a_perfect_power_law() {
        // f = 120 / r: exponent 1, R² 1.
        let freqs = [120, 60, 40, 30, 24, 20];
        let fit = zipf(&freqs);
        assert!((fit.exponent - 1.0).abs() < 1e-12);
        assert!((fit.intercept - 120f64.ln()).abs() < 1e-12);
        assert!((fit.r_squared - 1.0).abs() < 1e-12);
        assert_eq!(fit.points.len(), 6);
        assert_eq!(fit.points[5], (6, 20));
    }

    #[test]
    fn heaps_of_a_square_root_growth() {
        // V = 2 · sqrt(n): K 2, β 0.5.
        let growth = [(0, 0), (4, 4), (16, 8), (64, 16)];
        let fit = heaps(&growth);
        assert!((fit.k - 2.0).abs() < 1e-9 && (fit.beta - 0.5).abs() < 1e-12);
        assert_eq!(fit.points, [(4, 4), (16, 8), (64, 16)]);
    }

    #[test]
    fn histogram_bins_reach_the_95th_percentile_and_the_last_bin_keeps_the_tail() {
        let sorted: Vec<u64> = (0..100).collect();
        let h = lengths(&sorted).histogram;
        // p95 = 94.05, so width round(96 / 20 → 5) = 5 and 95 / 5 + 1 = 19 + 1 bins.
        assert_eq!(h.edges.len(), h.counts.len() + 1);
        assert_eq!(h.edges[1], 5);
        assert_eq!(h.counts.iter().sum::<u64>(), 100);
        assert_eq!(h.counts[0], 5);
        assert_eq!(
            *h.counts.last().unwrap(),
            100 - 5 * (h.counts.len() as u64 - 1)
        );
    }

    #[test]
    fn log_spacing_is_distinct_increasing_and_ends_at_n() {
        let ranks: Vec<usize> = log_spaced(1000).collect();
        assert_eq!(ranks[0], 1);
        assert_eq!(*ranks.last().unwrap(), 1000);
        assert!(ranks.windows(2).all(|w| w[0] < w[1]));
        assert!(ranks.len() <= PLOT_POINTS + 1);
        assert_eq!(log_spaced(3).collect::<Vec<_>>(), [1, 2, 3]);
    }
}
