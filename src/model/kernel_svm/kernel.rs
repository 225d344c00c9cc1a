//! The kernels over sparse rows, and the dense scratch row that their dot products use.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::choice::Choice;
use crate::error::{Error, Result};
use crate::vectorize::{matrix_row, Matrix};

/// Which kernel function compares two documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum KernelKind {
    /// x·z.
    Linear,
    /// (γ·x·z + coef0)^degree.
    Poly,
    /// exp(−γ·‖x − z‖²).
    Rbf,
    /// x·z / (‖x‖·‖z‖), 0 when either row is empty.
    Cosine,
}

impl Choice for KernelKind {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        ("linear", "x·z", KernelKind::Linear),
        ("poly", "(γ·x·z + coef0)^degree", KernelKind::Poly),
        ("rbf", "exp(−γ·‖x − z‖²)", KernelKind::Rbf),
        ("cosine", "x·z / (‖x‖·‖z‖)", KernelKind::Cosine),
    ];
}

/// The width γ of the polynomial and RBF kernels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Gamma {
    /// 1 / (features · Var(X)), the variance taken over every entry of the training matrix,
    /// zeros included, as scikit-learn's `gamma="scale"`; 1 when that variance is 0.
    Scale,
    /// A fixed γ > 0.
    Value(f64),
}

impl std::str::FromStr for Gamma {
    type Err = String;

    /// `scale` or a finite number > 0; the error says which was expected, for a flag's message.
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "scale" => Ok(Gamma::Scale),
            _ => match s.parse::<f64>() {
                Ok(g) if g.is_finite() && g > 0.0 => Ok(Gamma::Value(g)),
                _ => Err(format!("'{s}' is neither a finite number > 0 nor scale")),
            },
        }
    }
}

/// A kernel and its parameters, before γ is fixed by the training data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Kernel {
    /// The kernel function.
    pub kind: KernelKind,
    /// γ of the polynomial and RBF kernels; default [`Gamma::Scale`].
    pub gamma: Gamma,
    /// Degree of the polynomial kernel; default 3, as scikit-learn's.
    pub degree: u32,
    /// The constant added inside the polynomial kernel; default 0, as scikit-learn's.
    pub coef0: f64,
}

impl Kernel {
    /// The kernel `kind` with scikit-learn's defaults for the other parameters.
    pub fn new(kind: KernelKind) -> Self {
        Kernel {
            kind,
            gamma: Gamma::Scale,
            degree: 3,
            coef0: 0.0,
        }
    }

    /// The flags of `bowline train` that give this kernel, naming only the parameters its
    /// function reads.
    pub fn flags(&self) -> String {
        let gamma = match self.gamma {
            Gamma::Scale => "scale".to_string(),
            Gamma::Value(g) => g.to_string(),
        };
        let name = self.kind.name();
        match self.kind {
            KernelKind::Linear | KernelKind::Cosine => format!("--kernel {name}"),
            KernelKind::Rbf => format!("--kernel {name} --gamma {gamma}"),
            KernelKind::Poly => format!(
                "--kernel {name} --gamma {gamma} --degree {} --coef0 {}",
                self.degree, self.coef0
            ),
        }
    }

    /// Checks the parameters a user sets.
    pub fn validate(&self) -> Result<()> {
        let gamma_ok = match self.gamma {
            Gamma::Scale => true,
            Gamma::Value(g) => g.is_finite() && g > 0.0,
        };
        let degree_ok = (1..=i32::MAX as u32).contains(&self.degree);
        let problem = if !gamma_ok {
            "--gamma must be `scale` or a finite number > 0"
        } else if !degree_ok {
            "--degree must be at least 1 and at most 2147483647"
        } else if !self.coef0.is_finite() {
            "--coef0 must be a finite number"
        } else {
            return Ok(());
        };
        Err(Error::Config(problem.into()))
    }

    /// The kernel with γ fixed: [`Gamma::Scale`] is computed from the training matrix `x`.
    pub fn resolve(&self, x: &Matrix) -> KernelFunction {
        let gamma = match self.gamma {
            Gamma::Value(g) => g,
            Gamma::Scale => scale_gamma(x),
        };
        KernelFunction {
            kind: self.kind,
            gamma,
            degree: self.degree.min(i32::MAX as u32) as i32,
            coef0: self.coef0,
        }
    }
}

/// scikit-learn's `gamma="scale"`: 1 / (features · Var(X)), with Var(X) = mean(X²) − mean(X)²
/// over all rows × columns entries.
fn scale_gamma(x: &Matrix) -> f64 {
    let entries = x.rows() as f64 * x.cols() as f64;
    let (sum, squares) = x
        .data()
        .iter()
        .fold((0.0, 0.0), |(s, q), &v| (s + v, q + v * v));
    let variance = squares / entries - (sum / entries).powi(2);
    if variance > 0.0 && variance.is_finite() {
        1.0 / (x.cols() as f64 * variance)
    } else {
        1.0
    }
}

