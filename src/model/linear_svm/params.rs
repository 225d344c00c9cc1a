//! What a linear SVM is trained with and how each class's solve ends: the loss, the parameters,
//! the classes of the training rows, and the solver's convergence, which the solvers in this
//! folder share.

use serde::{Deserialize, Serialize};

use crate::choice::Choice;
use crate::error::{Error, Result};
use crate::model::label_sets::LabelSets;

/// The loss on each training example.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Loss {
    /// max(0, 1 − y·w·x).
    Hinge,
    /// max(0, 1 − y·w·x)².
    SquaredHinge,
}

impl Choice for Loss {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        ("hinge", "max(0, 1 − y·w·x)", Loss::Hinge),
        ("squared-hinge", "max(0, 1 − y·w·x)²", Loss::SquaredHinge),
    ];
}

/// Training parameters, validated by [`SvmParams::validate`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SvmParams {
    /// Loss; default squared hinge (LIBLINEAR's and scikit-learn's default).
    pub loss: Loss,
    /// Inverse regularization strength C > 0; default 3, chosen by cross-validation on the
    /// training data of five corpora (`benches/defaults.py`).
    pub c: f64,
    /// Stop when the projected gradient's spread falls below this; default 0.1 (LIBLINEAR).
    pub tolerance: f64,
    /// Passes over the data at most; default 1000.
    pub max_iterations: usize,
    /// Seed of the coordinate order and of the reservoir's sampling; default 1.
    pub seed: u64,
    /// Training rows kept in the model for later updates, a uniform sample; default 4096, 0 keeps
    /// none (updates then see only the new rows).
    pub reservoir: u32,
}

impl Default for SvmParams {
    fn default() -> Self {
        SvmParams {
            loss: Loss::SquaredHinge,
            c: 3.0,
            tolerance: 0.1,
            max_iterations: 1000,
            seed: 1,
            reservoir: 4096,
        }
    }
}

impl SvmParams {
    /// Checks every parameter; the only place they are checked.
    pub fn validate(&self) -> Result<()> {
        if !(self.c > 0.0 && self.c.is_finite()) {
            return Err(Error::Config(format!(
                "--c must be a finite number > 0, got {}",
                self.c
            )));
        }
        if !(self.tolerance.is_finite() && self.tolerance > 0.0) || self.max_iterations == 0 {
            return Err(Error::Config(
                "--tolerance must be a finite number > 0, and --max-iterations at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// The classes each training row belongs to: every class's binary problem is "in the class"
/// against the rest, over the same rows.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Targets<'a> {
    /// One class per row: one-vs-rest.
    Single(&'a [u32]),
    /// A set of classes per row: binary relevance for multi-label data.
    Sets(&'a LabelSets),
}

impl Targets<'_> {
    /// Number of rows.
    pub(crate) fn len(&self) -> usize {
        match self {
            Targets::Single(labels) => labels.len(),
            Targets::Sets(sets) => sets.len(),
        }
    }

    /// Whether row `i` is in class `c`.
    #[inline]
    pub(crate) fn contains(&self, i: usize, c: usize) -> bool {
        match self {
            Targets::Single(labels) => labels[i] as usize == c,
            Targets::Sets(sets) => sets.contains(i, c),
        }
    }
}

/// How one class's solve ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Convergence {
    /// Passes made over the data.
    pub iterations: usize,
    /// Whether the tolerance was met before the iteration cap.
    pub converged: bool,
}
