//! `bowline train`: a labelled corpus becomes a model file.

use std::path::{Path, PathBuf};

use clap::Args;

use super::log::ReadLog;
use super::tune::TuneArgs;
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs, VocabularyArgs};
use bowline::analyze::AnalyzerConfig;
use bowline::classifier::MultiLabelOptions;
use bowline::model::{
    Classifier, Kind, KnnParams, Loss, Params, Priors, Similarity, Smoothing, SvmParams, Trainer,
};
use bowline::vectorize::{VectorizerConfig, Weighting};
use bowline::{Builder, Error, Result, Source};

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
    #[arg(long, value_enum)]
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
    pub multi: MultiLabelArgs,
    #[command(flatten)]
    pub tune: TuneArgs,
    /// With --tune: print the trials as JSON instead of a table.
    #[arg(long, requires = "tune")]
    pub json: bool,
    /// Naive Bayes: read the corpus twice, first for its vocabulary, so that memory holds the
    /// vocabulary and the model but no document, for twice the analysis time; the model is the
    /// same. `auto` reads a corpus of 256 MiB or more twice; stdin is read once. The SVM and
    /// k-NN read once and hold every document's row in memory.
    #[arg(long, value_enum, default_value = "auto")]
    pub passes: Passes,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub weighting: VocabularyArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
    #[cfg(feature = "cluster")]
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
    /// In cluster mode, train the SVM by CoCoA+: each worker keeps the rows it read, and rounds
    /// exchange weight changes until each class's duality gap is within 5e-4 of its objective,
    /// or --max-iterations rounds. Without it, process 0 trains on the documents the workers
    /// counted: the one-process model exactly, but every row is held there.
    #[cfg(feature = "cluster")]
    #[arg(long, help_heading = "Cluster mode (timely-dataflow)")]
    pub cocoa: bool,
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

const SVM_ONLY: &str =
    "--c, --loss, --tolerance, --max-iterations, --seed, --reservoir and --calibrate are SVM flags";
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

/// Runs the command.
pub fn run(args: TrainArgs) -> Result<Outcome> {
    let started = std::time::Instant::now();
    let inputs: Vec<&Path> = args
        .corpus
        .iter()
        .chain(&args.index)
        .map(|p| p.as_path())
        .collect();
    bowline::io::refuse_overwriting_inputs(&args.output, &inputs)?;
    let kind = args.model.choice(Kind::Svm);
    if args.seed.is_some() && kind != Kind::Svm {
        return Err(Error::Config(SVM_ONLY.into()));
    }
    if args.tune.tune && args.multi.multi_label {
        return Err(Error::Config(
            "--tune searches single-label settings; train a multi-label model without it".into(),
        ));
    }
    let (corpus, analysis) = source(&args, kind)?;
    let analysis = args.analysis.config_over(&analysis)?;
    let config = args.weighting.config_over(&kind.default_vectorizer())?;
    let builder = args.model.builder(kind, analysis, config, args.seed)?;
    let chosen = matches!(
        builder.trainer_config().naive_bayes(),
        Some((_, Smoothing::Auto))
    );
    let mut read = args.input.labelled_options()?;
    if args.index.is_some() {
        read.format = Some(bowline::corpus::InputFormat::Index);
    }
    read.merge_folders = args.multi.multi_label;
    let pipeline = args.runtime.start()?;
    #[cfg(feature = "cluster")]
    if let Some(cluster) = args.cluster.cluster()? {
        return train_in_cluster(&cluster, &builder, corpus, &read, &pipeline, &args, started);
    }
    let mut log = ReadLog::new(read.max_doc_bytes);
    let source = Source::open(corpus, &read)?;
    let mut reading = super::reading(pipeline, &mut log);
    let (classifier, documents) = if args.tune.tune {
        let outcome = tune(&builder, source, &mut reading, &args)?;
        let documents = outcome
            .model
            .model()
            .info
            .docs_per_class
            .iter()
            .sum::<u64>();
        (outcome.model, documents as usize)
    } else {
        let options = args.multi.options(args.seed.unwrap_or(1));
        let multi = args.multi.multi_label;
        let fitted = if !args.passes.twice(corpus) {
            builder.fit_labelled(source, &mut reading, &options, multi)?
        } else {
            let mut first = Some(source);
            let open = || first.take().map_or_else(|| Source::open(corpus, &read), Ok);
            builder.fit_twice(open, &mut reading, &options, multi)?
        };
        (fitted.classifier, fitted.documents)
    };
    drop(reading);
    let model = classifier.model();
    report_unconverged(&model.classifier, &model.labels);
    classifier.save(&args.output)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
        eprintln!(
            "bowline: trained {} on {} documents, {} classes, {} in {:.2} s -> {}",
            model.classifier.name(),
            documents,
            model.labels.len(),
            super::features(&model.vectorizer),
            started.elapsed().as_secs_f64(),
            args.output.display()
        );
        if let Some(multi) = model.classifier.multi_label() {
            eprintln!(
                "bowline: multi-label model, one binary problem per label; thresholds: {}; at \
                 least {} label(s) per document",
                multi.decision.tuned_by, multi.decision.min_labels
            );
        }
        if let (Classifier::NaiveBayes(nb), true) = (&model.classifier, chosen) {
            eprintln!(
                "bowline: smoothing alpha {}, chosen by leave-one-out on the training documents",
                nb.alpha()
            );
        }
    }
    Ok(log.outcome())
}

