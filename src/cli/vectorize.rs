//! `bowline vectorize`: a corpus becomes an svmlight matrix and a vocabulary file.

use std::path::PathBuf;

use clap::Args;

use super::{log::Logged, AnalysisArgs, InputArgs, Outcome, RuntimeArgs, VocabularyArgs};
use bowline::jobs::check_output;
use bowline::jobs::vectorize::{Event, Mode, Vectorize};
use bowline::jobs::Placement;
use bowline::render::vectorized;
use bowline::{Error, Result};

/// Flags of `bowline vectorize`.
#[derive(Debug, Args)]
pub struct VectorizeArgs {
    /// The corpus: a folder of class folders, a .tsv or .jsonl file, unlabeled files, or - (stdin).
    pub corpus: PathBuf,
    /// Where to write the matrix in svmlight format; - for stdout.
    #[arg(short, long, value_name = "OUT.svm")]
    pub output: PathBuf,
    /// Also write the fitted vectorizer and the class names (label i = position i) as JSON.
    #[arg(long, value_name = "FILE")]
    pub vocab: Option<PathBuf>,
    /// Do not fit: transform with a vocabulary file written by an earlier --vocab, so a test set
    /// gets the training set's columns. Its analysis and weighting are used.
    #[arg(long, value_name = "FILE", conflicts_with = "vocab")]
    pub use_vocab: Option<PathBuf>,
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
}

impl VectorizeArgs {
    /// Converts the flags into a job and where it runs: the one place they are checked.
    fn job(self) -> Result<(Vectorize, Placement)> {
        let mut inputs = vec![self.corpus.as_path()];
        inputs.extend(self.use_vocab.as_deref());
        check_output(&self.output, &inputs)?;
        if let Some(vocab) = &self.vocab {
            check_output(vocab, &inputs)?;
        }
        let mode = match &self.use_vocab {
            Some(_) if self.analysis.flags().any_set() || self.weighting.flags().any_set() => {
                return Err(Error::Config(
                    "--use-vocab takes analysis and weighting from the vocabulary file; \
                     drop the other analysis and weighting flags"
                        .into(),
                ))
            }
            Some(path) => Mode::saved(path)?,
            None => Mode::Fit {
                analysis: self.analysis.flags().config()?,
                config: self.weighting.flags().config()?,
                vocab: self.vocab,
            },
        };
        let placement = self.cluster.placement()?;
        mode.check(&placement)?;
        let job = Vectorize {
            corpus: self.corpus,
            output: self.output,
            mode,
            read: self.input.flags().options()?,
            pipeline: self.runtime.start()?,
        };
        Ok((job, placement))
    }
}

/// Runs the command.
pub fn run(args: VectorizeArgs) -> Result<Outcome> {
    let (verbose, quiet) = (args.runtime.verbose, args.runtime.quiet);
    let (job, placement) = args.job()?;
    if let Mode::Fit { analysis, .. } = &job.mode {
        crate::memory::prepare_for(analysis);
    }
    let output = job.output.clone();
    let logged = Logged::new(job.read.max_doc_bytes, indicatif::ProgressBar::hidden());
    let written = job.run(&placement, logged.note(), &mut |event| match event {
        Event::NewClass { id, class, label } => {
            super::log::warn(&vectorized::new_class(id, class, label));
        }
        Event::Written(phases) if verbose => eprintln!("{}", vectorized::phases(phases)),
        Event::Written(_) => {}
    })?;
    // The summary has never named the process, in a cluster either.
    let outcome = logged.finish(quiet, &Placement::Local)?;
    if !quiet {
        eprintln!("bowline: {}", written.summary(&output));
    }
    Ok(outcome)
}
