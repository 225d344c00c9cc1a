//! Reliability of probabilities: do documents given probability p turn out right a fraction p
//! of the time? The most probable class's probability (the model's confidence) is binned, and
//! each bin's mean confidence is set against its accuracy, as in a reliability diagram.

use serde::Serialize;

/// One bin of confidences.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bin {
    /// The bin's confidences lie in [lower, upper) (the last bin includes 1).
    pub lower: f64,
    /// Upper end of the bin.
    pub upper: f64,
    /// Documents in the bin.
    pub documents: u64,
    /// Their mean confidence; none for an empty bin.
    pub mean_confidence: Option<f64>,
    /// The fraction of them whose most probable class was right; none for an empty bin.
    pub accuracy: Option<f64>,
}

/// A reliability diagram's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reliability {
    /// Equal-width bins over [0, 1].
    pub bins: Vec<Bin>,
    /// Documents in all.
    pub documents: u64,
    /// Expected calibration error: Σ (bin documents / documents) · |accuracy − mean confidence|.
    pub expected_calibration_error: f64,
}

/// Bins `(confidence, right)` pairs into `bins` (at least 1) equal bins over [0, 1].
pub fn reliability(pairs: impl Iterator<Item = (f64, bool)>, bins: usize) -> Reliability {
    let bins = bins.max(1);
    let mut sums = vec![(0u64, 0.0f64, 0u64); bins];
    for (confidence, right) in pairs {
        let bin = ((confidence * bins as f64) as usize).min(bins - 1);
        let (n, total, correct) = &mut sums[bin];
        *n += 1;
        *total += confidence;
        *correct += u64::from(right);
    }
    let documents: u64 = sums.iter().map(|s| s.0).sum();
    let width = 1.0 / bins as f64;
    let bins: Vec<Bin> = sums
        .iter()
        .enumerate()
        .map(|(i, &(n, total, correct))| Bin {
            lower: i as f64 * width,
            upper: (i + 1) as f64 * width,
            documents: n,
            mean_confidence: (n > 0).then(|| total / n as f64),
            accuracy: (n > 0).then(|| correct as f64 / n as f64),
        })
        .collect();
    let error = bins
        .iter()
        .filter_map(|b| Some(b.documents as f64 * (b.accuracy? - b.mean_confidence?).abs()))
        .sum::<f64>()
        / documents.max(1) as f64;
    Reliability {
        bins,
        documents,
        expected_calibration_error: error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_by_hand() {
        // Two documents at 0.95 (one right), one at 0.55 (right), one at exactly 1 (right).
        let pairs = [(0.95, true), (0.95, false), (0.55, true), (1.0, true)];
        let r = reliability(pairs.into_iter(), 10);
        assert_eq!(r.documents, 4);
        assert_eq!(r.bins[5].documents, 1);
        assert_eq!(r.bins[9].documents, 3);
        assert_eq!(r.bins[9].accuracy, Some(2.0 / 3.0));
        assert!((r.bins[9].mean_confidence.unwrap() - 2.9 / 3.0).abs() < 1e-12);
        assert_eq!(r.bins[0].accuracy, None);
        // |1 − 0.55| · 1 + |2/3 − 2.9/3| · 3, over 4.
        let expected = (0.45 + (2.9 - 2.0)) / 4.0;
        assert!((r.expected_calibration_error - expected).abs() < 1e-12);
    }
}
