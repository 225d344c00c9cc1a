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
mod cosine;
mod fourier;
mod gram;
mod kernel;
mod nystroem;
mod smo;
#[cfg(test)]
mod tests;
mod update;
mod ziggurat;

use std::cell::RefCell;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::explain::Attribution;
use super::platt::{self, Sigmoid};
use crate::error::{Error, Result};
use crate::packed::Table;
use crate::vectorize::{matrix_row, pick_rows, Matrix};
pub use fourier::FourierFeatures;
use gram::{Gram, Kernels};
use kernel::{squared_norms, Postings};
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
    /// Bytes of kernel values cached; default 200 MB, as scikit-learn's `cache_size`. When the
    /// whole kernel matrix (l² `f32` values for l training rows) fits, it is computed once and
    /// shared by every class; otherwise the classes solved at once share the budget, each with
    /// a cache of rows.
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Stored", into = "Stored")]
pub struct KernelSvm {
    kernel: KernelFunction,
    /// The C it was trained with.
    c: f64,
    /// The solver's stopping tolerance.
    tolerance: f64,
    /// The training rows with α_i > 0 in some class, in the training matrix's columns.
    support: Matrix,
    /// The class of each support vector, which an update needs for the targets of the classes
    /// where its α is zero. Empty in a model of format 11, which did not keep them.
    labels: Vec<u32>,
    support_squares: Vec<f64>,
    /// The support vectors' inverted index, which scoring reads.
    postings: Postings,
    /// With the linear kernel, each class's weights Σ_s y_s·α_s·x_s (feature-major, as
    /// [`KernelSvm::support_weights`]), which give the same decision values as the support
    /// vectors at the cost of the row's entries alone.
    linear: Option<Vec<f64>>,
    /// Support-vector-major, `coefficients[s * classes + c]`.
    coefficients: Vec<f64>,
    rho: Vec<f64>,
    objectives: Vec<f64>,
    steps: Vec<usize>,
    converged: Vec<bool>,
    /// Per-class Platt sigmoids, when trained with calibration.
    calibration: Option<Vec<Sigmoid>>,
}

/// What a model file holds of a kernel SVM: the support vectors as CSR arrays, so that they are
/// sections of the file; their squared norms are computed again on loading.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename = "StoredKernelSvm")]
struct Stored {
    kernel: KernelFunction,
    c: f64,
    tolerance: f64,
    /// The support vectors' columns: the vectorizer's features.
    features: usize,
    /// Support vector s is entries `starts[s]..starts[s + 1]` of `columns` and `values`.
    starts: Table<u64>,
    columns: Table<u32>,
    values: Table<f64>,
    coefficients: Table<f64>,
    rho: Vec<f64>,
    objectives: Vec<f64>,
    steps: Vec<usize>,
    converged: Vec<bool>,
    calibration: Option<Vec<Sigmoid>>,
    /// From format 13 on.
    #[serde(default)]
    labels: Table<u32>,
}

impl From<KernelSvm> for Stored {
    fn from(svm: KernelSvm) -> Self {
        let features = svm.support.cols();
        let (indptr, columns, values) = svm.support.into_raw_storage();
        Stored {
            kernel: svm.kernel,
            c: svm.c,
            tolerance: svm.tolerance,
            features,
            starts: indptr
                .into_iter()
                .map(|i| i as u64)
                .collect::<Vec<_>>()
                .into(),
            columns: columns.into(),
            values: values.into(),
            coefficients: svm.coefficients.into(),
            rho: svm.rho,
            objectives: svm.objectives,
            steps: svm.steps,
            converged: svm.converged,
            calibration: svm.calibration,
            labels: svm.labels.into(),
        }
    }
}

impl TryFrom<Stored> for KernelSvm {
    type Error = String;

