//! The classifier and its parameters: flags shared by `train`, `cv` and `select`, and the
//! builder they describe; and the flags of multi-label training.

use clap::Args;

use super::choice::choice;
use super::AnalysisArgs;
use bowline::jobs::settings::{
    AnalyzerConfig, Approximation, ClassifierFlags, Gamma, KernelFlags, KernelKind, Loss,
    MultiLabelOptions, PriorChoice, Similarity, Smoothing, VocabularyFlags,
};
use bowline::{Builder, Kind, Result};

/// The classifier and its parameters: flags shared by `train`, `cv` and `select`.
#[derive(Debug, Args)]
pub struct ClassifierArgs {
    /// The classifier [default: svm; for select, mnb].
    #[arg(long, value_parser = choice::<Kind>())]
    pub classifier: Option<Kind>,
    /// Naive Bayes smoothing, > 0, or `auto` for mnb: the value from 0.0001 to 1 (half decades)
    /// with the best leave-one-out accuracy on up to 2,000 training documents [default: mnb
    /// auto (multi-label and select: 0.01), cnb 0.1, bnb 0.001].
    #[arg(long, value_name = "ALPHA")]
    pub alpha: Option<Smoothing>,
    /// Naive Bayes class priors.
    #[arg(long, value_parser = choice::<PriorChoice>(), default_value = "learned")]
    pub priors: PriorChoice,
    /// SVM inverse regularization strength, > 0 [default: 3; kernel SVM: 1].
    #[arg(long = "c", value_name = "C")]
    pub c: Option<f64>,
    /// SVM loss [default: squared-hinge].
    #[arg(long, value_parser = choice::<Loss>())]
    pub loss: Option<Loss>,
    /// SVM stopping tolerance on the projected gradient [default: 0.1; kernel SVM: 0.001].
    #[arg(long)]
    pub tolerance: Option<f64>,
    /// SVM passes over the data at most [default: 1000].
    #[arg(long)]
    pub max_iterations: Option<usize>,
    /// SVM: training documents kept in the model (a uniform sample) that `bowline update`
    /// revisits; 0 keeps none [default: 4096].
    #[arg(long, value_name = "DOCS")]
    pub reservoir: Option<u32>,
    /// SVM: fit Platt scaling on a held-out fifth of the training data, so `classify` reports
    /// calibrated probabilities (trains twice).
    #[arg(long)]
    pub calibrate: bool,
    /// k-NN: neighbours that vote, >= 1 [default: 30].
    #[arg(long = "k", value_name = "N")]
    pub k: Option<usize>,
    /// k-NN: how documents are compared [default: cosine].
    #[arg(long, value_parser = choice::<Similarity>())]
    pub similarity: Option<Similarity>,
    /// SVM: train an exact kernel SVM (SMO, one-vs-rest) with this kernel [default: linear SVM].
    #[arg(long, value_parser = choice::<KernelKind>())]
    pub kernel: Option<KernelKind>,
    /// SVM: the linear SVM over this approximation of the rbf kernel (drawn with --seed).
    #[arg(long, value_parser = choice::<Approximation>())]
    pub approx: Option<Approximation>,
    /// --approx: M, its landmarks or Fourier features, 1 to 10000 [default: 100].
    #[arg(long, value_name = "M")]
    pub components: Option<usize>,
    /// Kernel SVM: γ of poly and rbf, > 0, or `scale`, 1 / (features · Var(X)) [default: scale].
    #[arg(long)]
    pub gamma: Option<Gamma>,
    /// Kernel SVM: degree of the poly kernel, >= 1 [default: 3].
    #[arg(long)]
    pub degree: Option<u32>,
    /// Kernel SVM: the constant of the poly kernel [default: 0].
    #[arg(long)]
    pub coef0: Option<f64>,
    /// Kernel SVM: megabytes of kernel values, the whole matrix if it fits, else cached rows,
    /// >= 1 [default: 200].
    #[arg(long, value_name = "MB")]
    pub cache_mb: Option<usize>,
}

/// Flags of multi-label training.
#[derive(Debug, Args)]
pub struct MultiLabelArgs {
    /// Train a multi-label model (one binary problem per label) even if no document has
    /// several labels; with class folders, the same file in several folders is one document
    /// with each folder's label. Without it, a corpus with a document of several labels
    /// (JSONL `labels`, TSV with --label-sep) trains a multi-label model.
    #[arg(long)]
    pub multi_label: bool,
    /// Multi-label: every document gets at least this many labels, the highest-scoring.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub min_labels: u32,
    /// Multi-label: choose each label's threshold by its best F1 over this many folds of the
    /// training data; 0 keeps every threshold at 0 (the classifiers' natural boundary).
    #[arg(long, default_value_t = 5, value_name = "K")]
    pub threshold_folds: usize,
}

impl MultiLabelArgs {
    /// The library's options; `seed` deals the folds.
    pub fn options(&self, seed: u64) -> MultiLabelOptions {
        MultiLabelOptions {
            min_labels: self.min_labels,
            folds: self.threshold_folds,
            seed,
        }
    }
}

impl ClassifierArgs {
    /// The chosen classifier, or `default`.
    pub fn choice(&self, default: Kind) -> Kind {
        self.classifier.unwrap_or(default)
    }

    /// The settings as the library takes them.
    fn flags(&self) -> ClassifierFlags {
        ClassifierFlags {
            alpha: self.alpha,
            priors: self.priors,
            c: self.c,
            loss: self.loss,
            tolerance: self.tolerance,
            max_iterations: self.max_iterations,
            reservoir: self.reservoir,
            calibrate: self.calibrate,
            k: self.k,
            similarity: self.similarity,
            kernel: KernelFlags {
                kind: self.kernel,
                gamma: self.gamma,
                degree: self.degree,
                coef0: self.coef0,
                cache_mb: self.cache_mb,
                approx: self.approx,
                components: self.components,
            },
        }
    }

    /// The builder of `kind` that the flags describe: `analysis` over `base` (the kind's default
    /// analysis, or an index's), `weighting` over the kind's default, with the allocator prepared
    /// for the analysis; `seed` is the SVM's.
    pub fn builder(
        &self,
        kind: Kind,
        (analysis, base): (&AnalysisArgs, &AnalyzerConfig),
        weighting: VocabularyFlags,
        seed: Option<u64>,
    ) -> Result<Builder> {
        let analysis = analysis.flags().config_over(base)?;
        let config = weighting.config_over(&kind.default_vectorizer())?;
        crate::memory::prepare_for(&analysis);
        self.flags().builder(kind, analysis, config, seed)
    }
}
