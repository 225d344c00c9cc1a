//! Kernel support vector machines: the C-SVC dual solved by SMO over a sparse kernel (linear,
//! polynomial, RBF or cosine), and two maps that approximate a kernel with explicit features for
//! the linear SVM (Nyström and random Fourier features).
//!
//! Several classes are handled one-vs-rest, as [`LinearSvm`](super::LinearSvm) does, rather than
//! one-vs-one as LIBSVM does: every class's score is then a comparable decision value, so the
//! decisions, calibration and multi-label paths that take per-class scores work unchanged, and
//! k classes cost k problems instead of k(k − 1)/2. Each problem has every row, so it is larger
//! than a one-vs-one problem; the classes are solved in parallel across threads. With two
//! classes the two problems are one problem with its targets negated, so it is solved once.

mod cache;
mod fourier;
mod gram;
mod kernel;
mod nystroem;
mod smo;
#[cfg(test)]
mod tests;

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::vectorize::{matrix_row, pick_rows, Matrix};
pub use fourier::FourierFeatures;
use gram::Gram;
use kernel::{squared_norms, Scatter};
pub use kernel::{Gamma, Kernel, KernelFunction, KernelKind};
pub use nystroem::Nystroem;
use smo::{BinarySolution, Settings};

/// What a kernel SVM is trained with, validated by [`KernelSvmParams::validate`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KernelSvmParams {
    /// The kernel; default RBF with γ = `scale`, as scikit-learn's `SVC`.
    pub kernel: Kernel,
    /// Inverse regularization strength C > 0; default 1, as scikit-learn's `SVC`.
    pub c: f64,
    /// Stop when the largest violation of the optimality conditions is below this; default
    /// 1e-3, LIBSVM's.
    pub tolerance: f64,
    /// Bytes of kernel rows cached, shared by the classes solved at once; default 200 MB, as
    /// scikit-learn's `cache_size`.
    pub cache_bytes: usize,
    /// Whether the solver shrinks its active set; default true, as LIBSVM.
    pub shrinking: bool,
}

impl Default for KernelSvmParams {
    fn default() -> Self {
        KernelSvmParams {
            kernel: Kernel::new(KernelKind::Rbf),
            c: 1.0,
            tolerance: 1e-3,
            cache_bytes: 200 << 20,
            shrinking: true,
        }
    }
}

impl KernelSvmParams {
    /// Checks every parameter.
    pub fn validate(&self) -> Result<()> {
        self.kernel.validate()?;
        let positive = |v: f64| v > 0.0 && v.is_finite();
        if !positive(self.c) || !positive(self.tolerance) {
            return Err(Error::Config(format!(
                "--c must be a finite number > 0 and the tolerance > 0, got {} and {}",
                self.c, self.tolerance
            )));
        }
        Ok(())
    }
}

/// A one-vs-rest kernel SVM: its support vectors and, per class, their coefficients y_i·α_i.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelSvm {
    kernel: KernelFunction,
    /// The training rows with α_i > 0 in some class, in the training matrix's columns.
    support: Matrix,
    support_squares: Vec<f64>,
    /// Support-vector-major, `coefficients[s * classes + c]`.
    coefficients: Vec<f64>,
    rho: Vec<f64>,
    objectives: Vec<f64>,
    steps: Vec<usize>,
    converged: Vec<bool>,
}

impl KernelSvm {
    /// Trains one binary problem per class (class `c` against the rest), classes in parallel.
    pub fn train(
        x: &Matrix,
        labels: &[u32],
        classes: usize,
        params: &KernelSvmParams,
    ) -> Result<Self> {
        params.validate()?;
        let known = |&l: &u32| (l as usize) < classes;
        if classes < 2 || labels.len() != x.rows() || !labels.iter().all(known) {
            return Err(Error::Config(
                "a kernel SVM needs two classes or more and a class id below their count for \
                 every training row"
                    .into(),
            ));
        }
        let kernel = params.kernel.resolve(x);
        let squares = squared_norms(x);
        let problems = if classes == 2 { 1 } else { classes };
        let at_once = problems.min(rayon::current_num_threads()).max(1);
        let settings = Settings {
            c: params.c,
            eps: params.tolerance,
            shrinking: params.shrinking,
        };
        let cache_bytes = params.cache_bytes / at_once;
        let solutions: Vec<BinarySolution> = (0..problems)
            .into_par_iter()
            .map(|c| {
                let y: Vec<f64> = (labels.iter())
                    .map(|&l| if l as usize == c { 1.0 } else { -1.0 })
                    .collect();
                let gram = Gram::new(x, &squares, kernel, &y, cache_bytes);
                smo::solve(gram, &y, settings)
            })
            .collect();
        KernelSvm::from_solutions(x, labels, classes, kernel, &solutions)
    }

