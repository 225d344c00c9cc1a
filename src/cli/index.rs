//! `bowline index`: keep a corpus in a tantivy index, analyzed by bowline's analyzer.

use std::path::PathBuf;

use clap::Args;

use super::log::ReadLog;
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs};
use bowline::flow::{read_stage, run_stages};
use bowline::index::CorpusIndexWriter;
use bowline::Result;

/// Flags of `bowline index`.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// The documents: class folders, a .tsv or .jsonl file, unlabeled files.
    pub corpus: PathBuf,
    /// The index folder, created if needed; without --append an index already there is replaced.
    #[arg(long, value_name = "DIR")]
    pub index: PathBuf,
    /// Add to the index instead of replacing it; a document whose id is already indexed is
    /// replaced. The index keeps the analysis it was created with.
    #[arg(long)]
    pub append: bool,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

/// Runs the command.
pub fn run(args: IndexArgs) -> Result<Outcome> {
    let started = std::time::Instant::now();
    let read = args.input.options()?;
    let pipeline = args.runtime.start()?;
    let analysis = args.analysis.any_set().then(|| args.analysis.config());
    let analysis = analysis.transpose()?;
    let mut writer = CorpusIndexWriter::open(&args.index, args.append, analysis)?;
    let mut log = ReadLog::new(read.max_doc_bytes);
    let (entries, _) = bowline::flow::open(&args.corpus, &read)?;
    let stages = vec![read_stage(read.max_doc_bytes)];
    run_stages(entries, &pipeline, stages, |item| {
        log.note(&item.entry);
        writer.add(&item.entry)
    })?;
    let added = writer.commit()?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
        eprintln!(
            "bowline: indexed {added} documents in {:.2} s -> {}",
            started.elapsed().as_secs_f64(),
            args.index.display()
        );
    }
    Ok(log.outcome())
}
