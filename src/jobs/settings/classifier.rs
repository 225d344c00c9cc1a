//! The classifier's settings as given, and the builder they make with an analysis and a
//! weighting.

use crate::analyze::AnalyzerConfig;
use crate::choice::Choice;
use crate::classifier::Builder;
use crate::error::{Error, Result};
use crate::model::kernel_svm::{Gamma, Kernel, KernelKind};
use crate::model::{
    ApproxParams, Approximation, KernelSvmParams, Kind, KnnParams, Loss, Params, Priors,
    Similarity, Smoothing, SvmParams, Trainer,
};
use crate::vectorize::{VectorizerConfig, Weighting};

/// The error for an SVM setting given with another classifier.
pub const SVM_ONLY: &str =
    "--c, --loss, --tolerance, --max-iterations, --seed, --reservoir and --calibrate are SVM flags";
/// The error for a k-NN setting given with another classifier.
const KNN_ONLY: &str = "--k and --similarity are k-NN flags";

/// Naive Bayes class priors as a user chooses them by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PriorChoice {
    /// Proportional to the training documents per class.
    #[default]
    Learned,
    /// Equal for every class.
    Uniform,
}

impl Choice for PriorChoice {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        (
            "learned",
            "Proportional to the training documents per class",
            PriorChoice::Learned,
        ),
        ("uniform", "Equal for every class", PriorChoice::Uniform),
    ];
}

impl From<PriorChoice> for Priors {
    fn from(choice: PriorChoice) -> Self {
        match choice {
            PriorChoice::Learned => Priors::Learned,
            PriorChoice::Uniform => Priors::Uniform,
        }
    }
}

/// The classifier's parameters as a user gives them; unset ones take the kind's defaults, and
/// those of another kind than the one trained are refused.
#[derive(Debug, Clone, Default)]
pub struct ClassifierFlags {
    /// Naive Bayes smoothing.
    pub alpha: Option<Smoothing>,
    /// Naive Bayes class priors.
    pub priors: PriorChoice,
    /// SVM inverse regularization strength.
    pub c: Option<f64>,
    /// SVM loss.
    pub loss: Option<Loss>,
    /// SVM stopping tolerance on the projected gradient.
    pub tolerance: Option<f64>,
    /// SVM passes over the data at most.
    pub max_iterations: Option<usize>,
    /// SVM: training documents kept in the model for updates.
    pub reservoir: Option<u32>,
    /// SVM: fit Platt scaling on a held-out fifth of the training data.
    pub calibrate: bool,
    /// k-NN: neighbours that vote.
    pub k: Option<usize>,
    /// k-NN: how documents are compared.
    pub similarity: Option<Similarity>,
    /// The SVM: an exact kernel SVM's settings instead of the linear SVM.
    pub kernel: KernelFlags,
}

/// The kernel SVM's settings as given: no kernel trains the linear SVM, and the other settings
/// need a kernel.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct KernelFlags {
    /// The kernel.
    pub kind: Option<KernelKind>,
    /// γ of the poly and rbf kernels.
    pub gamma: Option<Gamma>,
    /// Degree of the poly kernel.
    pub degree: Option<u32>,
    /// The constant of the poly kernel.
    pub coef0: Option<f64>,
    /// Megabytes for kernel values: the whole kernel matrix when it fits, else cached rows.
    pub cache_mb: Option<usize>,
    /// The linear SVM over this approximation of the RBF kernel, instead of a kernel SVM.
    pub approx: Option<Approximation>,
    /// The approximation's M.
    pub components: Option<usize>,
}

impl KernelFlags {
    /// The kernel SVM's parameters with C `c` and the solver's tolerance `tolerance` (the kernel
    /// SVM's defaults, scikit-learn's `SVC`'s, when unset), or `None` without a kernel; each flag
    /// out of range is refused by name.
    fn params(&self, c: Option<f64>, tolerance: Option<f64>) -> Result<Option<KernelSvmParams>> {
        let Some(kind) = self.kind else {
            let given = (self.gamma.is_some() && self.approx.is_none())
                || self.degree.is_some()
                || self.coef0.is_some()
                || self.cache_mb.is_some();
            return match given {
                true => Err(Error::Config(
                    "--gamma, --degree, --coef0 and --cache-mb are kernel SVM flags: give --kernel \
                     (or --approx, for --gamma)"
                        .into(),
                )),
                false => Ok(None),
            };
        };
        if self.approx.is_some() {
            return Err(Error::Config(
                "--approx and --kernel exclude each other: --approx trains the linear SVM over an \
                 approximation of the rbf kernel, --kernel an exact kernel SVM"
                    .into(),
            ));
        }
        let defaults = KernelSvmParams::default();
        let base = Kernel::new(kind);
        let cache_bytes = match self.cache_mb {
            None => Some(defaults.cache_bytes),
            Some(0) => None,
            Some(mb) => mb.checked_mul(1 << 20),
        };
        let cache_bytes = cache_bytes.ok_or_else(|| {
            Error::Config("--cache-mb must be at least 1 and fit in memory's addresses".into())
        })?;
        let params = KernelSvmParams {
            kernel: Kernel {
                kind,
                gamma: self.gamma.unwrap_or(base.gamma),
                degree: self.degree.unwrap_or(base.degree),
                coef0: self.coef0.unwrap_or(base.coef0),
            },
            c: c.unwrap_or(defaults.c),
            tolerance: tolerance.unwrap_or(defaults.tolerance),
            cache_bytes,
            shrinking: defaults.shrinking,
        };
        params.validate()?;
        Ok(Some(params))
    }
}