    /// Rebuilds the support vectors, which checks that their arrays agree, and checks the rest.
    fn try_from(stored: Stored) -> std::result::Result<Self, String> {
        let starts: Option<Vec<usize>> = (stored.starts.iter())
            .map(|&i| usize::try_from(i).ok())
            .collect();
        let starts = starts.ok_or("kernel SVM: support vector offsets out of range")?;
        let rows = starts.len().saturating_sub(1);
        let support = Matrix::try_new(
            (rows, stored.features),
            starts,
            stored.columns.to_vec(),
            stored.values.to_vec(),
        )
        .map_err(|(.., e)| format!("kernel SVM: inconsistent support vectors: {e}"))?;
        let mut svm = KernelSvm {
            kernel: stored.kernel,
            c: stored.c,
            tolerance: stored.tolerance,
            support_squares: squared_norms(&support),
            postings: Postings::new(&support),
            linear: None,
            support,
            labels: stored.labels.to_vec(),
            coefficients: stored.coefficients.to_vec(),
            rho: stored.rho,
            objectives: stored.objectives,
            steps: stored.steps,
            converged: stored.converged,
            calibration: stored.calibration,
        };
        svm.check().map_err(|e| e.to_string())?;
        svm.linear = svm.linear_weights();
        Ok(svm)
    }
}

/// The one-vs-rest problems over training rows: one problem per class, or one for two classes.
struct Problems<'a> {
    x: &'a Matrix,
    labels: &'a [u32],
    classes: usize,
    kernel: KernelFunction,
}

impl Problems<'_> {
    /// Solves every problem, in parallel, each from the feasible dual variables `start(c)`
    /// (zeros to train from scratch), with `cache_bytes` for kernel values.
    fn solve(
        &self,
        settings: Settings,
        cache_bytes: usize,
        start: impl Fn(usize) -> Vec<f64> + Sync,
    ) -> Vec<BinarySolution> {
        let squares = squared_norms(self.x);
        let problems = if self.classes == 2 { 1 } else { self.classes };
        let at_once = problems.min(rayon::current_num_threads()).max(1);
        let kernels = Kernels::new(self.x, &squares, self.kernel, cache_bytes);
        let cache_bytes = if kernels.whole() {
            0
        } else {
            cache_bytes / at_once
        };
        (0..problems)
            .into_par_iter()
            .map(|c| {
                let y: Vec<f64> = (self.labels.iter())
                    .map(|&l| if l as usize == c { 1.0 } else { -1.0 })
                    .collect();
                smo::solve_from(Gram::new(&kernels, cache_bytes), &y, settings, start(c))
            })
            .collect()
    }
}

