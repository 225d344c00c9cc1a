//! Prequential (test-then-train) evaluation of a stream learner: every document is classified
//! by the model as it stands, then learned. Accuracy is tracked since the start and over a
//! sliding window of the latest documents, with per-class F1 over the window.

use std::collections::VecDeque;

/// The running record of predictions.
#[derive(Debug, Clone)]
pub struct Prequential {
    window: usize,
    /// (true class, predicted class or `None` when the model had no classes yet), newest last.
    recent: VecDeque<(u32, Option<u32>)>,
    seen: u64,
    correct: u64,
}

impl Prequential {
    /// A record whose window holds the latest `window` (≥ 1) documents.
    pub fn new(window: usize) -> Self {
        Prequential {
            window: window.max(1),
            recent: VecDeque::new(),
            seen: 0,
            correct: 0,
        }
    }

    /// Records one prediction.
    pub fn add(&mut self, truth: u32, predicted: Option<u32>) {
        if self.recent.len() == self.window {
            self.recent.pop_front();
        }
        self.recent.push_back((truth, predicted));
        self.seen += 1;
        self.correct += u64::from(predicted == Some(truth));
    }

    /// The window's size.
    pub fn window(&self) -> usize {
        self.window
    }

    /// Documents recorded.
    pub(crate) fn seen(&self) -> u64 {
        self.seen
    }

    /// Accuracy since the first document.
    pub fn accuracy(&self) -> f64 {
        self.correct as f64 / self.seen.max(1) as f64
    }

    /// Accuracy over the window.
    pub(crate) fn window_accuracy(&self) -> f64 {
        let right = self.recent.iter().filter(|(t, p)| *p == Some(*t)).count();
        right as f64 / self.recent.len().max(1) as f64
    }

    /// F1 of each of `classes` classes over the window (0 for a class with no true or
    /// predicted documents there).
    pub(crate) fn window_f1(&self, classes: usize) -> Vec<f64> {
        let (mut tp, mut fp, mut fn_) = (
            vec![0u64; classes],
            vec![0u64; classes],
            vec![0u64; classes],
        );
        for &(truth, predicted) in &self.recent {
            match predicted {
                Some(p) if p == truth => tp[truth as usize] += 1,
                Some(p) => {
                    fp[p as usize] += 1;
                    fn_[truth as usize] += 1;
                }
                None => fn_[truth as usize] += 1,
            }
        }
        (0..classes)
            .map(|c| {
                let denominator = 2 * tp[c] + fp[c] + fn_[c];
                if denominator == 0 {
                    0.0
                } else {
                    2.0 * tp[c] as f64 / denominator as f64
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn window_and_cumulative_figures_by_hand() {
        let mut record = Prequential::new(4);
        // Truth, prediction: the first has no model yet.
        for (t, p) in [
            (0, None),
            (0, Some(1)),
            (1, Some(1)),
            (0, Some(0)),
            (1, Some(1)),
            (0, Some(0)),
        ] {
            record.add(t, p);
        }
        assert_eq!(record.seen(), 6);
        assert!((record.accuracy() - 4.0 / 6.0).abs() < 1e-12);
        // The window holds the last four: (1,1), (0,0), (1,1), (0,0), all right.
        assert_eq!(record.window_accuracy(), 1.0);
        assert_eq!(record.window_f1(2), [1.0, 1.0]);
        record.add(0, Some(1));
        // Window: (0,0), (1,1), (0,0), (0,1): class 0 tp 2 fn 1 → 4/5; class 1 tp 1 fp 1 → 2/3.
        let f1 = record.window_f1(2);
        assert!(
            (f1[0] - 0.8).abs() < 1e-12 && (f1[1] - 2.0 / 3.0).abs() < 1e-12,
            "{f1:?}"
        );
    }
}
