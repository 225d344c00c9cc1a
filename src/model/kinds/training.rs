//! How each kind is trained: its parameters, its validated [`Trainer`], and the values tuning
//! tries.

use super::Kind;
use crate::error::{Error, Result};
use crate::model::kernel_svm::{Gamma, Kernel, KernelKind};
use crate::model::multilabel::{BinaryNb, LabelSets, MultiLabel, MultiLabelClassifier, PerLabel};
use crate::model::naive_bayes::loo::sampled;
use crate::model::{
    ApproxParams, Approximated, Classifier, KernelSvm, KernelSvmParams, Knn, KnnParams, LinearSvm,
    NaiveBayes, NbKind, Priors, Smoothing, SvmParams,
};
use crate::vectorize::{count_part, weigh_part, FittedCorpus, FittedPart, Matrix, Weighting};

impl Kind {
    /// The kind's trainer with its default parameters; `weighting` is the vectorizer's, which
    /// k-NN applies to its training counts itself.
    pub(crate) fn default_trainer(self, weighting: Weighting) -> Trainer {
        self.build(&Params::default(), weighting)
    }

    /// The kind's trainer with `params` (each kind reads its own), validated; `weighting` is the
    /// vectorizer's, which k-NN applies to its training counts itself.
    pub fn trainer(self, params: &Params, weighting: Weighting) -> Result<Trainer> {
        let trainer = self.build(params, weighting);
        match &trainer {
            Trainer::NaiveBayes(kind, smoothing, priors) => {
                if *smoothing == Smoothing::Auto && *kind != NbKind::Multinomial {
                    return Err(Error::Config(
                        "--alpha auto is for mnb; give cnb and bnb a number".into(),
                    ));
                }
                NaiveBayes::new(*kind, smoothing.value(), priors.clone(), 1, 0)?;
            }
            Trainer::Svm(svm, _) => svm.validate()?,
            Trainer::KernelSvm(svm, _) => svm.validate()?,
            Trainer::Knn(knn, _) => knn.validate()?,
            Trainer::Approximated(svm, approx, _) => {
                svm.validate()?;
                approx.validate()?;
            }
        }
        Ok(trainer)
    }

    fn build(self, params: &Params, weighting: Weighting) -> Trainer {
        match self.naive_bayes() {
            Some(nb) => {
                let alpha = params.alpha.unwrap_or(self.default_alpha());
                Trainer::NaiveBayes(nb, alpha, params.priors.clone())
            }
            None if self == Kind::Knn => Trainer::Knn(params.knn, weighting),
            None => match (params.kernel, params.approx) {
                (Some(kernel), _) => Trainer::KernelSvm(kernel, params.calibrate),
                (None, Some(approx)) => Trainer::Approximated(params.svm, approx, params.calibrate),
                (None, None) => Trainer::Svm(params.svm, params.calibrate),
            },
        }
    }

    /// The parameters tuning tries for this kind (`train --tune`).
    pub(crate) fn tuning_grid(self) -> Vec<Params> {
        let defaults = Params::default();
        match self {
            Kind::Svm => [0.1, 0.3, 1.0, 3.0, 10.0]
                .map(|c| Params {
                    svm: SvmParams { c, ..defaults.svm },
                    ..defaults.clone()
                })
                .to_vec(),
            Kind::Knn => [5, 10, 30, 50]
                .map(|k| Params {
                    knn: KnnParams { k, ..defaults.knn },
                    ..defaults.clone()
                })
                .to_vec(),
            // Multinomial NB chooses its smoothing itself, by leave-one-out on each trial's
            // training documents, from a wider range than the list below.
            Kind::Mnb => vec![Params {
                alpha: Some(Smoothing::Auto),
                ..defaults
            }],
            Kind::Cnb | Kind::Bnb => [0.01, 0.03, 0.1, 0.3, 1.0]
                .map(|alpha| Params {
                    alpha: Some(Smoothing::Fixed(alpha)),
                    ..defaults.clone()
                })
                .to_vec(),
        }
    }
}

