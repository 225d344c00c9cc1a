//! The RBF kernel approximated for the linear SVM (`train --approx nystroem|rff --components
//! M`): a feature map fitted once on the weighted training rows turns each row into M dense
//! features (fewer for Nyström when landmarks repeat), and a one-vs-rest linear SVM learns
//! those. The map is saved in the model, so that every command scores a document as training
//! did: weigh its terms, map them, take the SVM's scores.
//!
//! Both maps draw from a generator seeded by the SVM's `--seed` (default 1): Nyström its
//! landmarks, random Fourier features their weights and offsets; the same seed and data give
//! the same model.
//!
//! An update keeps the map as it was fitted (the landmarks keep their values; each term keeps
//! its Fourier weights, and a new term gets weights of its own) and continues the linear SVM on
//! the mapped rows. The SVM's reservoir of earlier rows holds them mapped, dense, so it keeps at
//! most [`RESERVOIR_VALUES`] values: `--reservoir` rows, or fewer as M grows.

use serde::{Deserialize, Serialize};

use super::kernel_svm::{FourierFeatures, Gamma, Kernel, KernelKind, Nystroem};
use super::{ColumnChange, LinearSvm, SvmParams};
use crate::choice::Choice;
use crate::error::{Error, Result};
use crate::vectorize::Matrix;

/// The most features a map may give (`--components`): a Nyström map's kernel matrix of the
/// landmarks, its factor's inverse and the map are up to M² values each, 800 MB at this bound.
pub const MAX_COMPONENTS: usize = 10_000;
/// The most values the reservoir of an approximated SVM keeps: 16 MB as the reservoir stores
/// them (a u32 column and an f32 value each); 524 rows at M = 4,000.
pub const RESERVOIR_VALUES: usize = 1 << 21;

/// Which approximation of the RBF kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Approximation {
    /// Nyström: the kernel against M landmark documents, whitened.
    Nystroem,
    /// Random Fourier features: √(2/M)·cos(W·x + b).
    Fourier,
}

impl Choice for Approximation {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        (
            "nystroem",
            "Nyström: the RBF kernel against M landmark documents",
            Approximation::Nystroem,
        ),
        (
            "rff",
            "Random Fourier features of the RBF kernel",
            Approximation::Fourier,
        ),
    ];
}

/// How to approximate the kernel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ApproxParams {
    /// The approximation.
    pub approximation: Approximation,
    /// M: landmarks or Fourier features, in 1..=[`MAX_COMPONENTS`]; default 100, as
    /// scikit-learn's `Nystroem` and `RBFSampler`.
    pub components: usize,
    /// γ of the RBF kernel; default `scale`, as the kernel SVM's.
    pub gamma: Gamma,
}

impl ApproxParams {
    /// The approximation with its defaults.
    pub fn new(approximation: Approximation) -> Self {
        ApproxParams {
            approximation,
            components: 100,
            gamma: Gamma::Scale,
        }
    }

    /// Checks every parameter, naming its flag.
    pub fn validate(&self) -> Result<()> {
        if !(1..=MAX_COMPONENTS).contains(&self.components) {
            return Err(Error::Config(format!(
                "--components must lie in 1..={MAX_COMPONENTS}, got {}",
                self.components
            )));
        }
        self.kernel().validate()
    }

    fn kernel(&self) -> Kernel {
        Kernel {
            gamma: self.gamma,
            ..Kernel::new(KernelKind::Rbf)
        }
    }
}

thread_local! {
    /// One scoring thread's mapped row and its columns (0, 1, …), kept between documents so
    /// that scoring a stream allocates nothing per document after the first.
    static MAPPED: std::cell::RefCell<(Vec<u32>, Vec<f64>)> = std::cell::RefCell::default();
}

/// A fitted feature map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FeatureMap {
    /// Nyström.
    Nystroem(Nystroem),
    /// Random Fourier features.
    Fourier(FourierFeatures),
}

