//! `bowline vectorize`: a corpus becomes an svmlight matrix and a vocabulary file.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use super::log::ReadLog;
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs, VocabularyArgs};
use bowline::analyze::Analyzer;
#[cfg(feature = "cluster")]
use bowline::cluster::count_corpus as cluster_count;
use bowline::corpus::ReadOptions;
use bowline::flow::{count_corpus, open, run_stages, transform_stages, Analyzed};
use bowline::io::{refuse_overwriting_inputs, Output};
use bowline::pipeline::PipelineConfig;
use bowline::vectorize::{
    svmlight::SvmlightWriter, CountedCorpus, VectorizerConfig, VocabularyFile,
};
use bowline::{Error, Result, Source};

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
    #[cfg(feature = "cluster")]
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// Fit a new vocabulary, or reuse a saved one.
enum Mode {
    Fit {
        analyzer: Analyzer,
        config: VectorizerConfig,
        vocab_out: Option<PathBuf>,
    },
    Transform(Box<VocabularyFile>),
}

/// Everything the command needs, validated.
struct Job {
    corpus: PathBuf,
    output: PathBuf,
    mode: Mode,
    read: ReadOptions,
    pipeline: PipelineConfig,
    verbose: bool,
    quiet: bool,
    #[cfg(feature = "cluster")]
    cluster: Option<bowline::cluster::Cluster>,
}

impl VectorizeArgs {
    /// Converts the flags into a validated job: the one place they are checked.
    fn job(self) -> Result<Job> {
        let mut inputs = vec![self.corpus.as_path()];
        inputs.extend(self.use_vocab.as_deref());
        refuse_overwriting_inputs(&self.output, &inputs)?;
        if let Some(vocab) = &self.vocab {
            refuse_overwriting_inputs(vocab, &inputs)?;
        }
        let mode = match &self.use_vocab {
            Some(path) => {
                if self.analysis.any_set() || self.weighting.any_set() {
                    return Err(Error::Config(
                        "--use-vocab takes analysis and weighting from the vocabulary file; \
                         drop the other analysis and weighting flags"
                            .into(),
                    ));
                }
                Mode::Transform(Box::new(VocabularyFile::load(path)?))
            }
            None => Mode::Fit {
                analyzer: Analyzer::new(self.analysis.config()?)?,
                config: self.weighting.config()?,
                vocab_out: self.vocab,
            },
        };
        #[cfg(feature = "cluster")]
        let cluster = self.cluster.cluster()?;
        #[cfg(feature = "cluster")]
        if cluster.is_some() && matches!(mode, Mode::Transform(_)) {
            return Err(Error::Config(
                "cluster mode fits a vocabulary; --use-vocab runs in one process".into(),
            ));
        }
        Ok(Job {
            #[cfg(feature = "cluster")]
            cluster,
            corpus: self.corpus,
            output: self.output,
            mode,
            read: self.input.options()?,
            pipeline: self.runtime.start()?,
            verbose: self.runtime.verbose,
            quiet: self.runtime.quiet,
        })
    }
}

/// Runs the command.
pub fn run(args: VectorizeArgs) -> Result<Outcome> {
    let job = args.job()?;
    let mut log = ReadLog::new(job.read.max_doc_bytes);
    let report = match &job.mode {
        Mode::Fit {
            analyzer,
            config,
            vocab_out,
        } => fit(&job, analyzer, config, vocab_out.as_deref(), &mut log)?,
        Mode::Transform(vocabulary) => transform(&job, vocabulary, &mut log)?,
    };
    if !job.quiet {
        eprintln!("bowline: {}", log.summary());
        eprintln!("bowline: {report}");
    }
    Ok(log.outcome())
}

