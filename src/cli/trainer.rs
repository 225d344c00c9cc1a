//! The classifier and its parameters: flags shared by `train`, `cv` and `select`, and the
//! builder they describe; and the flags of multi-label training.

use clap::Args;

use super::choice::choice;
use bowline::analyze::AnalyzerConfig;
use bowline::classifier::MultiLabelOptions;
use bowline::model::{
    Kind, KnnParams, Loss, Params, Priors, Similarity, Smoothing, SvmParams, Trainer,
};
use bowline::vectorize::{VectorizerConfig, Weighting};
use bowline::{Builder, Error, Result};

/// Similarity choices for k-NN.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SimilarityChoice {
    /// Cosine of the TF-IDF vectors.
    Cosine,
    /// Okapi BM25 (k1 1.2, b 0.75).
    Bm25,
}

/// Prior choices for naive Bayes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PriorChoice {
    /// Proportional to the training documents per class.
    Learned,
    /// Equal for every class.
    Uniform,
}

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
    #[arg(long, value_enum, default_value = "learned")]
    pub priors: PriorChoice,
    /// SVM inverse regularization strength, > 0 [default: 3].
    #[arg(long = "c", value_name = "C")]
    pub c: Option<f64>,
    /// SVM loss [default: squared-hinge].
    #[arg(long, value_parser = choice::<Loss>())]
    pub loss: Option<Loss>,
    /// SVM stopping tolerance on the projected gradient [default: 0.1].
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
    #[arg(long, value_enum)]
    pub similarity: Option<SimilarityChoice>,
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

/// The error for an SVM flag given with another classifier.
pub const SVM_ONLY: &str =
    "--c, --loss, --tolerance, --max-iterations, --seed, --reservoir and --calibrate are SVM flags";
/// The error for a k-NN flag given with another classifier.
const KNN_ONLY: &str = "--k and --similarity are k-NN flags";

impl ClassifierArgs {
    /// The chosen classifier, or `default`.
    pub fn choice(&self, default: Kind) -> Kind {
        self.classifier.unwrap_or(default)
    }

    /// The validated trainer for `choice`; `seed` is the SVM's (the other classifiers take
    /// none, and `train` refuses one with them); `weighting` is the vectorizer's, which k-NN
    /// applies to its training counts.
    pub fn trainer(
        &self,
        choice: Kind,
        seed: Option<u64>,
        weighting: Weighting,
    ) -> Result<Trainer> {
        self.refuse_foreign_flags(choice)?;
        let (svm, knn) = (SvmParams::default(), KnnParams::default());
        let params = Params {
            alpha: self.alpha,
            priors: match self.priors {
                PriorChoice::Learned => Priors::Learned,
                PriorChoice::Uniform => Priors::Uniform,
            },
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
                similarity: match self.similarity {
                    None => knn.similarity,
                    Some(SimilarityChoice::Cosine) => Similarity::Cosine,
                    Some(SimilarityChoice::Bm25) => Similarity::bm25(),
                },
            },
        };
        choice.trainer(&params, weighting)
    }

    /// The builder of `kind` that the flags describe, over `analysis` and `vectorizer` (read from
    /// their own flags), with the allocator prepared for the analysis; `seed` is the SVM's.
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
        super::memory::prepare_for(&analysis);
        Ok(Builder::new(kind)
            .analysis(analysis)
            .vectorizer(vectorizer)
            .trainer(trainer))
    }

    /// Refuses the flags of the classifiers other than `choice`.
    fn refuse_foreign_flags(&self, choice: Kind) -> Result<()> {
        let svm_flags = self.c.is_some()
            || self.loss.is_some()
            || self.tolerance.is_some()
            || self.max_iterations.is_some()
            || self.reservoir.is_some()
            || self.calibrate;
        let knn_flags = self.k.is_some() || self.similarity.is_some();
        if svm_flags && choice != Kind::Svm {
            return Err(Error::Config(SVM_ONLY.into()));
        }
        if knn_flags && choice != Kind::Knn {
            return Err(Error::Config(KNN_ONLY.into()));
        }
        if self.alpha.is_some() && choice.naive_bayes().is_none() {
            return Err(Error::Config("--alpha is a naive Bayes flag".into()));
        }
        Ok(())
    }
}