impl FeatureMap {
    /// Fits the map on the weighted rows `x`, drawing with `seed`, and maps them.
    pub fn fit_transform(x: &Matrix, params: &ApproxParams, seed: u64) -> Result<(Self, Matrix)> {
        params.validate()?;
        if params.approximation == Approximation::Fourier {
            let map = FeatureMap::fit(x, params, seed)?;
            let mapped = map.transform(x)?;
            return Ok((map, mapped));
        }
        let (components, kernel) = (params.components, params.kernel());
        let (map, mapped) = Nystroem::fit_transform(x, &kernel, components, seed)?;
        Ok((FeatureMap::Nystroem(map), mapped))
    }

    /// Fits the map on the weighted rows `x`, drawing with `seed`.
    pub fn fit(x: &Matrix, params: &ApproxParams, seed: u64) -> Result<Self> {
        params.validate()?;
        Ok(match params.approximation {
            Approximation::Nystroem => {
                FeatureMap::Nystroem(Nystroem::fit(x, &params.kernel(), params.components, seed)?)
            }
            Approximation::Fourier => FeatureMap::Fourier(FourierFeatures::fit(
                x,
                params.gamma,
                params.components,
                seed,
            )?),
        })
    }

    /// Which approximation this is.
    pub fn approximation(&self) -> Approximation {
        match self {
            FeatureMap::Nystroem(_) => Approximation::Nystroem,
            FeatureMap::Fourier(_) => Approximation::Fourier,
        }
    }

    /// M, as asked for (landmarks, or Fourier features).
    pub fn components(&self) -> usize {
        match self {
            FeatureMap::Nystroem(map) => map.components(),
            FeatureMap::Fourier(map) => map.components(),
        }
    }

    /// The features each row is mapped to: M, or for Nyström the rank of the landmarks' kernel
    /// matrix.
    pub fn features(&self) -> usize {
        match self {
            FeatureMap::Nystroem(map) => map.features(),
            FeatureMap::Fourier(map) => map.components(),
        }
    }

    /// γ of the RBF kernel approximated.
    pub fn gamma(&self) -> f64 {
        match self {
            FeatureMap::Nystroem(map) => map.kernel().gamma,
            FeatureMap::Fourier(map) => map.gamma(),
        }
    }

    /// The input columns: the vectorizer's features.
    pub fn columns(&self) -> usize {
        match self {
            FeatureMap::Nystroem(map) => map.columns(),
            FeatureMap::Fourier(map) => map.columns(),
        }
    }

    /// The mapped rows of `x`, a dense matrix of [`FeatureMap::features`] columns.
    pub fn transform(&self, x: &Matrix) -> Result<Matrix> {
        match self {
            FeatureMap::Nystroem(map) => map.transform(x),
            FeatureMap::Fourier(map) => map.transform(x),
        }
    }

    /// The mapped rows of `x`, row-major, [`FeatureMap::features`] values each.
    pub fn transform_dense(&self, x: &Matrix) -> Vec<f64> {
        match self {
            FeatureMap::Nystroem(map) => map.transform_dense(x),
            FeatureMap::Fourier(map) => map.transform_dense(x),
        }
    }

    /// One mapped row, into `out` ([`FeatureMap::features`] long).
    pub fn transform_row(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        match self {
            FeatureMap::Nystroem(map) => map.transform_row(indices, values, out),
            FeatureMap::Fourier(map) => map.transform_row(indices, values, out),
        }
    }

    /// Follows a grown vocabulary (see [`Nystroem::remap`], [`FourierFeatures::remap`]).
    fn remap(&mut self, columns: &[u32], features: usize) -> Result<()> {
        match self {
            FeatureMap::Nystroem(map) => map.remap(columns, features),
            FeatureMap::Fourier(map) => map.remap(columns, features),
        }
    }

    fn check(&self) -> Result<()> {
        match self {
            FeatureMap::Nystroem(_) => Ok(()),
            FeatureMap::Fourier(map) => map.check(),
        }
    }
}

/// A linear SVM over a kernel approximation's features.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Approximated {
    /// The map from weighted rows to features.
    pub map: FeatureMap,
    /// The SVM over the mapped rows.
    pub svm: LinearSvm,
}

