//! `bowline train`: a labelled corpus becomes a model file.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use indicatif::ProgressBar;

use super::log::Logged;
use super::tune::TuneArgs;
use super::{choice, AnalysisArgs, InputArgs, Outcome, RuntimeArgs, VocabularyArgs};
use bowline::analyze::AnalyzerConfig;
use bowline::jobs::train::{Made, Passes, Settings, Train, Trained};
use bowline::model::{Classifier, Kind};
use bowline::render::training::{model_lines, trained_text};
use bowline::{Error, Result};

pub use super::trainer::ClassifierArgs;
use super::trainer::{MultiLabelArgs, SVM_ONLY};

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
    #[arg(long, value_parser = choice::<Passes>(), default_value = "auto")]
    pub passes: Passes,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub weighting: VocabularyArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
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

/// Runs the command.
pub fn run(args: TrainArgs) -> Result<Outcome> {
    let started = Instant::now();
    let job = job(&args)?;
    let placement = args.cluster.placement()?;
    job.check(&placement)?;
    let logged = Logged::new(job.read.max_doc_bytes, ProgressBar::hidden());
    // A search shows its trials done as it goes.
    let progress = match args.tune.tune {
        true => super::tune::progress_bar(),
        false => ProgressBar::hidden(),
    };
    let on_trial = |done: usize, planned: usize| {
        progress.set_length(planned as u64);
        progress.set_position(done as u64);
    };
    let result = job.run(&placement, logged.note(), &on_trial);
    progress.finish_and_clear();
    let quiet = args.runtime.quiet;
    if placement.process().is_some() {
        // Every process of a cluster reports its reading, whether or not the training
        // succeeded, and before process 0 writes the model.
        let outcome = logged.finish(quiet, &placement)?;
        if let Some(trained) = result? {
            keep(&trained, &args.output)?;
            if !quiet {
                eprintln!("bowline: {}", trained_line(&trained, &args.output, started));
            }
        }
        return Ok(outcome);
    }
    let Some(trained) = result? else {
        return logged.finish(quiet, &placement);
    };
    if let (Made::Tuned(outcome), false) = (&trained.made, quiet) {
        super::print_or_quiet(&super::tune::render(outcome, args.json)?)?;
    }
    keep(&trained, &args.output)?;
    let outcome = logged.finish(quiet, &placement)?;
    if !quiet {
        eprintln!("bowline: {}", trained_line(&trained, &args.output, started));
        let model = trained.classifier().model();
        for line in model_lines(model, trained.chosen_alpha) {
            eprintln!("bowline: {line}");
        }
    }
    Ok(outcome)
}

/// The job the flags describe.
fn job(args: &TrainArgs) -> Result<Train> {
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
    let (corpus, analysis) = source(args, kind)?;
    let analysis = args.analysis.config_over(&analysis)?;
    let config = args.weighting.config_over(&kind.default_vectorizer())?;
    let builder = args.model.builder(kind, analysis, config, args.seed)?;
    let mut read = args.input.labelled_options()?;
    if args.index.is_some() {
        read.format = Some(bowline::corpus::InputFormat::Index);
    }
    read.merge_folders = args.multi.multi_label;
    let seed = args.seed.unwrap_or(1);
    let settings = match args.tune.tune {
        true => Settings::Tuned(args.tune.options(seed)),
        false => Settings::Given {
            multi_label: args.multi.multi_label,
            options: args.multi.options(seed),
        },
    };
    Ok(Train {
        corpus: corpus.to_path_buf(),
        builder,
        read,
        pipeline: args.runtime.start()?,
        settings,
        passes: args.passes,
        #[cfg(feature = "cluster")]
        cocoa: args.cocoa,
    })
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

/// Warns of the classes whose SVM did not converge, and writes the model to `output`.
fn keep(trained: &Trained, output: &Path) -> Result<()> {
    let model = trained.classifier().model();
    report_unconverged(&model.classifier, &model.labels);
    trained.classifier().save(output)
}

/// What was trained, on what, how fast, and where it went.
fn trained_line(trained: &Trained, output: &Path, started: Instant) -> String {
    let on = match &trained.made {
        #[cfg(feature = "cluster")]
        Made::InCluster(cluster) => format!(
            "{} documents across {} processes of {} workers ({})",
            trained.documents(),
            cluster.processes,
            cluster.workers,
            exchanged(&cluster.exchange)
        ),
        _ => format!("{} documents", trained.documents()),
    };
    let seconds = started.elapsed().as_secs_f64();
    trained_text(trained.classifier().model(), &on, output, seconds)
}

/// What a cluster's training exchanged, as the report says it.
#[cfg(feature = "cluster")]
fn exchanged(exchange: &bowline::jobs::train::Exchange) -> String {
    use bowline::jobs::train::Exchange;
    match exchange {
        Exchange::Gathered { bytes, method } => format!("{bytes} bytes of {method} gathered"),
        Exchange::Cocoa {
            round_bytes,
            vocabulary_bytes,
            dual_objective,
        } => {
            let rounds = round_bytes.len();
            let bytes: u64 = round_bytes.iter().sum();
            format!(
                "CoCoA+ in {rounds} rounds, {bytes} bytes exchanged, {} a round on average \
                 and {vocabulary_bytes} for the vocabulary; dual objective {dual_objective:.9e}",
                bytes / rounds.max(1) as u64,
            )
        }
    }
}

/// Reports the classes whose SVM, if the classifier is or wraps one, stopped at the iteration
/// cap.
pub(super) fn report_unconverged(classifier: &Classifier, classes: &[String]) {
    for warning in bowline::render::training::unconverged(classifier, classes) {
        super::log::warn(&warning);
    }
}
