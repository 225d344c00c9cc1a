//! Platt scaling: decision values → probabilities, P(y = 1 | f) = 1 / (1 + exp(A·f + B)).
//!
//! The fit is the Newton method with backtracking of Lin, Lin and Weng (2007), "A note on Platt's
//! probabilistic outputs for support vector machines", with Platt's smoothed targets, which keep
//! the fit from collapsing to 0 and 1 on separable data.

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::vectorize::{pick_rows, Matrix};

/// A fitted sigmoid.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub(crate) struct Sigmoid {
    /// Slope (negative when larger decision values mean the positive class).
    pub a: f64,
    /// Offset.
    pub b: f64,
}

impl Sigmoid {
    /// The probability of the positive class for decision value `f`, computed without overflow.
    pub(crate) fn probability(&self, f: f64) -> f64 {
        let z = self.a * f + self.b;
        if z >= 0.0 {
            (-z).exp() / (1.0 + (-z).exp())
        } else {
            1.0 / (1.0 + z.exp())
        }
    }

    /// Fits a sigmoid to decision values and their labels (true for the positive class).
    pub(crate) fn fit(decisions: &[f64], positive: &[bool]) -> Sigmoid {
        let prior1 = positive.iter().filter(|&&p| p).count() as f64;
        let prior0 = positive.len() as f64 - prior1;
        let (high, low) = ((prior1 + 1.0) / (prior1 + 2.0), 1.0 / (prior0 + 2.0));
        let targets: Vec<f64> = positive
            .iter()
            .map(|&p| if p { high } else { low })
            .collect();
        let objective = |a: f64, b: f64| -> f64 {
            decisions
                .iter()
                .zip(&targets)
                .map(|(&f, &t)| {
                    let z = f * a + b;
                    if z >= 0.0 {
                        t * z + (-z).exp().ln_1p()
                    } else {
                        (t - 1.0) * z + z.exp().ln_1p()
                    }
                })
                .sum()
        };
        let (mut a, mut b) = (0.0, ((prior0 + 1.0) / (prior1 + 1.0)).ln());
        let mut value = objective(a, b);
        for _ in 0..100 {
            let (mut h11, mut h22, mut h21, mut g1, mut g2) = (1e-12, 1e-12, 0.0, 0.0, 0.0);
            for (&f, &t) in decisions.iter().zip(&targets) {
                let p = Sigmoid { a, b }.probability(f);
                let d2 = p * (1.0 - p);
                h11 += f * f * d2;
                h22 += d2;
                h21 += f * d2;
                let d1 = t - p;
                g1 += f * d1;
                g2 += d1;
            }
            if g1.abs() < 1e-5 && g2.abs() < 1e-5 {
                break;
            }
            let det = h11 * h22 - h21 * h21;
            let (da, db) = (-(h22 * g1 - h21 * g2) / det, -(-h21 * g1 + h11 * g2) / det);
            let slope = g1 * da + g2 * db;
            let mut step = 1.0;
            while step >= 1e-10 {
                let (na, nb) = (a + step * da, b + step * db);
                let candidate = objective(na, nb);
                if candidate < value + 1e-4 * step * slope {
                    (a, b, value) = (na, nb, candidate);
                    break;
                }
                step /= 2.0;
            }
            if step < 1e-10 {
                break;
            }
        }
        Sigmoid { a, b }
    }
}

/// One sigmoid per class, fitted as both SVMs calibrate: `held_out_decisions` trains on four
/// fifths of the rows of `x` (all but every fifth) and gives the decision values of the held-out
/// fifth, row-major with `classes` per row; each class's sigmoid is fitted to them. A model
/// calibrated on rows it was trained on would be overconfident.
pub(crate) fn held_out_sigmoids(
    x: &Matrix,
    labels: &[u32],
    classes: usize,
    held_out_decisions: impl FnOnce(&Matrix, &[u32], &Matrix) -> Result<Vec<f64>>,
) -> Result<Vec<Sigmoid>> {
    let (held, kept): (Vec<usize>, Vec<usize>) = (0..labels.len()).partition(|i| i % 5 == 0);
    let pick = |rows: &[usize]| -> Result<(Matrix, Vec<u32>)> {
        let picked = rows.iter().map(|&i| labels[i]).collect();
        Ok((pick_rows(x, rows)?, picked))
    };
    let ((fit_x, fit_y), (held_x, held_y)) = (pick(&kept)?, pick(&held)?);
    let decisions = held_out_decisions(&fit_x, &fit_y, &held_x)?;
    let sigmoids = (0..classes)
        .map(|c| {
            let class: Vec<f64> = decisions.iter().skip(c).step_by(classes).copied().collect();
            let positive: Vec<bool> = held_y.iter().map(|&l| l as usize == c).collect();
            Sigmoid::fit(&class, &positive)
        })
        .collect();
    Ok(sigmoids)
}

/// Gives each class first seen in an update, up to `classes`, the mean of the existing classes'
/// sigmoids: it has no held-out decisions of its own until the model is trained again.
pub(crate) fn extend_with_mean(sigmoids: &mut Vec<Sigmoid>, classes: usize) {
    let count = sigmoids.len() as f64;
    let mean = Sigmoid {
        a: sigmoids.iter().map(|s| s.a).sum::<f64>() / count,
        b: sigmoids.iter().map(|s| s.b).sum::<f64>() / count,
    };
    sigmoids.resize(classes, mean);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn larger_decision_values_mean_higher_probability() {
        let decisions = [-2.0, -1.5, -1.0, -0.5, 0.2, -0.1, 0.5, 1.0, 1.5, 2.0];
        let positive = [
            false, false, false, false, false, true, true, true, true, true,
        ];
        let sigmoid = Sigmoid::fit(&decisions, &positive);
        assert!(sigmoid.a < 0.0, "{sigmoid:?}");
        let grid: Vec<f64> = (-20..=20).map(|i| f64::from(i) / 5.0).collect();
        let probabilities: Vec<f64> = grid.iter().map(|&f| sigmoid.probability(f)).collect();
        assert!(probabilities.windows(2).all(|w| w[0] <= w[1]));
        assert!(sigmoid.probability(-2.0) < 0.2 && sigmoid.probability(2.0) > 0.8);
        // Extreme decision values neither overflow nor leave [0, 1].
        for f in [-1e6, 1e6] {
            let p = sigmoid.probability(f);
            assert!((0.0..=1.0).contains(&p));
        }
    }

    #[test]
    fn separable_data_keeps_probabilities_off_zero_and_one() {
        let decisions = [-3.0, -2.0, 2.0, 3.0];
        let sigmoid = Sigmoid::fit(&decisions, &[false, false, true, true]);
        let (low, high) = (sigmoid.probability(-3.0), sigmoid.probability(3.0));
        assert!(low > 1e-4 && high < 1.0 - 1e-4, "{low} {high}");
    }
}
