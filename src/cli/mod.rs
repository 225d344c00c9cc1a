//! The command line: one file per command. Each command turns its raw flags into validated
//! library configurations in one place, then calls the library.

mod args;
mod choice;
mod classify;
#[cfg(feature = "cluster")]
mod cluster;
/// Without the cluster feature there are no cluster flags, and every command runs here.
#[cfg(not(feature = "cluster"))]
mod cluster {
    #[derive(Debug, clap::Args)]
    pub struct ClusterArgs {}

    impl ClusterArgs {
        pub fn placement(&self) -> bowline::Result<bowline::jobs::Placement> {
            Ok(bowline::jobs::Placement::Local)
        }
    }
}
mod completions;
mod cv;
mod eval;
mod export;
mod index;
mod inspect;
#[cfg(feature = "serve")]
mod label;
mod learn;
pub mod log;
mod merge;
mod output;
mod rank;
mod select;
#[cfg(feature = "serve")]
mod serve;
mod stats;
mod stream;
mod suggest;
mod train;
mod trainer;
mod tune;
mod update;
mod vectorize;

use choice::choice;
use clap::{Parser, Subcommand};

pub use args::{AnalysisArgs, DecisionArgs, InputArgs, RuntimeArgs, VocabularyArgs, WeightingArgs};
pub use output::Outcome;
pub(crate) use output::{on_terminal, print_or_quiet};

use bowline::Result;

/// The exit codes, shown at the end of every `--help`.
const EXIT_CODES: &str = "Exit codes:
  0    success, also when stdout closes early (as with `| head`)
  1    the run finished, but some inputs (files, lines) could not be used; each was reported
  2    an error stopped the run: bad flags, a missing corpus, an unreadable model or output
  128+N  signal N (SIGINT, SIGTERM) ended a stream after what was read was written";

/// bowline: streaming text classification.
#[derive(Debug, Parser)]
#[command(name = "bowline", version, about, max_term_width = 100, after_help = EXIT_CODES)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Turn a corpus into a sparse matrix in svmlight format, with its vocabulary.
    Vectorize(vectorize::VectorizeArgs),
    /// Train a classifier on a labelled corpus and save it as a model file.
    Train(train::TrainArgs),
    /// Measure a model on a labelled corpus: accuracy, per-class figures, confusion matrix.
    Eval(eval::EvalArgs),
    /// Label unlabeled files, folder trees, or a stream of documents on stdin with a model.
    Classify(classify::ClassifyArgs),
    /// Add labelled documents to a model without retraining from scratch.
    Update(update::UpdateArgs),
    /// Learn labelled documents streamed on stdin into a naive Bayes model, with checkpoints
    /// and optional test-then-train (prequential) evaluation.
    Learn(learn::LearnArgs),
    /// Combine models trained on disjoint shards of a corpus: naive Bayes exactly, SVMs by
    /// averaging.
    Merge(merge::MergeArgs),
    /// Rank the terms of a labelled corpus by χ², information gain, mutual information or
    /// document frequency.
    Rank(rank::RankArgs),
    /// Propose the pool documents whose labels would help a model most (active learning).
    Suggest(suggest::SuggestArgs),
    /// Stratified k-fold cross-validation of a classifier: per-fold figures, mean and spread.
    Cv(cv::CvArgs),
    /// Greedy forward feature selection against a dev split, and a model on the selected
    /// features.
    Select(select::SelectArgs),
    /// Figures about a corpus: classes, lengths, vocabulary, Zipf's and Heaps' laws, typical
    /// terms; as tables, JSON, or an HTML page with charts.
    Stats(stats::StatsArgs),
    /// Keep a corpus in a tantivy index analyzed by bowline's analyzer, for `stats`, `train`
    /// and the nearest-neighbour classifier.
    Index(index::IndexArgs),
    /// Show a model: its kind and classes, analysis and weighting, training figures, tuned
    /// settings, and each class's top terms.
    Inspect(inspect::InspectArgs),
    /// Write a model as JSON (vocabulary, idf, weights or counts) for other tools to read.
    #[command(long_about = bowline::jobs::export::SCHEMA)]
    Export(export::ExportArgs),
    /// Serve a labelling page over a pool, with a model learning each label as it is given.
    #[cfg(feature = "serve")]
    Label(label::LabelArgs),
    /// Serve models over HTTP: classify, learn and reload, with status and metrics.
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
    /// Print the completion script for a shell (bash, zsh, fish, elvish, powershell).
    Completions(completions::CompletionsArgs),
    /// Print the manual page, in roff (`bowline man > bowline.1`).
    Man,
}

/// The command line's definition, every command's help ending with the exit codes.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command().mut_subcommands(|sub| sub.after_help(EXIT_CODES))
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<Outcome> {
    let outcome = dispatch(cli);
    log::print_stage_totals();
    outcome
}

fn dispatch(cli: Cli) -> Result<Outcome> {
    match cli.command {
        Command::Vectorize(args) => vectorize::run(args),
        Command::Train(args) => train::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Classify(args) => classify::run(args),
        Command::Update(args) => update::run(args),
        Command::Learn(args) => learn::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Rank(args) => rank::run(args),
        Command::Suggest(args) => suggest::run(args),
        Command::Cv(args) => cv::run(args),
        Command::Select(args) => select::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Index(args) => index::run(args),
        Command::Inspect(args) => inspect::run(args),
        Command::Export(args) => export::run(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => serve::run(args),
        #[cfg(feature = "serve")]
        Command::Label(args) => label::run(args),
        Command::Completions(args) => completions::completions(args, command()),
        Command::Man => completions::man(command()),
    }
}