/// A kernel with every parameter fixed, ready to evaluate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct KernelFunction {
    /// The kernel function.
    pub kind: KernelKind,
    /// γ of the polynomial and RBF kernels.
    pub gamma: f64,
    /// Degree of the polynomial kernel.
    pub degree: i32,
    /// The constant of the polynomial kernel.
    pub coef0: f64,
}

impl KernelFunction {
    /// The kernel's value for two rows with dot product `dot` and squared norms `a` and `b`.
    #[inline]
    pub fn value(&self, dot: f64, a: f64, b: f64) -> f64 {
        match self.kind {
            KernelKind::Linear => dot,
            KernelKind::Poly => (self.gamma * dot + self.coef0).powi(self.degree),
            // Rounding can make the squared distance of two equal rows slightly negative.
            KernelKind::Rbf => (-self.gamma * (a + b - 2.0 * dot).max(0.0)).exp(),
            KernelKind::Cosine if a > 0.0 && b > 0.0 => dot / (a * b).sqrt(),
            KernelKind::Cosine => 0.0,
        }
    }

    /// Checks the parameters a damaged model file could make unusable.
    pub(crate) fn check(&self) -> Result<()> {
        let gamma = Gamma::Value(self.gamma);
        let degree = u32::try_from(self.degree).unwrap_or(0);
        Kernel {
            kind: self.kind,
            gamma,
            degree,
            coef0: self.coef0,
        }
        .validate()
    }
}

/// The squared norm of each row of `x`.
pub(crate) fn squared_norms(x: &Matrix) -> Vec<f64> {
    (0..x.rows())
        .map(|i| matrix_row(x, i).1.iter().map(|v| v * v).sum())
        .collect()
}

/// A matrix of `rows` rows of `width` values each, from their row-major `values`. Zeros are
/// kept, so that every row holds every column: the SVM's solver then reads the rows as dense
/// (`linear_svm/row.rs`), as it could not Nyström's landmarks, whose features are a triangular
/// factor's rows. The values' buffer becomes the matrix's, and the column ids are allocated once
/// at their final size: a map of thousands of features makes a matrix of hundreds of megabytes,
/// which growing row by row copied and zeroed page by page several times over.
pub(crate) fn dense_matrix(mut values: Vec<f64>, rows: usize, width: usize) -> Result<Matrix> {
    if values.len() < rows * width {
        return Err(Error::Config(format!(
            "a dense matrix of {rows} × {width} was given {} values",
            values.len()
        )));
    }
    values.truncate(rows * width);
    let indptr = (0..=rows).map(|i| i * width).collect();
    let mut indices = vec![0; rows * width];
    indices.par_chunks_mut(width.max(1)).for_each(|row| {
        (row.iter_mut().zip(0..)).for_each(|(j, column)| *j = column);
    });
    Matrix::try_new((rows, width), indptr, indices, values)
        .map_err(|(_, _, _, err)| Error::Config(format!("inconsistent dense matrix: {err}")))
}

/// The columns of a matrix, each with the rows that have it and their values (an inverted
/// index), so that the dot products of one row with every row of the matrix cost the postings
/// of that row's columns: only the pairs of entries that share a column, where a dot product per
/// row would walk each row's every entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Postings {
    /// Column j is entries `starts[j]..starts[j + 1]` of `rows` and `values`.
    starts: Vec<usize>,
    rows: Vec<u32>,
    values: Vec<f64>,
}

impl Postings {
    /// The inverted index of `x`; rows are in increasing order in every column.
    pub(crate) fn new(x: &Matrix) -> Self {
        let mut starts = vec![0; x.cols() + 1];
        x.indices()
            .iter()
            .for_each(|&j| starts[j as usize + 1] += 1);
        for j in 0..x.cols() {
            starts[j + 1] += starts[j];
        }
        let mut next = starts.clone();
        let (mut rows, mut values) = (vec![0; x.nnz()], vec![0.0; x.nnz()]);
        for i in 0..x.rows() {
            let (indices, row) = matrix_row(x, i);
            for (&j, &v) in indices.iter().zip(row) {
                let slot = &mut next[j as usize];
                rows[*slot] = i as u32;
                values[*slot] = v;
                *slot += 1;
            }
        }
        Postings {
            starts,
            rows,
            values,
        }
    }

    /// Adds the dot product of (`indices`, `values`) with rows `first..` of the matrix to
    /// `dots` (one slot per row, the first `first` left alone); columns the matrix does not
    /// have are ignored.
    pub(crate) fn add_dots(&self, indices: &[u32], values: &[f64], first: usize, dots: &mut [f64]) {
        for (&j, &v) in indices.iter().zip(values) {
            let Some(range) = self.starts.get(j as usize..j as usize + 2) else {
                continue;
            };
            let (rows, weights) = (
                &self.rows[range[0]..range[1]],
                &self.values[range[0]..range[1]],
            );
            let skip = rows.partition_point(|&r| (r as usize) < first);
            for (&r, &w) in rows[skip..].iter().zip(&weights[skip..]) {
                dots[r as usize] += v * w;
            }
        }
    }
}
