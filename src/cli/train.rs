//! `bowline train`: a labelled corpus becomes a model file.

use std::path::{Path, PathBuf};

use clap::Args;

use super::log::ReadLog;
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs, VocabularyArgs};
use crate::analyze::{Analyzer, AnalyzerConfig, StopWords};
use crate::error::{Error, Result};
use crate::model::{
    Classifier, Knn, KnnParams, LinearSvm, Loss, Model, NaiveBayes, NbKind, Priors, Similarity,
    SvmParams, TrainingInfo,
};
use crate::vectorize::{
    count_part, counting_config, fit_corpus, weigh_part, DfBound, FittedCorpus, FittedPart, Matrix,
    VectorizerConfig, Weighting,
};

/// The classifiers `train` offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ClassifierChoice {
    /// Multinomial naive Bayes.
    Mnb,
    /// Complement naive Bayes (Rennie et al. 2003, normalized weights).
    Cnb,
    /// Bernoulli naive Bayes.
    Bnb,
    /// Linear SVM, one-vs-rest.
    Svm,
    /// k-nearest neighbours, similarity-weighted vote.
    Knn,
}

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

impl ClassifierChoice {
    /// Each classifier's default analysis, measured on 20 Newsgroups bydate (train → test; the
    /// table is in README.md): stop words help every classifier and stemming none of them;
    /// word bigrams help the SVM and complement NB, which weigh many weak features well. k-NN
    /// loses with bigrams (0.810 to 0.789 at k 30): the many rare pairs add noise to the
    /// similarities and double the postings to walk.
    pub(super) fn analysis(self) -> AnalyzerConfig {
        let ngram_max = match self {
            ClassifierChoice::Svm | ClassifierChoice::Cnb => 2,
            ClassifierChoice::Mnb | ClassifierChoice::Bnb | ClassifierChoice::Knn => 1,
        };
        AnalyzerConfig {
            stop_words: StopWords::Builtin(crate::analyze::Language::English),
            stemmer: None,
            ngram_max,
            ..AnalyzerConfig::default()
        }
    }

    /// Each classifier's default weighting and pruning, measured likewise: sublinear TF-IDF with
    /// L2 rows for all (Bernoulli looks only at presence); dropping terms seen in one document
    /// helps multinomial NB and makes the SVM lighter. Bernoulli gains more from pruning (0.789 with bigrams and min-df 3)
    /// but then falls apart on small corpora, where it keeps almost no terms.
    pub(super) fn vectorizer(self) -> VectorizerConfig {
        let (weighting, min_df) = match self {
            // Pruning terms seen once costs the SVM 0.1 point on 20 Newsgroups (0.8717 to 0.8707)
            // but removes three quarters of its 1.26 million bigram features: training takes
            // about half the time and the model a quarter of the space.
            ClassifierChoice::Svm => (Weighting::default(), 2),
            ClassifierChoice::Mnb => (Weighting::default(), 2),
            ClassifierChoice::Cnb => (Weighting::default(), 1),
            ClassifierChoice::Bnb => (Weighting::default(), 1),
            // k-NN keeps every term: at its default k pruning terms seen once changes nothing
            // (0.8095 to 0.8087), and without pruning an update equals training on the union.
            ClassifierChoice::Knn => (Weighting::default(), 1),
        };
        VectorizerConfig {
            min_df: DfBound::Count(min_df),
            weighting,
            ..VectorizerConfig::default()
        }
    }

    /// Default smoothing, measured likewise.
    pub(super) fn alpha(self) -> f64 {
        match self {
            ClassifierChoice::Mnb => 0.05,
            ClassifierChoice::Cnb => 0.3,
            ClassifierChoice::Bnb => 0.001,
            ClassifierChoice::Svm | ClassifierChoice::Knn => 0.0,
        }
    }

    pub(super) fn kind(self) -> Option<NbKind> {
        match self {
            ClassifierChoice::Mnb => Some(NbKind::Multinomial),
            ClassifierChoice::Cnb => Some(NbKind::Complement),
            ClassifierChoice::Bnb => Some(NbKind::Bernoulli),
            ClassifierChoice::Svm | ClassifierChoice::Knn => None,
        }
    }
}