impl Approximated {
    /// Fits the map on `x` with the SVM's seed, then trains the SVM (calibrated when
    /// `calibrate`) on the mapped rows, its reservoir bounded by [`RESERVOIR_VALUES`].
    pub fn train(
        x: &Matrix,
        labels: &[u32],
        classes: usize,
        params: SvmParams,
        approx: &ApproxParams,
        calibrate: bool,
    ) -> Result<Self> {
        let (map, mapped) = FeatureMap::fit_transform(x, approx, params.seed)?;
        let bound = (RESERVOIR_VALUES / map.features().max(1)) as u32;
        let params = SvmParams {
            reservoir: params.reservoir.min(bound),
            ..params
        };
        let svm = match calibrate {
            true => LinearSvm::train_calibrated(&mapped, labels, classes, params)?,
            false => LinearSvm::train(&mapped, labels, classes, params)?,
        };
        Ok(Approximated { map, svm })
    }

    /// The class scores of one weighted row, into `out`.
    pub fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        MAPPED.with_borrow_mut(|(columns, mapped)| {
            let features = self.map.features();
            mapped.resize(features, 0.0);
            self.map.transform_row(indices, values, mapped);
            if columns.len() != features {
                *columns = (0..features as u32).collect();
            }
            self.svm.scores(columns, mapped, out);
        });
    }

    /// The predicted class of every weighted row of `x`: the rows are mapped as one batch (each
    /// Fourier weight drawn once, Nyström's map as matrix products), then scored in parallel,
    /// each from its dense values.
    pub fn predict(&self, x: &Matrix) -> Result<Vec<u32>> {
        use rayon::prelude::*;
        let (features, classes) = (self.map.features(), self.svm.classes());
        let mapped = self.map.transform_dense(x);
        let columns: Vec<u32> = (0..features as u32).collect();
        Ok((0..x.rows())
            .into_par_iter()
            .map(|i| {
                let values = &mapped[i * features..(i + 1) * features];
                let mut scores = vec![0.0; classes];
                self.svm.scores(&columns, values, &mut scores);
                let best =
                    (0..classes).max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a)));
                best.unwrap_or(0) as u32
            })
            .collect())
    }

    /// Learns new weighted rows `x` (in the grown vocabulary whose columns `columns` gives each
    /// old column): the map follows the vocabulary without changing, and the SVM continues on
    /// the mapped rows, whose features are the same as before.
    pub fn update(
        &mut self,
        x: &Matrix,
        labels: &[u32],
        classes: usize,
        columns: &[u32],
    ) -> Result<()> {
        self.map.remap(columns, x.cols())?;
        let mapped = self.map.transform(x)?;
        let same: Vec<u32> = (0..self.map.features() as u32).collect();
        let change = ColumnChange {
            columns: &same,
            rescale: &vec![1.0; same.len()],
            l2: false,
        };
        self.svm.update(&mapped, labels, classes, change)
    }

    /// Checks what a damaged model file could make unusable: the map, the SVM, and that the
    /// SVM takes the map's features.
    pub fn check(&self) -> Result<()> {
        self.map.check()?;
        self.svm.check()?;
        if self.svm.features() != self.map.features() {
            return Err(Error::Config(format!(
                "a linear SVM of {} features over a map of {}",
                self.svm.features(),
                self.map.features()
            )));
        }
        Ok(())
    }

    /// The map and its parameters in words, for `inspect`, after "over".
    pub fn describe_map(&self) -> String {
        let m = self.map.components();
        match &self.map {
            FeatureMap::Nystroem(map) => format!(
                "a Nyström approximation of the rbf kernel (gamma {}), {m} landmarks, {} \
                 features",
                self.map.gamma(),
                map.features()
            ),
            FeatureMap::Fourier(_) => format!(
                "random Fourier features of the rbf kernel (gamma {}), {m} features",
                self.map.gamma()
            ),
        }
    }
}

#[cfg(test)]
mod tests;