/// The kernels, γ and C that tuning tries for an exact kernel SVM (`train --kernel K --tune`),
/// each with `base`'s solver settings (tolerance, cache, shrinking): the linear kernel, RBF and
/// the quadratic kernel (γ·x·z + 1)². The vectorizer's rows have unit length, so their squared
/// distances lie in [0, 2] and γ = `scale` comes to about 1 on them; the values of γ span a
/// decade below it, where an RBF kernel on such rows is nearly linear, to three times it, where
/// each row's kernel values fall to e^-6 across that range and the decision becomes local.
fn kernel_tuning_grid(base: &KernelSvmParams) -> Vec<Params> {
    let with_gamma = |kind, gamma| Kernel {
        gamma: Gamma::Value(gamma),
        ..Kernel::new(kind)
    };
    let quadratic = |gamma| Kernel {
        degree: 2,
        coef0: 1.0,
        ..with_gamma(KernelKind::Poly, gamma)
    };
    let linear = [0.1, 1.0, 10.0].map(|c| (Kernel::new(KernelKind::Linear), c));
    let rbf = [0.1, 0.3, 1.0, 3.0].map(|g| with_gamma(KernelKind::Rbf, g));
    let curved = rbf.into_iter().chain([0.3, 1.0].map(quadratic));
    let curved = curved.flat_map(|kernel| [1.0, 10.0].map(|c| (kernel, c)));
    linear
        .into_iter()
        .chain(curved)
        .map(|(kernel, c)| Params {
            kernel: Some(KernelSvmParams { kernel, c, ..*base }),
            ..Params::default()
        })
        .collect()
}

/// Every kind's parameters, each at its default until set; a kind reads only its own.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Params {
    /// Naive Bayes smoothing; `None` takes the kind's default.
    pub alpha: Option<Smoothing>,
    /// Naive Bayes class priors.
    pub priors: Priors,
    /// The SVM's parameters.
    pub svm: SvmParams,
    /// The SVM: fit Platt scaling on a held-out fifth of the training data, so that its
    /// probabilities are calibrated (trains twice).
    pub calibrate: bool,
    /// k-NN's parameters.
    pub knn: KnnParams,
    /// The SVM: an exact kernel SVM with these parameters (C among them) instead of the linear
    /// SVM.
    pub kernel: Option<KernelSvmParams>,
    /// The SVM: the linear SVM over this approximation of the RBF kernel, drawn with the SVM's
    /// seed (ignored with `kernel`).
    pub approx: Option<ApproxParams>,
}

/// How to train, validated.
#[derive(Debug, Clone, PartialEq)]
pub enum Trainer {
    /// Naive Bayes of a kind, with smoothing and priors.
    NaiveBayes(NbKind, Smoothing, Priors),
    /// A linear SVM, calibrated or not.
    Svm(SvmParams, bool),
    /// k-nearest neighbours, with the vectorizer's weighting, which it applies itself.
    Knn(KnnParams, Weighting),
    /// An exact kernel SVM, calibrated or not. (Last, so that the variants before it keep
    /// their numbers.)
    KernelSvm(KernelSvmParams, bool),
    /// A linear SVM over a kernel approximation, calibrated or not. (Last, so that the variants
    /// before it keep their numbers.)
    Approximated(SvmParams, ApproxParams, bool),
}

impl Trainer {
    /// Trains on the rows of `x` with class ids `ids` out of `classes`, every feature a column
    /// of `x`.
    pub fn fit(&self, x: &Matrix, ids: &[u32], classes: usize) -> Result<Classifier> {
        self.fit_in(x, ids, classes, x.cols())
    }

    /// [`Trainer::fit`] where the features are `space`, of which `x` has the columns that occur
    /// (the vectorizer's [`space`](crate::vectorize::FittedVectorizer::space)): naive Bayes'
    /// smoothing counts them all.
    pub fn fit_in(
        &self,
        x: &Matrix,
        ids: &[u32],
        classes: usize,
        space: usize,
    ) -> Result<Classifier> {
        Ok(match self {
            Trainer::NaiveBayes(kind, smoothing, priors) => {
                let alpha = smoothing.value();
                let mut nb = NaiveBayes::new(*kind, alpha, priors.clone(), classes, x.cols())?;
                nb.set_space(space);
                nb.add(x, ids);
                if *smoothing == Smoothing::Auto {
                    let rows: Vec<usize> = sampled(ids.len()).collect();
                    nb.set_alpha(nb.choose_alpha(x, ids, &rows)?.alpha);
                }
                Classifier::NaiveBayes(nb)
            }
            Trainer::Svm(params, calibrate) => {
                let train = if *calibrate {
                    LinearSvm::train_calibrated
                } else {
                    LinearSvm::train
                };
                Classifier::Svm(train(x, ids, classes, *params)?)
            }
            Trainer::Knn(params, weighting) => {
                Classifier::Knn(Knn::train(x, ids, classes, *weighting, *params)?)
            }
            Trainer::KernelSvm(params, calibrate) => {
                let train = if *calibrate {
                    KernelSvm::train_calibrated
                } else {
                    KernelSvm::train
                };
                Classifier::KernelSvm(Box::new(train(x, ids, classes, params)?))
            }
            Trainer::Approximated(params, approx, calibrate) => Classifier::Approximated(Box::new(
                Approximated::train(x, ids, classes, *params, approx, *calibrate)?,
            )),
        })
    }