    /// Gathers the support vectors of every class's solution; with two classes, class 1's
    /// problem is class 0's with the targets negated.
    fn from_solutions(
        x: &Matrix,
        labels: &[u32],
        classes: usize,
        kernel: KernelFunction,
        solutions: &[BinarySolution],
    ) -> Result<Self> {
        let rows: Vec<usize> = (0..x.rows())
            .filter(|&i| solutions.iter().any(|s| s.alpha[i] > 0.0))
            .collect();
        let solution = |c: usize| &solutions[c.min(solutions.len() - 1)];
        let mut coefficients = Vec::with_capacity(rows.len() * classes);
        for &i in &rows {
            for c in 0..classes {
                let y = if labels[i] as usize == c { 1.0 } else { -1.0 };
                coefficients.push(y * solution(c).alpha[i]);
            }
        }
        // Class 1 of two shares class 0's α; its targets, and so its ρ, are negated.
        let sign = |c: usize| if classes == 2 && c == 1 { -1.0 } else { 1.0 };
        let rho = (0..classes).map(|c| sign(c) * solution(c).rho).collect();
        let objectives = (0..classes).map(|c| solution(c).objective).collect();
        let steps = (0..classes).map(|c| solution(c).iterations).collect();
        let converged = (0..classes).map(|c| solution(c).converged).collect();
        let support = pick_rows(x, &rows)?;
        Ok(KernelSvm {
            kernel,
            support_squares: squared_norms(&support),
            support,
            coefficients,
            rho,
            objectives,
            steps,
            converged,
        })
    }

    /// The kernel, with γ as fixed by the training data.
    pub fn kernel(&self) -> KernelFunction {
        self.kernel
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.rho.len()
    }

    /// Number of support vectors over all classes.
    pub fn support_vectors(&self) -> usize {
        self.support.rows()
    }

    /// Each class's dual objective Σα − ½·αᵀQα at the solution.
    pub fn dual_objectives(&self) -> &[f64] {
        &self.objectives
    }

    /// The solver steps (pairs of variables optimized) each class took.
    pub fn steps(&self) -> &[usize] {
        &self.steps
    }

    /// Whether each class's solver met its tolerance before its step cap.
    pub fn converged(&self) -> &[bool] {
        &self.converged
    }

    /// The decision values of every row of `x`, row-major (`rows × classes`): per class,
    /// Σ_s y_s·α_s·K(x_s, x) − ρ. Rows are scored in parallel.
    pub fn decision_values(&self, x: &Matrix) -> Vec<f64> {
        let k = self.classes();
        let mut out = vec![0.0; x.rows() * k];
        out.par_chunks_mut(k.max(1)).enumerate().for_each_init(
            || Scatter::new(self.support.cols()),
            |scatter, (i, scores)| {
                let (indices, values) = matrix_row(x, i);
                self.score(scatter, indices, values, scores);
            },
        );
        out
    }

    /// One row's decision values into `scores`.
    fn score(&self, scatter: &mut Scatter, indices: &[u32], values: &[f64], scores: &mut [f64]) {
        let k = scores.len();
        let square: f64 = values.iter().map(|v| v * v).sum();
        scatter.load(indices, values);
        scores.iter_mut().zip(&self.rho).for_each(|(s, r)| *s = -r);
        for (s, coefficients) in self.coefficients.chunks_exact(k).enumerate() {
            let (sj, sv) = matrix_row(&self.support, s);
            let value = (self.kernel).value(scatter.dot(sj, sv), self.support_squares[s], square);
            (scores.iter_mut().zip(coefficients)).for_each(|(out, a)| *out += a * value);
        }
        scatter.clear(indices);
    }

    /// The class of highest decision value for every row of `x` (the lowest id among ties).
    pub fn predict(&self, x: &Matrix) -> Vec<u32> {
        let k = self.classes();
        (self.decision_values(x).chunks_exact(k.max(1)))
            .map(|scores| {
                (0..k).fold(0, |best, c| if scores[c] > scores[best] { c } else { best }) as u32
            })
            .collect()
    }
}
