//! `bowline label`: the labelling page over a pool, with a model learning each label.

use std::{net::SocketAddr, path::PathBuf};

use clap::Args;

use super::{log::Logged, InputArgs, Outcome};
use bowline::jobs::{label::Label, Placement};

/// Flags of `bowline label`.
#[derive(Debug, Args)]
pub struct LabelArgs {
    /// The pool of unlabeled documents: files, folders of files, TSV (`id<TAB>text`) or JSONL.
    #[arg(required = true)]
    pub pool: Vec<PathBuf>,
    /// The labels file, JSONL that `train` reads: created, or resumed where it ended.
    #[arg(long)]
    pub labels: PathBuf,
    /// A naive Bayes model to start from [default: an empty one].
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Classes to offer before any label names them, comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub classes: Vec<String>,
    /// The address to listen on (port 0 picks a free port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    #[command(flatten)]
    pub input: InputArgs,
}

/// Reads the pool and the labels so far, then serves the page until SIGINT or SIGTERM.
pub fn run(args: LabelArgs) -> bowline::Result<Outcome> {
    let read = args.input.flags().unlabelled_options()?;
    let logged = Logged::new(read.max_doc_bytes, indicatif::ProgressBar::hidden());
    let (pool, labels, model, classes) = (args.pool, args.labels, args.model, args.classes);
    let job = Label {
        pool,
        read,
        labels,
        model,
        classes,
    };
    bowline::serve_labelling(job.open(logged.note())?, args.addr)?;
    logged.finish(true, &Placement::Local)
}