thread_local! {
    /// The dot products with the support vectors of one scoring thread, kept between documents
    /// so that scoring one document allocates nothing after the first.
    static DOTS: RefCell<Vec<f64>> = RefCell::default();
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
        let settings = Settings {
            c: params.c,
            eps: params.tolerance,
            shrinking: params.shrinking,
        };
        let problems = Problems {
            x,
            labels,
            classes,
            kernel,
        };
        let solutions = problems.solve(settings, params.cache_bytes, |_| vec![0.0; x.rows()]);
        let mut svm = KernelSvm::from_solutions(x, labels, classes, kernel, &solutions)?;
        (svm.c, svm.tolerance) = (params.c, params.tolerance);
        Ok(svm)
    }

    /// Trains like [`KernelSvm::train`] and adds Platt scaling as
    /// [`LinearSvm`](super::LinearSvm) does: a kernel SVM trained on four fifths of the rows
    /// scores the held-out fifth (every fifth row), a sigmoid per class is fitted to those
    /// decision values, and the returned SVM, trained on all rows, carries them. γ = `scale` is
    /// fixed from all rows first, so that both trainings use the same kernel.
    pub(crate) fn train_calibrated(
        x: &Matrix,
        labels: &[u32],
        classes: usize,
        params: &KernelSvmParams,
    ) -> Result<Self> {
        params.validate()?;
        let fixed = KernelSvmParams {
            kernel: Kernel {
                gamma: Gamma::Value(params.kernel.resolve(x).gamma),
                ..params.kernel
            },
            ..*params
        };
        let sigmoids = platt::held_out_sigmoids(x, labels, classes, |fit_x, fit_y, held_x| {
            Ok(KernelSvm::train(fit_x, fit_y, classes, &fixed)?.decision_values(held_x))
        })?;
        let mut svm = KernelSvm::train(x, labels, classes, &fixed)?;
        svm.calibration = Some(sigmoids);
        Ok(svm)
    }

    /// Checks what a damaged or foreign model file could get wrong and scoring relies on: the
    /// kernel's parameters, a coefficient per support vector and class, and one value of each
    /// per-class part per class.
    pub fn check(&self) -> Result<()> {
        self.kernel.check()?;
        let positive = |v: f64| v > 0.0 && v.is_finite();
        let classes = self.rho.len();
        let per_class = [
            self.objectives.len(),
            self.steps.len(),
            self.converged.len(),
            self.calibration.as_ref().map_or(classes, Vec::len),
        ];
        if !positive(self.c)
            || !positive(self.tolerance)
            || classes == 0
            || per_class.iter().any(|&n| n != classes)
            || Some(self.coefficients.len()) != self.support.rows().checked_mul(classes)
            || !(self.labels.is_empty() || self.labels.len() == self.support.rows())
            || self.labels.iter().any(|&l| l as usize >= classes)
        {
            return Err(Error::Config(
                "kernel SVM: its parts do not match its support vectors and classes".into(),
            ));
        }
        Ok(())
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
        let mut svm = KernelSvm {
            kernel,
            labels: rows.iter().map(|&i| labels[i]).collect(),
            support_squares: squared_norms(&support),
            postings: Postings::new(&support),
            linear: None,
            support,
            coefficients,
            rho,
            objectives,
            steps,
            converged,
            calibration: None,
            c: 1.0,
            tolerance: 1e-3,
        };
        svm.linear = svm.linear_weights();
        Ok(svm)
    }

    /// The weights that score rows with the linear kernel; None with the others.
    fn linear_weights(&self) -> Option<Vec<f64>> {
        (self.kernel.kind == KernelKind::Linear).then(|| self.support_weights())
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

    /// The C it was trained with.
    pub fn c(&self) -> f64 {
        self.c
    }

    /// Number of features (vectorizer columns) its support vectors have.
    pub(crate) fn features(&self) -> usize {
        self.support.cols()
    }

    /// Whether Platt sigmoids calibrate its decision values into probabilities.
    pub(crate) fn is_calibrated(&self) -> bool {
        self.calibration.is_some()
    }

    /// The support vectors, in the vectorizer's columns.
    pub(crate) fn support(&self) -> &Matrix {
        &self.support
    }

    /// Support vector `s`'s coefficient y·α in every class.
    pub(crate) fn coefficients_of(&self, s: usize) -> &[f64] {
        let k = self.classes();
        &self.coefficients[s * k..(s + 1) * k]
    }

    /// The intercepts: −ρ per class, as the linear SVM's biases.
    pub(crate) fn intercepts(&self) -> Vec<f64> {
        self.rho.iter().map(|r| -r).collect()
    }

    /// The Platt sigmoids, when calibrated.
    pub(crate) fn sigmoids(&self) -> Option<&[Sigmoid]> {
        self.calibration.as_deref()
    }

    /// Turns decision values into class probabilities in place when calibrated, as
    /// [`LinearSvm::calibrate_scores`](super::LinearSvm) does; returns false, leaving `scores`
    /// as they are, otherwise.
    pub(crate) fn calibrate_scores(&self, scores: &mut [f64]) -> bool {
        let Some(sigmoids) = &self.calibration else {
            return false;
        };
        (scores.iter_mut().zip(sigmoids)).for_each(|(s, sigmoid)| *s = sigmoid.probability(*s));
        let total: f64 = scores.iter().sum();
        if total > 0.0 {
            scores.iter_mut().for_each(|s| *s /= total);
        }
        true
    }

    /// Each class's Σ_s y_s·α_s·x_s, feature-major (`features × classes`): the weights of the
    /// decision value for the linear kernel. For the other kernels the decision is not linear in
    /// the terms, and these are only the support vectors' terms weighted by their coefficients.
    pub(crate) fn support_weights(&self) -> Vec<f64> {
        let k = self.classes();
        let mut weights = vec![0.0; self.features() * k];
        for s in 0..self.support.rows() {
            let (indices, values) = matrix_row(&self.support, s);
            for (&j, &v) in indices.iter().zip(values) {
                let slots = &mut weights[j as usize * k..(j as usize + 1) * k];
                (slots.iter_mut().zip(self.coefficients_of(s))).for_each(|(w, a)| *w += a * v);
            }
        }
        weights
    }

    /// Fills `out` (one slot per class) with the decision values of one row. Columns beyond the
    /// support vectors' (terms it never saw) are ignored.
    pub fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        DOTS.with_borrow_mut(|dots| self.score(dots, indices, values, out));
    }

    /// Class `class`'s decision value of one row, with no term's part: a kernel's value is not
    /// a sum over terms (but for the linear kernel), so the whole score is the bias.
    pub(crate) fn attribute(&self, indices: &[u32], values: &[f64], class: usize) -> Attribution {
        let mut scores = vec![0.0; self.classes()];
        self.scores(indices, values, &mut scores);
        Attribution {
            score: scores[class],
            bias: scores[class],
            terms: Vec::new(),
        }
    }

    /// The decision values of every row of `x`, row-major (`rows × classes`): per class,
    /// Σ_s y_s·α_s·K(x_s, x) − ρ. Rows are scored in parallel.
    pub fn decision_values(&self, x: &Matrix) -> Vec<f64> {
        let k = self.classes();
        let mut out = vec![0.0; x.rows() * k];
        out.par_chunks_mut(k.max(1)).enumerate().for_each_init(
            || vec![0.0; self.support.rows()],
            |dots, (i, scores)| {
                let (indices, values) = matrix_row(x, i);
                self.score(dots, indices, values, scores);
            },
        );
        out
    }

    /// One row's decision values into `scores`, with `dots` as scratch. The linear kernel's are
    /// the weights' dot products with the row. Otherwise each kernel value K(x_s, x) is
    /// computed once and serves every class; the dot products with all support vectors come
    /// from their inverted index, so they cost only the entries the row shares with them.
    fn score(&self, dots: &mut Vec<f64>, indices: &[u32], values: &[f64], scores: &mut [f64]) {
        let k = scores.len();
        scores.iter_mut().zip(&self.rho).for_each(|(s, r)| *s = -r);
        if let Some(weights) = &self.linear {
            for (&j, &v) in indices.iter().zip(values) {
                let slots = weights.get(j as usize * k..(j as usize + 1) * k);
                (scores.iter_mut().zip(slots.unwrap_or_default())).for_each(|(s, w)| *s += v * w);
            }
            return;
        }
        let features = self.support.cols() as u32;
        let known = indices.iter().zip(values).filter(|(&j, _)| j < features);
        let square: f64 = known.map(|(_, v)| v * v).sum();
        dots.clear();
        dots.resize(self.support.rows(), 0.0);
        self.postings.add_dots(indices, values, 0, dots);
        let terms = (self.coefficients.chunks_exact(k)).zip(dots.iter().zip(&self.support_squares));
        for (coefficients, (&dot, &support_square)) in terms {
            let value = self.kernel.value(dot, support_square, square);
            (scores.iter_mut().zip(coefficients)).for_each(|(out, a)| *out += a * value);
        }
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