/// Searches for the best configuration, prints the trials, and returns the winner's model.
fn tune(
    builder: &Builder,
    source: Source,
    reading: &mut bowline::Reading,
    args: &TrainArgs,
) -> Result<bowline::classifier::TuneOutcome> {
    let progress = super::tune::progress_bar();
    let options = args.tune.options(args.seed.unwrap_or(1));
    let outcome = builder.tune(source, reading, &options, |done, planned| {
        progress.set_length(planned as u64);
        progress.set_position(done as u64);
    })?;
    progress.finish_and_clear();
    if !args.runtime.quiet {
        super::print_or_quiet(&super::tune::render(&outcome, args.json)?)?;
    }
    Ok(outcome)
}

/// What to train on, and the analysis to start from: a corpus index with its own analysis, or a
/// corpus with the classifier's default analysis.
fn source(args: &TrainArgs, kind: Kind) -> Result<(&Path, AnalyzerConfig)> {
    match (&args.index, &args.corpus) {
        (Some(dir), _) => Ok((dir, bowline::index::analysis(dir)?)),
        (None, Some(path)) => Ok((path, kind.default_analysis())),
        (None, None) => Err(Error::Config("give a CORPUS or --index DIR".into())),
    }
}

/// Reports the classes whose SVM, if the classifier is or wraps one, stopped at the iteration
/// cap.
pub(super) fn report_unconverged(classifier: &Classifier, classes: &[String]) {
    let Some(svm) = classifier.svm() else {
        return;
    };
    for (binary, class) in svm.convergence().iter().zip(classes) {
        if !binary.converged {
            super::log::warn(&format!(
                "warning: class '{class}': SVM stopped at the iteration cap ({}) before reaching \
                 the tolerance; raise --max-iterations or --tolerance",
                binary.iterations
            ));
        }
    }
}

/// How many times `train` reads its corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Passes {
    /// Twice for a corpus of 256 MiB or more on disk, else once.
    Auto,
    /// Once, holding every document's row until the model is trained.
    #[value(name = "1")]
    One,
    /// Twice (naive Bayes; other classifiers read once).
    #[value(name = "2")]
    Two,
}

/// The corpus size from which `--passes auto` reads twice. Training naive Bayes in one pass
/// peaks at about five times the corpus (1.2 GB for 235 MB of 20 Newsgroups posts, bigrams
/// and all); two passes peak at what the vocabulary takes (220 MB for the same corpus) and
/// double the analysis time, which pays for itself in memory from about this size.
pub const TWO_PASSES_FROM: u64 = 256 << 20;

