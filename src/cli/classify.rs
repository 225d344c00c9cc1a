//! `bowline classify`: label unlabeled documents with a saved model, from files and folder trees
//! or as a stream on stdin.

use std::path::PathBuf;

use clap::Args;

use super::stream;
use super::{choice, DecisionArgs, InputArgs, Outcome, RuntimeArgs};
use bowline::jobs::classify::{Choices, Classify, Documents};
use bowline::jobs::Placement;
use bowline::render::LineFormat;
use bowline::{Result, TextClassifier};

/// Flags of `bowline classify`.
#[derive(Debug, Args)]
pub struct ClassifyArgs {
    /// A model written by `bowline train`.
    pub model: PathBuf,
    /// Files or folder trees of unlabeled documents, every file one document; none, or `-`,
    /// reads documents from stdin (one per line by default; see --input).
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_parser = choice::<LineFormat>(), default_value = "tsv")]
    pub format: LineFormat,
    /// Classes listed under "scores" in jsonl output, most probable first.
    #[arg(long, default_value_t = 3, value_name = "K")]
    pub top: usize,
    /// Explain each decision: the K terms that contributed most to the chosen class's score,
    /// with their contributions, the bias and the sum of the other terms, which add up to the
    /// score (a fourth column in tsv, "explanations" in jsonl). The score is the SVM's decision
    /// value w·x + b; naive Bayes' score (the log joint likelihood, or complement NB's
    /// normalized score) less its mean over the classes, each term's contribution a
    /// log-likelihood ratio against the average class; k-NN's summed similarity of the class's
    /// neighbours, each shared between its terms.
    #[arg(long, value_name = "K")]
    pub explain: Option<usize>,
    #[command(flatten)]
    pub decision: DecisionArgs,
    /// Where to write the results; - for stdout.
    #[arg(short, long, default_value = "-")]
    pub output: PathBuf,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// Runs the command.
pub fn run(args: ClassifyArgs) -> Result<Outcome> {
    let mut inputs: Vec<&std::path::Path> = args.paths.iter().map(PathBuf::as_path).collect();
    inputs.push(&args.model);
    bowline::jobs::check_output(&args.output, &inputs)?;
    let classifier = TextClassifier::load(&args.model)?;
    let choices = Choices {
        decide: args.decision.flags().decision(&classifier)?,
        format: args.format,
        top: args.top,
        explain: args.explain,
    };
    let read = args.input.flags().unlabelled_options()?;
    let pipeline = args.runtime.start()?;
    let placement = args.cluster.placement()?;
    let from_stdin = args.paths.is_empty() || args.paths == [PathBuf::from("-")];
    let stream = (from_stdin && matches!(placement, Placement::Local))
        .then(|| stream::stdin(&read, pipeline.batch_size))
        .transpose()?;
    let documents = match &stream {
        Some(stream) => Documents::Stream(stream.items.clone()),
        None if from_stdin => Documents::Stream(crossbeam_channel::never()),
        None => Documents::Paths(args.paths.clone()),
    };
    let job = Classify {
        model: args.model.clone(),
        documents,
        read,
        pipeline,
        choices,
    };
    let progress = if stream.is_some() {
        indicatif::ProgressBar::hidden()
    } else {
        progress_bar()
    };
    let logged = super::log::Logged::new(job.read.max_doc_bytes, progress.clone());
    job.run_into(&placement, logged.note(), &args.output)?;
    progress.finish_and_clear();
    let outcome = logged.finish(args.runtime.quiet, &placement)?;
    Ok(match stream.and_then(|s| s.interrupted_by()) {
        Some(signal) => Outcome::Interrupted(signal),
        None => outcome,
    })
}

/// A count of documents: "documents read: N (elapsed)", which reads well for one document as
/// for many, and claims no rate it cannot measure over a slow stream.
const COUNTED: &str = "{spinner} documents read: {human_pos} ({elapsed})";

/// A document counter on stderr when it is a terminal, hidden otherwise.
fn progress_bar() -> indicatif::ProgressBar {
    super::on_terminal(indicatif::ProgressBar::new_spinner(), COUNTED)
}

#[cfg(test)]
mod tests {
    use indicatif::{InMemoryTerm, ProgressBar, ProgressDrawTarget, ProgressStyle};

    #[test]
    fn the_spinner_counts_documents_in_words_that_fit_one() {
        let term = InMemoryTerm::new(4, 80);
        let target = ProgressDrawTarget::term_like(Box::new(term.clone()));
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_style(ProgressStyle::with_template(super::COUNTED).unwrap());
        bar.inc(1);
        bar.tick();
        // The elapsed time, in whole seconds, closes the line.
        let shown = term.contents();
        assert!(shown.contains("documents read: 1 ("), "{shown:?}");
        assert!(shown.ends_with("s)") && !shown.contains("/s"), "{shown:?}");
        bar.inc(1_233_999);
        bar.tick();
        let shown = term.contents();
        assert!(shown.contains("documents read: 1,234,000 ("), "{shown:?}");
    }
}
