//! `bowline stats`: figures about a corpus before classifying it, as tables, JSON or HTML.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::log::ReadLog;
use super::{print_or_quiet, AnalysisArgs, InputArgs, Outcome, RuntimeArgs};
use bowline::analyze::{Analyzer, AnalyzerConfig};
use bowline::corpus::{self, Entries, Entry};
use bowline::report::stats::{collect, Collector, CorpusStats};
use bowline::report::{html_report, text_report, Header};
use bowline::{Error, Result};

/// Flags of `bowline stats`.
#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Corpora described together (class folders, .tsv, .jsonl, files); classes of the same
    /// name are merged, so `train` and `test` folders give one report.
    #[arg(required_unless_present = "index")]
    pub corpora: Vec<PathBuf>,
    /// Describe the documents of a corpus index (`bowline index`) instead, analyzed as the
    /// index was unless analysis flags say otherwise.
    #[arg(long, value_name = "DIR", conflicts_with = "corpora")]
    pub index: Option<PathBuf>,
    /// Print every figure as JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Also write a self-contained HTML report with charts to this file.
    #[arg(long, value_name = "REPORT.html")]
    pub html: Option<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
    #[cfg(feature = "cluster")]
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// Runs the command.
pub fn run(args: StatsArgs) -> Result<Outcome> {
    let read = args.input.options()?;
    super::memory::return_freed_pages_at_once();
    let pipeline = args.runtime.start()?;
    let mut log = ReadLog::new(read.max_doc_bytes);
    let indexed = args
        .index
        .as_deref()
        .map(bowline::index::read)
        .transpose()?;
    let base = indexed
        .as_ref()
        .map_or_else(AnalyzerConfig::default, |i| i.analyzer.clone());
    let analyzer = Analyzer::new(args.analysis.config_over(&base)?)?;
    if analyzer.config().char_ngrams.is_some() {
        return Err(Error::Config(
            "stats describes words; --char-ngrams is for the commands that build features".into(),
        ));
    }
    #[cfg(feature = "cluster")]
    if let Some(cluster) = args.cluster.cluster()? {
        return stats_in_cluster(&cluster, &args, &analyzer, &read, &pipeline);
    }
    let mut collector = Collector::new(analyzer.config().clone());
    let mut read_into = |entries: Entries, note: &mut dyn FnMut(&Entry)| {
        let limit = read.max_doc_bytes;
        collect(&mut collector, entries, &analyzer, &pipeline, limit, note)
    };
    match indexed {
        // Reading the index noted nothing new: its documents were reported when indexed.
        Some(indexed) => {
            read_into(Box::new(indexed.entries.into_iter()), &mut |_| {})?;
            collector.add_skipped(indexed.binary, indexed.failed);
        }
        None => {
            for path in &args.corpora {
                let (entries, _) = corpus::open(path, &read)?;
                read_into(entries, &mut |e| log.note(e))?;
            }
        }
    }
    let stats = collector.finish();
    write_html(&stats, &args)?;
    print_or_quiet(&render(&stats, args.json)?)?;
    if !args.runtime.quiet && args.index.is_none() {
        eprintln!("bowline: {}", log.summary());
    }
    Ok(log.outcome())
}

/// Writes the HTML report, if asked for.
fn write_html(stats: &CorpusStats, args: &StatsArgs) -> Result<()> {
    let Some(path) = &args.html else {
        return Ok(());
    };
    let corpus = match &args.index {
        Some(index) => format!("index {}", index.display()),
        None => (args.corpora.iter())
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
    };
    let page = html_report(stats, &Header::new("Corpus report").fact("corpus", corpus));
    bowline::io::write_atomically(path, |out| out.write_all(page.as_bytes()))
}

/// `stats` in cluster mode: every process reads the corpora, process 0 prints the report.
#[cfg(feature = "cluster")]
fn stats_in_cluster(
    cluster: &bowline::cluster::Cluster,
    args: &StatsArgs,
    analyzer: &Analyzer,
    read: &bowline::corpus::ReadOptions,
    pipeline: &bowline::pipeline::PipelineConfig,
) -> Result<Outcome> {
    if args.index.is_some() {
        return Err(Error::Config(
            "cluster mode reads corpora, not an index".into(),
        ));
    }
    let logging = (read.max_doc_bytes, args.runtime.quiet);
    super::cluster::run_logged(
        cluster,
        logging,
        |note| bowline::cluster::stats(cluster, &args.corpora, analyzer, read, pipeline, note),
        |stats| {
            write_html(&stats, args)?;
            print_or_quiet(&render(&stats, args.json)?)
        },
    )
}

fn render(stats: &CorpusStats, json: bool) -> Result<String> {
    if !json {
        return Ok(text_report(stats));
    }
    super::json_text(stats)
}
