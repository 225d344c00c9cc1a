//! `bowline classify`: label unlabeled documents with a saved model.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::eval::argmax;
use super::log::ReadLog;
use super::{InputArgs, Outcome, RuntimeArgs};
use crate::analyze::{run_stages, Analyzer};
use crate::corpus::{self, Entries, InputFormat};
use crate::error::{Error, Result};
use crate::io::Output;
use crate::model::Model;
use crate::vectorize::transform_stages;

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ClassifyFormat {
    /// `id<TAB>label<TAB>probability`.
    Tsv,
    /// `{"id", "label", "probability"}` per line.
    Jsonl,
}

/// Flags of `bowline classify`.
#[derive(Debug, Args)]
pub struct ClassifyArgs {
    /// A model written by `bowline train`.
    pub model: PathBuf,
    /// Files or folder trees of unlabeled documents; every file is one document.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "tsv")]
    pub format: ClassifyFormat,
    /// Where to write the results; - for stdout.
    #[arg(short, long, default_value = "-")]
    pub output: PathBuf,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

#[derive(Serialize)]
struct JsonResult<'a> {
    id: &'a str,
    label: &'a str,
    probability: f64,
}

/// Runs the command.
pub fn run(args: ClassifyArgs) -> Result<Outcome> {
    let model = Model::load(&args.model)?;
    let mut read = args.input.options()?;
    read.format = Some(read.format.unwrap_or(InputFormat::Files));
    let pipeline = args.runtime.pipeline()?;
    args.runtime.init_thread_pool();
    let mut chained: Vec<Entries> = Vec::new();
    for path in &args.paths {
        chained.push(corpus::open(path, &read)?.0);
    }
    let entries: Entries = Box::new(chained.into_iter().flatten());
    let analyzer = Analyzer::new(model.vectorizer.analyzer().clone())?;
    let fused = pipeline.is_fused();
    let stages = transform_stages(&analyzer, &model.vectorizer, read.max_doc_bytes, fused);
    let scorer = model.classifier.scorer();
    let progress = progress_bar();
    let mut output = Output::create(&args.output)?;
    let mut log = ReadLog::new(read.max_doc_bytes);
    let mut scores = vec![0.0; model.labels.len()];
    let mut line = Vec::new();
    run_stages(entries, &pipeline, stages, |item| {
        progress.inc(1);
        log.note(&item.entry);
        if !item.entry.is_document() {
            return Ok(());
        }
        let row = &item.counted.row;
        scorer.scores(&row.indices, &row.values, &mut scores);
        let best = argmax(&scores);
        model.classifier.probabilities(&mut scores);
        line.clear();
        format_result(
            &mut line,
            args.format,
            &item.entry.doc.id,
            &model.labels[best],
            scores[best],
        )?;
        output.write_all(&line).map_err(|e| output.error(e))
    })?;
    progress.finish_and_clear();
    output.commit()?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
    }
    Ok(log.outcome())
}

fn format_result(
    line: &mut Vec<u8>,
    format: ClassifyFormat,
    id: &str,
    label: &str,
    probability: f64,
) -> Result<()> {
    match format {
        ClassifyFormat::Tsv => {
            // Tabs and newlines in an id would break the columns; they are escaped.
            let id = id.replace('\t', "\\t").replace('\n', "\\n");
            writeln!(line, "{id}\t{label}\t{probability:.6}").map_err(|e| Error::io("-", e))
        }
        ClassifyFormat::Jsonl => {
            let result = JsonResult {
                id,
                label,
                probability,
            };
            serde_json::to_writer(&mut *line, &result).map_err(|e| Error::Config(e.to_string()))?;
            line.push(b'\n');
            Ok(())
        }
    }
}

/// A document counter on stderr when it is a terminal, hidden otherwise.
fn progress_bar() -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{spinner} {pos} documents, {per_sec}")
    {
        bar.set_style(style);
    }
    bar
}