impl KernelFlags {
    /// The approximation's parameters, or `None` without `--approx`; `--components` needs it.
    fn approx_params(&self) -> Result<Option<ApproxParams>> {
        let Some(approximation) = self.approx else {
            return match self.components {
                Some(_) => Err(Error::Config(
                    "--components is an --approx flag: give --approx nystroem or rff".into(),
                )),
                None => Ok(None),
            };
        };
        let base = ApproxParams::new(approximation);
        let params = ApproxParams {
            components: self.components.unwrap_or(base.components),
            gamma: self.gamma.unwrap_or(base.gamma),
            ..base
        };
        params.validate()?;
        Ok(Some(params))
    }
}

impl ClassifierFlags {
    /// The validated trainer of `kind`; `seed` is the SVM's (the other classifiers take none);
    /// `weighting` is the vectorizer's, which k-NN applies to its training counts.
    pub fn trainer(&self, kind: Kind, seed: Option<u64>, weighting: Weighting) -> Result<Trainer> {
        self.refuse_foreign(kind)?;
        let (svm, knn) = (SvmParams::default(), KnnParams::default());
        let params = Params {
            alpha: self.alpha,
            priors: self.priors.into(),
            svm: SvmParams {
                loss: self.loss.unwrap_or(svm.loss),
                c: self.c.unwrap_or(svm.c),
                tolerance: self.tolerance.unwrap_or(svm.tolerance),
                max_iterations: self.max_iterations.unwrap_or(svm.max_iterations),
                seed: seed.unwrap_or(svm.seed),
                reservoir: self.reservoir.unwrap_or(svm.reservoir),
            },
            calibrate: self.calibrate,
            knn: KnnParams {
                k: self.k.unwrap_or(knn.k),
                similarity: self.similarity.unwrap_or(knn.similarity),
            },
            kernel: (self.kernel).params(self.c, self.tolerance)?,
            approx: self.kernel.approx_params()?,
        };
        kind.trainer(&params, weighting)
    }

    /// The builder of `kind` over `analysis` and `vectorizer`; `seed` is the SVM's.
    pub fn builder(
        &self,
        kind: Kind,
        analysis: AnalyzerConfig,
        vectorizer: VectorizerConfig,
        seed: Option<u64>,
    ) -> Result<Builder> {
        if kind == Kind::Knn && vectorizer.ngram_weight != 1.0 {
            return Err(Error::Config(
                "--ngram-weight does not apply to knn, which weighs its rows itself".into(),
            ));
        }
        let trainer = self.trainer(kind, seed, vectorizer.weighting)?;
        Ok(Builder::new(kind)
            .analysis(analysis)
            .vectorizer(vectorizer)
            .trainer(trainer))
    }

    /// Refuses the settings of the classifiers other than `kind`.
    fn refuse_foreign(&self, kind: Kind) -> Result<()> {
        let svm_flags = self.c.is_some()
            || self.loss.is_some()
            || self.tolerance.is_some()
            || self.max_iterations.is_some()
            || self.reservoir.is_some()
            || self.calibrate;
        let knn_flags = self.k.is_some() || self.similarity.is_some();
        if self.kernel != KernelFlags::default() && kind != Kind::Svm {
            return Err(Error::Config(
                "--kernel, --gamma, --degree, --coef0, --cache-mb, --approx and --components are \
                 SVM flags"
                    .into(),
            ));
        }
        let linear_only =
            self.loss.is_some() || self.max_iterations.is_some() || self.reservoir.is_some();
        if self.kernel.kind.is_some() && linear_only {
            return Err(Error::Config(
                "--loss, --max-iterations and --reservoir are the linear SVM's; the kernel SVM \
                 (--kernel) takes --c, --tolerance, --calibrate and the kernel's flags"
                    .into(),
            ));
        }
        if svm_flags && kind != Kind::Svm {
            return Err(Error::Config(SVM_ONLY.into()));
        }
        if knn_flags && kind != Kind::Knn {
            return Err(Error::Config(KNN_ONLY.into()));
        }
        if self.alpha.is_some() && kind.naive_bayes().is_none() {
            return Err(Error::Config("--alpha is a naive Bayes flag".into()));
        }
        Ok(())
    }
}
