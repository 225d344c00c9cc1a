//! Learning more documents: the support vectors, moved to the grown vocabulary and re-weighted,
//! and the new rows are solved again from the previous dual solution.
//!
//! The model keeps only its support vectors, so the problem solved is the dual over them and the
//! new rows, not over every document seen (the incremental SVM of Syed, Liu and Sung, 1999). A
//! row that was not a support vector had α = 0 and no part in the decision, and it is left out
//! for good: if the new documents would have made it one, that is lost. Within that problem the
//! warm start changes nothing: the support vectors keep their α, the new rows start at zero,
//! which is feasible for every class (yᵀα was zero over the support vectors, and stays so), and
//! SMO goes on from there to the same tolerance as training.

use super::{platt, KernelSvm, KernelSvmParams, Problems, Settings};
use crate::error::{Error, Result};
use crate::model::ColumnChange;
use crate::vectorize::{matrix_row, renumber, Matrix, MatrixBuilder, SparseRow};

impl KernelSvm {
    /// Learns new weighted rows `x` (in the grown vocabulary, whose columns and weighting
    /// `change` relates to the model's) of classes `labels`, out of `classes` (old and new). A
    /// class first seen here gets the mean of the other classes' Platt sigmoids.
    pub fn update(
        &mut self,
        x: &Matrix,
        labels: &[u32],
        classes: usize,
        change: ColumnChange,
    ) -> Result<()> {
        if let Some(reason) = self.not_updatable() {
            return Err(Error::Config(reason.into()));
        }
        let known = |&l: &u32| (l as usize) < classes;
        if classes < self.classes() || labels.len() != x.rows() || !labels.iter().all(known) {
            return Err(Error::Config(
                "a kernel SVM update needs a class id below the class count for every row".into(),
            ));
        }
        let all = stacked(&moved(&self.support, change)?, x)?;
        let all_labels: Vec<u32> = self.labels.iter().chain(labels).copied().collect();
        let problems = Problems {
            x: &all,
            labels: &all_labels,
            classes,
            kernel: self.kernel,
        };
        let settings = Settings {
            c: self.c,
            eps: self.tolerance,
            shrinking: true,
        };
        let cache_bytes = KernelSvmParams::default().cache_bytes;
        let solutions = problems.solve(settings, cache_bytes, |c| self.start(c, all.rows()));
        let mut svm =
            KernelSvm::from_solutions(&all, &all_labels, classes, self.kernel, &solutions)?;
        (svm.c, svm.tolerance) = (self.c, self.tolerance);
        svm.calibration = self.calibration.take().map(|mut sigmoids| {
            platt::extend_with_mean(&mut sigmoids, classes);
            sigmoids
        });
        *self = svm;
        Ok(())
    }

    /// Why the model cannot be updated, when it cannot: it is of format 11, which did not keep
    /// its support vectors' classes.
    pub(crate) fn not_updatable(&self) -> Option<&'static str> {
        (self.labels.len() != self.support.rows()).then_some(
            "this kernel SVM was written by a bowline that did not keep its support vectors' \
             classes (model format 11), so it cannot be updated; train it again to update it",
        )
    }

    /// The starting α of class `c`'s problem over `rows` rows: each support vector's α in that
    /// class (|y·α|), zero for the new rows and for a class first seen in the update. With two
    /// classes the one problem is class 0's.
    fn start(&self, c: usize, rows: usize) -> Vec<f64> {
        let old = self.classes();
        let mut alpha: Vec<f64> = match c < old {
            true => (self.coefficients.iter().skip(c).step_by(old))
                .map(|a| a.abs())
                .collect(),
            false => Vec::new(),
        };
        alpha.resize(rows, 0.0);
        alpha
    }
}

/// The rows of `support` in the grown vocabulary's columns and weighting: each value scaled by
/// its column's new idf over its old, and the row scaled to unit length again under l2.
fn moved(support: &Matrix, change: ColumnChange) -> Result<Matrix> {
    let (mut keys, mut row) = (Vec::new(), SparseRow::default());
    let mut builder = MatrixBuilder::default();
    for s in 0..support.rows() {
        let (indices, values) = matrix_row(support, s);
        renumber(indices, values, change.columns, &mut keys, &mut row);
        for (&j, v) in row.indices.iter().zip(row.values.iter_mut()) {
            *v *= change.rescale[j as usize];
        }
        let norm = row.values.iter().map(|v| v * v).sum::<f64>().sqrt();
        if change.l2 && norm > 0.0 {
            row.values.iter_mut().for_each(|v| *v /= norm);
        }
        builder.push(&row);
    }
    builder.finish(change.rescale.len())
}

/// The rows of `top` followed by those of `bottom`, which must have the same columns.
pub(super) fn stacked(top: &Matrix, bottom: &Matrix) -> Result<Matrix> {
    if top.cols() != bottom.cols() {
        return Err(Error::Config(format!(
            "kernel SVM update: support vectors of {} columns and new rows of {}",
            top.cols(),
            bottom.cols()
        )));
    }
    Ok(sprs::vstack(&[top.view(), bottom.view()]))
}