/// The classifier and its parameters: flags shared by `train`, `cv` and `select`.
#[derive(Debug, Args)]
pub struct ClassifierArgs {
    /// The classifier [default: svm; for select, mnb].
    #[arg(long, value_enum)]
    pub classifier: Option<ClassifierChoice>,
    /// Naive Bayes smoothing, > 0 [default: mnb 0.05, cnb 0.3, bnb 0.001].
    #[arg(long)]
    pub alpha: Option<f64>,
    /// Naive Bayes class priors.
    #[arg(long, value_enum, default_value = "learned")]
    pub priors: PriorChoice,
    /// SVM inverse regularization strength, > 0 [default: 1].
    #[arg(long = "c", value_name = "C")]
    pub c: Option<f64>,
    /// SVM loss [default: squared-hinge].
    #[arg(long, value_enum)]
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

/// Flags of `bowline train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// A labelled corpus: class folders, a .tsv or a .jsonl file, or a corpus index.
    #[arg(required_unless_present = "index")]
    pub corpus: Option<PathBuf>,
    /// Train on the documents of a corpus index (`bowline index`), analyzed as the index
    /// analyzes them unless analysis flags say otherwise.
    #[arg(long, value_name = "DIR", conflicts_with = "corpus")]
    pub index: Option<PathBuf>,
    /// Where to write the model.
    #[arg(short, long, value_name = "MODEL")]
    pub output: PathBuf,
    #[command(flatten)]
    pub model: ClassifierArgs,
    /// SVM seed for the coordinate order and the reservoir's sample [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub weighting: VocabularyArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

const SVM_ONLY: &str =
    "--c, --loss, --tolerance, --max-iterations, --seed, --reservoir and --calibrate are SVM flags";
const KNN_ONLY: &str = "--k and --similarity are k-NN flags";

/// How to train, validated.
#[derive(Debug, Clone)]
pub enum Trainer {
    /// Naive Bayes of a kind, with smoothing and priors.
    NaiveBayes(NbKind, f64, Priors),
    /// A linear SVM, calibrated or not.
    Svm(SvmParams, bool),
    /// k-nearest neighbours, with the vectorizer's weighting, which it applies itself.
    Knn(KnnParams, Weighting),
}

impl Trainer {
    /// Trains on the rows of `x` with class ids `ids` out of `classes`.
    pub fn fit(&self, x: &Matrix, ids: &[u32], classes: usize) -> Result<Classifier> {
        Ok(match self {
            Trainer::NaiveBayes(kind, alpha, priors) => {
                let mut nb = NaiveBayes::new(*kind, *alpha, priors.clone(), classes, x.cols())?;
                nb.add(x, ids);
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
        })
    }

    /// Whether [`Trainer::fit`] takes raw counts rather than weighted rows: k-NN keeps its
    /// training documents as counts and weighs them itself, so that an update can weigh them
    /// again with the new document frequencies.
    pub fn learns_counts(&self) -> bool {
        matches!(self, Trainer::Knn(..))
    }

    /// Rows `rows` of `counted` in `part`'s columns, as [`Trainer::fit`] takes them.
    pub fn rows(
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
}

impl ClassifierArgs {
    /// The chosen classifier, or `default`.
    pub fn choice(&self, default: ClassifierChoice) -> ClassifierChoice {
        self.classifier.unwrap_or(default)
    }

    /// The validated trainer for `choice`; `seed` is the SVM's (the other classifiers take
    /// none, and `train` refuses one with them); `weighting` is the vectorizer's, which k-NN
    /// applies to its training counts.
    pub fn trainer(
        &self,
        choice: ClassifierChoice,
        seed: Option<u64>,
        weighting: Weighting,
    ) -> Result<Trainer> {
        self.refuse_foreign_flags(choice)?;
        let trainer = match (choice, choice.kind()) {
            (_, Some(kind)) => {
                let priors = match self.priors {
                    PriorChoice::Learned => Priors::Learned,
                    PriorChoice::Uniform => Priors::Uniform,
                };
                let alpha = self.alpha.unwrap_or(choice.alpha());
                // Validated here rather than after the corpus has been read.
                NaiveBayes::new(kind, alpha, priors.clone(), 1, 0)?;
                Trainer::NaiveBayes(kind, alpha, priors)
            }
            (ClassifierChoice::Knn, None) => {
                let defaults = KnnParams::default();
                let similarity = match self.similarity {
                    None => defaults.similarity,
                    Some(SimilarityChoice::Cosine) => Similarity::Cosine,
                    Some(SimilarityChoice::Bm25) => Similarity::bm25(),
                };
                let k = self.k.unwrap_or(defaults.k);
                let params = KnnParams { k, similarity };
                params.validate()?;
                Trainer::Knn(params, weighting)
            }
            (_, None) => {
                let defaults = SvmParams::default();
                let params = SvmParams {
                    loss: self.loss.unwrap_or(defaults.loss),
                    c: self.c.unwrap_or(defaults.c),
                    tolerance: self.tolerance.unwrap_or(defaults.tolerance),
                    max_iterations: self.max_iterations.unwrap_or(defaults.max_iterations),
                    seed: seed.unwrap_or(defaults.seed),
                    reservoir: self.reservoir.unwrap_or(defaults.reservoir),
                };
                params.validate()?;
                Trainer::Svm(params, self.calibrate)
            }
        };
        Ok(trainer)
    }

    /// Refuses the flags of the classifiers other than `choice`.
    fn refuse_foreign_flags(&self, choice: ClassifierChoice) -> Result<()> {
        let svm_flags = self.c.is_some()
            || self.loss.is_some()
            || self.tolerance.is_some()
            || self.max_iterations.is_some()
            || self.reservoir.is_some()
            || self.calibrate;
        let knn_flags = self.k.is_some() || self.similarity.is_some();
        if svm_flags && choice != ClassifierChoice::Svm {
            return Err(Error::Config(SVM_ONLY.into()));
        }
        if knn_flags && choice != ClassifierChoice::Knn {
            return Err(Error::Config(KNN_ONLY.into()));
        }
        if self.alpha.is_some() && choice.kind().is_none() {
            return Err(Error::Config("--alpha is a naive Bayes flag".into()));
        }
        Ok(())
    }
}

/// Runs the command.
pub fn run(args: TrainArgs) -> Result<Outcome> {
    let started = std::time::Instant::now();
    let choice = args.model.choice(ClassifierChoice::Svm);
    if args.seed.is_some() && choice != ClassifierChoice::Svm {
        return Err(Error::Config(SVM_ONLY.into()));
    }
    let (corpus, analysis) = source(&args, choice)?;
    let analyzer = Analyzer::new(args.analysis.config_over(&analysis)?)?;
    let config = args.weighting.config_over(&choice.vectorizer())?;
    let trainer = args.model.trainer(choice, args.seed, config.weighting)?;
    let mut read = args.input.options()?;
    if args.index.is_some() {
        read.format = Some(crate::corpus::InputFormat::Index);
    }
    let pipeline = args.runtime.start()?;
    let mut log = ReadLog::new(read.max_doc_bytes);
    // A trainer that learns counts gets the corpus counted, pruned as configured; the model's
    // vectorizer gets the configured weighting back afterwards, for the documents it classifies.
    let fit_config = if trainer.learns_counts() {
        VectorizerConfig {
            weighting: counting_config().weighting,
            ..config.clone()
        }
    } else {
        config.clone()
    };
    let fitted = fit_corpus(corpus, &read, &analyzer, &fit_config, &pipeline, |e| {
        log.note(e)
    })?;
    let ids = fitted.training_ids(corpus, "training")?;
    let classes = fitted.classes.len();
    let mut docs_per_class = vec![0u64; classes];
    ids.iter().for_each(|&c| docs_per_class[c as usize] += 1);
    let terms = fitted.vectorizer.terms().len();
    let classifier = trainer.fit(&fitted.matrix, &ids, classes)?;
    // The training matrix is spent; freeing it before the model is encoded lowers the peak.
    drop(fitted.matrix);
    if let Classifier::Svm(svm) = &classifier {
        report_unconverged(svm, &fitted.classes);
    }
    let name = classifier.name();
    let model = Model {
        vectorizer: fitted.vectorizer.with_weighting(config.weighting)?,
        labels: fitted.classes,
        classifier,
        info: TrainingInfo::now(vec![corpus.display().to_string()], docs_per_class),
    };
    model.save(&args.output)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
        eprintln!(
            "bowline: trained {name} on {} documents, {classes} classes, {terms} terms in {:.2} s -> {}",
            ids.len(),
            started.elapsed().as_secs_f64(),
            args.output.display()
        );
    }
    Ok(log.outcome())
}

/// What to train on, and the analysis to start from: a corpus index with its own analysis, or a
/// corpus with the classifier's default analysis.
fn source(args: &TrainArgs, choice: ClassifierChoice) -> Result<(&Path, AnalyzerConfig)> {
    match (&args.index, &args.corpus) {
        (Some(dir), _) => Ok((dir, crate::index::analysis(dir)?)),
        (None, Some(path)) => Ok((path, choice.analysis())),
        (None, None) => Err(Error::Config("give a CORPUS or --index DIR".into())),
    }
}

/// Reports the classes whose SVM stopped at the iteration cap.
pub(super) fn report_unconverged(svm: &LinearSvm, classes: &[String]) {
    for (binary, class) in svm.convergence().iter().zip(classes) {
        if !binary.converged {
            eprintln!(
                "bowline: warning: class '{class}': SVM stopped at the iteration cap ({}) before \
                 reaching the tolerance; raise --max-iterations or --tolerance",
                binary.iterations
            );
        }
    }
}
