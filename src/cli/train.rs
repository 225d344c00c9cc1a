//! `bowline train`: a labelled corpus becomes a model file.

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use indicatif::ProgressBar;

use super::log::Logged;
use super::tune::TuneArgs;
use super::{choice, AnalysisArgs, InputArgs, Outcome, RuntimeArgs, VocabularyArgs};
use bowline::jobs::settings::{InputFormat, SVM_ONLY};
use bowline::jobs::train::{source, Made, Passes, Settings, Train, Trained};
use bowline::render::training::{model_lines, trained_text};
use bowline::{Error, Kind, Model, Result};

pub use super::trainer::ClassifierArgs;
use super::trainer::MultiLabelArgs;

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
    bowline::jobs::check_output(&args.output, &inputs)?;
    let kind = args.model.choice(Kind::Svm);
    if args.seed.is_some() && kind != Kind::Svm {
        return Err(Error::Config(SVM_ONLY.into()));
    }
    if args.tune.tune && args.multi.multi_label {
        return Err(Error::Config(
            "--tune searches single-label settings; train a multi-label model without it".into(),
        ));
    }
    let (corpus, analysis) = source(args.corpus.as_deref(), args.index.as_deref(), kind)?;
    let flags = (&args.analysis, &analysis);
    let builder = args
        .model
        .builder(kind, flags, args.weighting.flags(), args.seed)?;
    let mut read = args.input.flags().labelled_options()?;
    if args.index.is_some() {
        read.format = Some(InputFormat::Index);
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
        corpus,
        builder,
        read,
        pipeline: args.runtime.start()?,
        settings,
        passes: args.passes,
        #[cfg(feature = "cluster")]
        cocoa: args.cocoa,
    })
}

/// Warns of the classes whose SVM did not converge, and writes the model to `output`.
fn keep(trained: &Trained, output: &Path) -> Result<()> {
    report_unconverged(trained.classifier().model());
    trained.classifier().save(output)
}

/// What was trained, on what, how fast, and where it went.
fn trained_line(trained: &Trained, output: &Path, started: Instant) -> String {
    let seconds = started.elapsed().as_secs_f64();
    trained_text(
        trained.classifier().model(),
        &trained.trained_on(),
        output,
        seconds,
    )
}

/// Reports the classes whose SVM, if the classifier is or wraps one, stopped at the iteration
/// cap.
pub(super) fn report_unconverged(model: &Model) {
    for warning in bowline::render::training::unconverged(&model.classifier, &model.labels) {
        super::log::warn(&warning);
    }
}