    /// Trains a binary problem per label on rows with label sets `sets` out of `labels`
    /// labels (binary relevance), with every threshold at the natural boundary and at least
    /// `min_labels` labels per document. k-NN and complement naive Bayes have no such form.
    pub(crate) fn fit_sets(
        &self,
        x: &Matrix,
        sets: &LabelSets,
        labels: usize,
        min_labels: u32,
        space: usize,
    ) -> Result<Classifier> {
        Ok(Classifier::MultiLabel(Box::new(MultiLabelClassifier {
            scorer: self.fit_per_label(x, sets, labels, space)?,
            decision: MultiLabel::untuned(labels, min_labels),
        })))
    }

    /// The binary scorers of [`Trainer::fit_sets`], without a decision on their scores; naive
    /// Bayes' smoothing counts `space` features (see [`Trainer::fit_in`]).
    pub(crate) fn fit_per_label(
        &self,
        x: &Matrix,
        sets: &LabelSets,
        labels: usize,
        space: usize,
    ) -> Result<PerLabel> {
        Ok(match self {
            Trainer::NaiveBayes(kind, smoothing, _) => {
                let mut nb = BinaryNb::new(*kind, smoothing.value(), labels, x.cols())?;
                nb.set_space(space);
                nb.add(x, sets);
                PerLabel::NaiveBayes(Box::new(nb))
            }
            Trainer::Svm(params, _) => {
                PerLabel::Svm(LinearSvm::train_sets(x, sets, labels, *params)?)
            }
            Trainer::Knn(..) => {
                return Err(Error::Config(
                    "k-NN has no multi-label form; use svm, mnb, cnb or bnb".into(),
                ))
            }
            Trainer::KernelSvm(..) => {
                return Err(Error::Config(
                    "the kernel SVM has no multi-label form; use the linear SVM (without \
                     --kernel), mnb or bnb"
                        .into(),
                ))
            }
            Trainer::Approximated(..) => {
                return Err(Error::Config(
                    "--approx has no multi-label form; use the linear SVM (without --approx), \
                     mnb or bnb"
                        .into(),
                ))
            }
        })
    }

    /// The kind this trainer trains.
    pub fn kind(&self) -> Kind {
        match self {
            Trainer::NaiveBayes(kind, ..) => kind.kind(),
            Trainer::Svm(..) | Trainer::KernelSvm(..) | Trainer::Approximated(..) => Kind::Svm,
            Trainer::Knn(..) => Kind::Knn,
        }
    }

    /// The same trainer, with k-NN applying `weighting` to its training counts (the other kinds
    /// are trained on rows already weighted).
    pub(crate) fn with_weighting(self, weighting: Weighting) -> Self {
        match self {
            Trainer::Knn(params, _) => Trainer::Knn(params, weighting),
            other => other,
        }
    }

    /// The same trainer, with multinomial NB's smoothing fixed at 0.01 if it was to be chosen:
    /// for a caller that needs one smoothing throughout.
    pub fn with_fixed_smoothing(self) -> Self {
        match self {
            Trainer::NaiveBayes(kind, Smoothing::Auto, priors) => {
                Trainer::NaiveBayes(kind, Smoothing::Fixed(Smoothing::FALLBACK), priors)
            }
            other => other,
        }
    }

    /// The naive Bayes event model and smoothing of a naive Bayes trainer.
    pub fn naive_bayes(&self) -> Option<(NbKind, Smoothing)> {
        self.naive_bayes_settings()
            .map(|(kind, alpha, _)| (kind, alpha))
    }

