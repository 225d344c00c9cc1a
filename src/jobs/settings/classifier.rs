//! The classifier's settings as given, and the builder they make with an analysis and a
//! weighting.

use crate::analyze::AnalyzerConfig;
use crate::choice::Choice;
use crate::classifier::Builder;
use crate::error::{Error, Result};
use crate::model::{
    Kind, KnnParams, Loss, Params, Priors, Similarity, Smoothing, SvmParams, Trainer,
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
