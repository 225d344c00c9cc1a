//! `bowline eval`: a model against a labelled corpus. The work is [`Eval`]'s, the rendering
//! [`EvalView`]'s.

use std::path::PathBuf;

use clap::Args;

use super::{log::Logged, DecisionArgs, InputArgs, Outcome, RuntimeArgs};
use bowline::jobs::eval::Eval;
use bowline::render::evaluation::EvalView;
use bowline::{Result, TextClassifier};

/// Flags of `bowline eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// A model written by `bowline train`.
    pub model: PathBuf,
    /// A labelled corpus: class folders, a .tsv or a .jsonl file.
    pub corpus: PathBuf,
    /// Print the figures as JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Add ROC AUC and average precision of each class against the rest, and their macro
    /// means; with --json, the ROC and precision-recall curves' points and the reliability of
    /// the probabilities too.
    ///
    /// Documents are ranked by a score per class: its probability for naive Bayes (the
    /// posterior), a calibrated SVM (Platt) and k-NN (the share of the neighbours' votes); its
    /// decision value w·x + b for an uncalibrated SVM, whose values are no probabilities (so
    /// they have no reliability). The figures are those of scikit-learn's roc_auc_score and
    /// average_precision_score; a class with no document in the corpus has neither and is left
    /// out of the macro means. A multi-label model ranks by each label's score (an SVM margin,
    /// naive Bayes' log posterior odds), a label's documents against those without it, and
    /// adds the micro figures of every (document, label) pair pooled (scikit-learn's
    /// average="micro"). This and --html keep every document's scores in memory:
    /// documents × classes numbers of 8 bytes (1.2 MB for 7,532 documents of 20 classes).
    #[arg(long)]
    pub curves: bool,
    /// Also write a self-contained HTML report to this file: a confusion-matrix heatmap,
    /// per-class precision, recall and F1, ROC and precision-recall curves and a reliability
    /// diagram, as inline SVG (nothing is fetched from the network). The curves' scores are
    /// those of --curves.
    #[arg(long, value_name = "REPORT.html")]
    pub html: Option<PathBuf>,
    /// With --costs, also report the total and mean cost of the decisions.
    #[command(flatten)]
    pub decision: DecisionArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// Runs the command.
pub fn run(args: EvalArgs) -> Result<Outcome> {
    let classifier = TextClassifier::load(&args.model)?;
    let decision = args.decision.flags().decision(&classifier)?;
    if let Some(page) = &args.html {
        bowline::jobs::check_output(page, &[&args.model, &args.corpus])?;
    }
    let job = Eval {
        classifier: &classifier,
        model: args.model.clone(),
        corpus: args.corpus.clone(),
        read: args.input.flags().labelled_options()?,
        pipeline: args.runtime.start()?,
        decision,
        keep_scores: args.curves || args.html.is_some(),
    };
    let placement = job.placement(args.cluster.placement()?);
    let logged = Logged::new(job.read.max_doc_bytes, indicatif::ProgressBar::hidden());
    if let Some(evaluated) = job.run(&placement, logged.note())? {
        let view = EvalView {
            evaluated: &evaluated,
            classifier: &classifier,
            decision: &job.decision,
            model: &args.model,
            corpus: &args.corpus,
        };
        report(&args, &view)?;
    }
    logged.finish(args.runtime.quiet, &placement)
}

/// Writes the HTML page when asked, prints the figures and warns of unknown labels.
fn report(args: &EvalArgs, view: &EvalView) -> Result<()> {
    if let Some(path) = &args.html {
        bowline::jobs::write_file(path, &view.page())?;
    }
    let shown = match args.json {
        true => view.json(args.curves)?,
        false => view.text(args.curves),
    };
    super::print_or_quiet(&shown)?;
    if let Some(warning) = view.unknown_labels() {
        super::log::warn(&warning);
    }
    Ok(())
}