/// Fits a vocabulary on the corpus and writes the training matrix. The matrix is never built:
/// each chunk of rows is renumbered, weighed and formatted in one pass on a rayon thread.
fn fit(
    job: &Job,
    analyzer: &Analyzer,
    config: &VectorizerConfig,
    vocab_out: Option<&std::path::Path>,
    log: &mut ReadLog,
) -> Result<String> {
    let started = Instant::now();
    super::memory::prepare_for(analyzer.config());
    let Some(counted) = counted(job, analyzer, config, log)? else {
        return Ok("documents counted for process 0, which writes the matrix".into());
    };
    let analyzed = started.elapsed();
    let ids: Vec<i64> = counted
        .class_ids()
        .iter()
        .map(|id| id.map_or(0, |c| c as i64))
        .collect();
    let (vectorizer, rows) = counted.fitter.finish_rows(analyzer.config().clone())?;
    let pruned = started.elapsed();
    let rows = rows.weighed_by(&vectorizer);
    let mut output = Output::create(&job.output)?;
    let entries =
        SvmlightWriter::write_rows(&mut output, &ids, &rows).map_err(|e| output.error(e))?;
    output.commit()?;
    if job.verbose {
        eprintln!(
            "phases: read+analyze+count {:.3} s, vocabulary {:.3} s, weigh+write {:.3} s",
            analyzed.as_secs_f64(),
            (pruned - analyzed).as_secs_f64(),
            (started.elapsed() - pruned).as_secs_f64()
        );
    }
    let report = format!(
        "{} classes, {}, {} non-zeros -> {}",
        counted.classes.len(),
        super::features(&vectorizer),
        entries,
        job.output.display()
    );
    if let Some(path) = vocab_out {
        VocabularyFile {
            labels: counted.classes,
            vectorizer,
        }
        .save(path)?;
    }
    Ok(report)
}

/// The corpus counted, by this process or (in cluster mode) by every process: `None` on a
/// process other than process 0.
fn counted(
    job: &Job,
    analyzer: &Analyzer,
    config: &VectorizerConfig,
    log: &mut ReadLog,
) -> Result<Option<CountedCorpus>> {
    #[cfg(feature = "cluster")]
    if let Some(cluster) = &job.cluster {
        let (shared, note) = super::cluster::shared_log(job.read.max_doc_bytes);
        let (read, pipeline) = (&job.read, &job.pipeline);
        let what = ("vectorize", job.corpus.as_path());
        let counted = cluster_count(cluster, what, analyzer, config, read, pipeline, note);
        std::mem::swap(log, &mut *super::cluster::finished(&shared)?);
        return Ok(counted?.map(|gathered| gathered.counts));
    }
    let source = Source::open(&job.corpus, &job.read)?;
    let counted = count_corpus(source, analyzer, config, &job.pipeline, |e| log.note(e))?;
    Ok(Some(counted))
}

fn label_id(classes: &[String], label: Option<&str>) -> Option<i64> {
    let label = label?;
    classes.iter().position(|c| c == label).map(|i| i as i64)
}

/// Writes the corpus's rows over a saved vocabulary, streaming: each row is written as soon as
/// its document is analyzed.
fn transform(job: &Job, vocabulary: &VocabularyFile, log: &mut ReadLog) -> Result<String> {
    let (entries, _) = open(&job.corpus, &job.read)?;
    let analyzer = Analyzer::new(vocabulary.vectorizer.analyzer().clone())?;
    let mut classes = vocabulary.labels.clone();
    let mut output = Output::create(&job.output)?;
    let mut writer = SvmlightWriter::new();
    let (mut rows, mut oov) = (0u64, 0u64);
    let fused = job.pipeline.is_fused();
    let max_doc_bytes = job.read.max_doc_bytes;
    let stages = transform_stages(&analyzer, &vocabulary.vectorizer, max_doc_bytes, fused);
    run_stages(entries, &job.pipeline, stages, |item: Analyzed| {
        log.note(&item.entry);
        if !item.entry.is_document() {
            return Ok(());
        }
        let label = item.entry.doc.label.as_deref();
        let id = match (label, label_id(&classes, label)) {
            (Some(name), None) => {
                let id = &item.entry.doc.id;
                let new = classes.len();
                super::log::warn(&format!(
                    "warning: {id}: class '{name}' is not in the vocabulary file; written as {new}"
                ));
                classes.push(name.to_string());
                classes.len() as i64 - 1
            }
            (_, id) => id.unwrap_or(0),
        };
        let row = &item.counted.row;
        oov += item.counted.oov;
        rows += 1;
        writer
            .write_row(&mut output, id, &row.indices, &row.values)
            .map_err(|e| output.error(e))
    })?;
    output.commit()?;
    let report = format!(
        "{rows} rows over {}, {oov} out-of-vocabulary terms -> {}",
        super::features(&vocabulary.vectorizer),
        job.output.display()
    );
    Ok(report)
}