    /// The event model, smoothing and priors of a naive Bayes trainer, for a caller that
    /// trains it by other means (reading a corpus twice).
    pub(crate) fn naive_bayes_settings(&self) -> Option<(NbKind, Smoothing, &Priors)> {
        match self {
            Trainer::NaiveBayes(kind, alpha, priors) => Some((*kind, *alpha, priors)),
            _ => None,
        }
    }

    /// The parameters of an SVM trainer and whether it calibrates, for a caller that trains the
    /// SVM by other means (held-out folds for multi-label thresholds, CoCoA+ on a cluster).
    pub(crate) fn svm(&self) -> Option<(SvmParams, bool)> {
        match self {
            Trainer::Svm(params, calibrate) => Some((*params, *calibrate)),
            _ => None,
        }
    }

    /// The parameters of a kernel SVM trainer.
    pub fn kernel_svm(&self) -> Option<&KernelSvmParams> {
        match self {
            Trainer::KernelSvm(params, _) => Some(params),
            _ => None,
        }
    }

    /// The approximation of an approximated SVM trainer.
    pub fn approximated(&self) -> Option<&ApproxParams> {
        match self {
            Trainer::Approximated(_, approx, _) => Some(approx),
            _ => None,
        }
    }

    /// The linear SVM trainer made one over the approximation `approx`, keeping its
    /// parameters; `None` for the kinds that are not the linear SVM.
    pub(crate) fn with_approx(&self, approx: ApproxParams) -> Option<Trainer> {
        match self {
            Trainer::Svm(svm, calibrate) | Trainer::Approximated(svm, _, calibrate) => {
                Some(Trainer::Approximated(*svm, approx, *calibrate))
            }
            _ => None,
        }
    }

    /// The SVM trainer made a kernel SVM of `params`, keeping whether it calibrates; `None` for
    /// the kinds that are not the SVM.
    pub(crate) fn with_kernel(&self, params: KernelSvmParams) -> Option<Trainer> {
        match self {
            Trainer::Svm(_, calibrate) | Trainer::KernelSvm(_, calibrate) => {
                Some(Trainer::KernelSvm(params, *calibrate))
            }
            _ => None,
        }
    }

    /// Whether [`Trainer::fit`] takes raw counts rather than weighted rows: k-NN keeps its
    /// training documents as counts and weighs them itself, so that an update can weigh them
    /// again with the new document frequencies.
    pub(crate) fn learns_counts(&self) -> bool {
        matches!(self, Trainer::Knn(..))
    }

    /// Rows `rows` of `counted` in `part`'s columns, as [`Trainer::fit`] takes them.
    pub(crate) fn rows(
        &self,
        counted: &FittedCorpus,
        part: &FittedPart,
        rows: &[usize],
    ) -> Result<Matrix> {
        if self.learns_counts() {
            count_part(counted, part, rows)
        } else {
            weigh_part(counted, part, rows)
        }
    }

    /// The parameters tuning tries for this trainer: its kind's (see [`Kind::tuning_grid`]), or
    /// for an exact kernel SVM, kernels, γ and C.
    pub(crate) fn tuning_grid(&self) -> Vec<Params> {
        match self {
            Trainer::KernelSvm(params, _) => kernel_tuning_grid(params),
            _ => self.kind().tuning_grid(),
        }
    }

    /// The flag of `bowline train` that sets the parameter tuning varies, with its value.
    pub(crate) fn parameter_flag(&self) -> String {
        match self {
            Trainer::NaiveBayes(_, alpha, _) => format!("--alpha {alpha}"),
            Trainer::Svm(svm, _) => format!("--c {}", svm.c),
            Trainer::Knn(knn, _) => format!("--k {}", knn.k),
            Trainer::KernelSvm(svm, _) => format!("{} --c {}", svm.kernel.flags(), svm.c),
            Trainer::Approximated(svm, ..) => format!("--c {}", svm.c),
        }
    }

    /// The naive Bayes that orders features for greedy selection, which scores multinomial or
    /// Bernoulli NB: this trainer's own event model and smoothing when it is one of those (then
    /// `true`: the selection's scores are this classifier's), else multinomial NB's defaults.
    pub(crate) fn selection_model(&self) -> (NbKind, f64, bool) {
        match self {
            Trainer::NaiveBayes(kind @ (NbKind::Multinomial | NbKind::Bernoulli), alpha, _) => {
                (*kind, alpha.value(), true)
            }
            _ => (
                NbKind::Multinomial,
                Kind::Mnb.default_alpha().value(),
                false,
            ),
        }
    }
}
