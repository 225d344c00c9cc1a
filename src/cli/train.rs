//! `bowline train`: a labelled corpus becomes a model file.

use std::path::PathBuf;

use clap::Args;

use super::log::ReadLog;
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs, VocabularyArgs};
use crate::analyze::{Analyzer, AnalyzerConfig, StopWords};
use crate::error::{Error, Result};
use crate::model::{
    Classifier, LinearSvm, Loss, Model, NaiveBayes, NbKind, Priors, SvmParams, TrainingInfo,
};
use crate::vectorize::{fit_corpus, DfBound, Matrix, VectorizerConfig, Weighting};

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
    /// word bigrams help the SVM and complement NB, which weigh many weak features well.
    pub(super) fn analysis(self) -> AnalyzerConfig {
        let ngram_max = match self {
            ClassifierChoice::Svm | ClassifierChoice::Cnb => 2,
            ClassifierChoice::Mnb | ClassifierChoice::Bnb => 1,
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
            ClassifierChoice::Svm => 0.0,
        }
    }

    pub(super) fn kind(self) -> Option<NbKind> {
        match self {
            ClassifierChoice::Mnb => Some(NbKind::Multinomial),
            ClassifierChoice::Cnb => Some(NbKind::Complement),
            ClassifierChoice::Bnb => Some(NbKind::Bernoulli),
            ClassifierChoice::Svm => None,
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

/// How to train, validated.
#[derive(Debug, Clone)]
pub enum Trainer {
    /// Naive Bayes of a kind, with smoothing and priors.
    NaiveBayes(NbKind, f64, Priors),
    /// A linear SVM, calibrated or not.
    Svm(SvmParams, bool),
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
        })
    }
}

impl ClassifierArgs {
    /// The chosen classifier, or `default`.
    pub fn choice(&self, default: ClassifierChoice) -> ClassifierChoice {
        self.classifier.unwrap_or(default)
    }

    /// The validated trainer for `choice`; `seed` is the SVM's (a naive Bayes model takes none,
    /// and `train` refuses one with it).
    pub fn trainer(&self, choice: ClassifierChoice, seed: Option<u64>) -> Result<Trainer> {
        match choice.kind() {
            Some(kind) => {
                let svm_flags = self.c.is_some()
                    || self.loss.is_some()
                    || self.tolerance.is_some()
                    || self.max_iterations.is_some()
                    || self.reservoir.is_some()
                    || self.calibrate;
                if svm_flags {
                    return Err(Error::Config(SVM_ONLY.into()));
                }
                let priors = match self.priors {
                    PriorChoice::Learned => Priors::Learned,
                    PriorChoice::Uniform => Priors::Uniform,
                };
                let alpha = self.alpha.unwrap_or(choice.alpha());
                // Validated here rather than after the corpus has been read.
                NaiveBayes::new(kind, alpha, priors.clone(), 1, 0)?;
                Ok(Trainer::NaiveBayes(kind, alpha, priors))
            }
            None => {
                if self.alpha.is_some() {
                    return Err(Error::Config("--alpha is a naive Bayes flag".into()));
                }
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
                Ok(Trainer::Svm(params, self.calibrate))
            }
        }
    }
}

/// Runs the command.
pub fn run(args: TrainArgs) -> Result<Outcome> {
    let started = std::time::Instant::now();
    let choice = args.model.choice(ClassifierChoice::Svm);
    if args.seed.is_some() && choice.kind().is_some() {
        return Err(Error::Config(SVM_ONLY.into()));
    }
    let trainer = args.model.trainer(choice, args.seed)?;
    let (corpus, analysis) = match (&args.index, &args.corpus) {
        (Some(dir), _) => (dir, crate::index::analysis(dir)?),
        (None, Some(path)) => (path, choice.analysis()),
        (None, None) => return Err(Error::Config("give a CORPUS or --index DIR".into())),
    };
    let analyzer = Analyzer::new(args.analysis.config_over(&analysis)?)?;
    let config = args.weighting.config_over(&choice.vectorizer())?;
    let mut read = args.input.options()?;
    if args.index.is_some() {
        read.format = Some(crate::corpus::InputFormat::Index);
    }
    let pipeline = args.runtime.start()?;
    let mut log = ReadLog::new(read.max_doc_bytes);
    let fitted = fit_corpus(corpus, &read, &analyzer, &config, &pipeline, |e| {
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
        vectorizer: fitted.vectorizer,
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
