//! The SVM's decision values taken apart by term (see [`crate::model::explain`]), and its
//! weights one term or one class at a time.

use super::LinearSvm;
use crate::model::explain::Attribution;
use crate::model::Sigmoid;

impl LinearSvm {
    /// Class `class`'s decision value of one weighted row, taken apart: the intercept, and each
    /// term's weight times its value.
    pub fn attribute(&self, indices: &[u32], values: &[f64], class: usize) -> Attribution {
        let terms = indices
            .iter()
            .zip(values)
            .filter_map(|(&j, &value)| Some((j, value * self.weight(j as usize, class)?)))
            .collect();
        let mut scores = vec![0.0; self.bias.len()];
        self.scores(indices, values, &mut scores);
        Attribution {
            score: scores[class],
            bias: self.bias[class],
            terms,
        }
    }

    /// Feature `j`'s weight in class `class`, or `None` beyond the model's features.
    pub(crate) fn weight(&self, j: usize, class: usize) -> Option<f64> {
        let k = self.bias.len();
        (j < self.features).then(|| f64::from(self.weights[j * k + class]))
    }

    /// Each class's intercept.
    pub fn intercepts(&self) -> &[f64] {
        &self.bias
    }

    /// The Platt sigmoids that calibrate each class's decision values, when calibrated.
    pub(crate) fn sigmoids(&self) -> Option<&[Sigmoid]> {
        self.calibration.as_deref()
    }
}
