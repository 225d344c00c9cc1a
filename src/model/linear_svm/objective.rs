//! The dual objective of each class's problem, by which a solve is measured: one process's and a
//! cluster's (`cocoa.rs`) reach the same optimum, and this says how close each came.
//!
//! It is the maximized form, D(α) = Σα − ½·D·Σα² − ½‖w(α)‖² with w(α) = Σ α_i y_i (x_i, 1) and
//! D = 1/(2C) for the squared hinge (0 for the hinge): at the optimum it equals the primal
//! objective, ½‖w‖² + C·Σ loss, and below it every feasible α gives less.

use super::{LinearSvm, SvmParams};
use crate::error::Result;
use crate::vectorize::Matrix;

impl LinearSvm {
    /// Trains as [`LinearSvm::train`] does, and returns each class's dual objective at the
    /// solution reached (see `LinearSvm::dual_objectives`).
    pub fn train_with_objectives(
        x: &Matrix,
        labels: &[u32],
        classes: usize,
        params: SvmParams,
    ) -> Result<(Self, Vec<f64>)> {
        let (svm, parts) = LinearSvm::train_with_parts(x, labels, classes, params)?;
        let objectives = svm.dual_objectives(&parts);
        Ok((svm, objectives))
    }

    /// Each class's dual objective, given each class's Σα − ½·D·Σα² over every training row
    /// (`parts`): the weights, as the model keeps them, give the rest.
    pub(crate) fn dual_objectives(&self, parts: &[f64]) -> Vec<f64> {
        let k = self.classes();
        let mut norms: Vec<f64> = self.bias.iter().map(|b| b * b).collect();
        for row in self.weights.chunks_exact(k.max(1)) {
            (norms.iter_mut().zip(row)).for_each(|(n, &w)| *n += f64::from(w) * f64::from(w));
        }
        (parts.iter().zip(norms))
            .map(|(part, norm)| part - 0.5 * norm)
            .collect()
    }
}