impl Passes {
    /// Whether to read `corpus` twice; stdin and FIFOs can be read only once.
    fn twice(self, corpus: &Path) -> bool {
        let on_disk = bowline::corpus::rereadable(corpus);
        match self {
            Passes::One => false,
            Passes::Two => on_disk,
            Passes::Auto => on_disk && bytes_on_disk(corpus) >= TWO_PASSES_FROM,
        }
    }
}

/// The bytes of the files at or below `path`; what cannot be read counts nothing, as reading
/// reports it.
fn bytes_on_disk(path: &Path) -> u64 {
    walkdir::WalkDir::new(path)
        .into_iter()
        .filter_map(|entry| entry.ok()?.metadata().ok())
        .filter(|metadata| metadata.is_file())
        .map(|metadata| metadata.len())
        .sum()
}

/// `train` in cluster mode: single-label, untuned; process 0 writes the model.
#[cfg(feature = "cluster")]
fn train_in_cluster(
    cluster: &bowline::cluster::Cluster,
    builder: &Builder,
    corpus: &Path,
    read: &bowline::corpus::ReadOptions,
    pipeline: &bowline::pipeline::PipelineConfig,
    args: &TrainArgs,
    started: std::time::Instant,
) -> Result<Outcome> {
    if args.tune.tune || args.multi.multi_label || args.index.is_some() {
        return Err(Error::Config(
            "cluster mode trains single-label models from a corpus path, untuned".into(),
        ));
    }
    let (log, note) = super::cluster::shared_log(read.max_doc_bytes);
    if args.cocoa && (builder.kind() != Kind::Svm || args.weighting.hash_bits.is_some()) {
        return Err(Error::Config(
            "--cocoa trains the SVM over a vocabulary; drop it, or --hash-bits".into(),
        ));
    }
    let trained = if args.cocoa {
        let trained = bowline::cluster::train_svm(cluster, builder, corpus, read, pipeline, note);
        trained.map(|t| t.map(InCluster::Svm))
    } else {
        let trained = bowline::cluster::train(cluster, builder, corpus, read, pipeline, note);
        trained.map(|t| t.map(InCluster::Gathered))
    };
    let log = super::cluster::finished(&log)?;
    if !args.runtime.quiet {
        eprintln!("bowline: process {}: {}", cluster.process, log.summary());
    }
    let Some(trained) = trained? else {
        return Ok(log.outcome());
    };
    let (classifier, exchange) = trained.described();
    let model = classifier.model();
    report_unconverged(&model.classifier, &model.labels);
    classifier.save(&args.output)?;
    if !args.runtime.quiet {
        eprintln!(
            "bowline: trained {} on {} documents across {} processes of {} workers ({exchange}), \
             {} classes, {} in {:.2} s -> {}",
            model.classifier.name(),
            model.vectorizer.n_docs(),
            cluster.processes(),
            cluster.workers,
            model.labels.len(),
            super::features(&model.vectorizer),
            started.elapsed().as_secs_f64(),
            args.output.display()
        );
    }
    Ok(log.outcome())
}

/// What a cluster trained: from what process 0 gathered, or the SVM by CoCoA+.
#[cfg(feature = "cluster")]
enum InCluster {
    Gathered(bowline::cluster::Trained),
    Svm(bowline::cluster::TrainedSvm),
}

#[cfg(feature = "cluster")]
impl InCluster {
    /// The classifier, and what its training exchanged, as the report says it.
    fn described(self) -> (bowline::TextClassifier, String) {
        match self {
            InCluster::Gathered(trained) => {
                let (exchanged, method) = (trained.exchanged, trained.method);
                let said = format!("{exchanged} bytes of {method} gathered");
                (trained.classifier, said)
            }
            InCluster::Svm(trained) => {
                let rounds = trained.round_bytes.len();
                let bytes: u64 = trained.round_bytes.iter().sum();
                let said = format!(
                    "CoCoA+ in {rounds} rounds, {bytes} bytes exchanged, {} a round on average \
                     and {} for the vocabulary; dual objective {:.9e}",
                    bytes / rounds.max(1) as u64,
                    trained.vocabulary_bytes,
                    trained.dual_objectives.iter().sum::<f64>()
                );
                (trained.classifier, said)
            }
        }
    }
}
