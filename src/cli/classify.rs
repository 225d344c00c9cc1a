//! `bowline classify`: label unlabeled documents with a saved model, from files and folder trees
//! or as a stream on stdin.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::log::ReadLog;
use super::stream;
use super::{DecisionArgs, InputArgs, Outcome, RuntimeArgs};
use bowline::classifier::Explanation;
use bowline::corpus::{Entries, InputFormat, Skip};
use bowline::flow::Analyzed;
use bowline::io::Output;
use bowline::model::{Decision, MultiLabelClassifier};
use bowline::{Error, Result, Source, TextClassifier};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ClassifyFormat {
    /// `id<TAB>label<TAB>probability` (for an uncalibrated SVM, a score: a softmax of its
    /// decision values, which ranks classes but is no probability), and with --explain a fourth
    /// column, `score S: bias B, TERM +C, ..., other terms +R`.
    Tsv,
    /// `{"schema_version", "id", "label", "probability", "scores": [{"label", "probability"}]}`
    /// per line ("score" instead of "probability" for an uncalibrated SVM), classes in rank
    /// order, and with --explain `"explanations": [{"label", "score", "bias", "terms": [{"term",
    /// "contribution"}], "other_terms"}]`; `{"schema_version", "id", "error"}` for input that
    /// could not be read.
    Jsonl,
}

/// Flags of `bowline classify`.
#[derive(Debug, Args)]
pub struct ClassifyArgs {
    /// A model written by `bowline train`.
    pub model: PathBuf,
    /// Files or folder trees of unlabeled documents, every file one document; none, or `-`,
    /// reads documents from stdin (one per line by default; see --input).
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "tsv")]
    pub format: ClassifyFormat,
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
    #[cfg(feature = "cluster")]
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// What shapes each result line, the same in every worker of a cluster.
#[derive(Debug, Clone)]
struct Choices {
    decide: Decision,
    format: ClassifyFormat,
    top: usize,
    explain: Option<usize>,
}

/// Runs the command.
pub fn run(args: ClassifyArgs) -> Result<Outcome> {
    let mut inputs: Vec<&std::path::Path> = args.paths.iter().map(PathBuf::as_path).collect();
    inputs.push(&args.model);
    bowline::io::refuse_overwriting_inputs(&args.output, &inputs)?;
    let classifier = TextClassifier::load(&args.model)?;
    super::multilabel::refuse_decision_flags(&classifier, &args.decision)?;
    let decide = args.decision.decision(classifier.labels())?;
    let from_stdin = args.paths.is_empty() || args.paths == [PathBuf::from("-")];
    let mut read = args.input.options()?;
    // A folder given to classify holds unlabeled documents, not classes.
    read.folder_format = InputFormat::Files;
    // In classify a TSV line is `id<TAB>text`: there is no label to read.
    read.tsv_ids = true;
    let pipeline = args.runtime.start()?;
    let choices = Choices {
        decide,
        format: args.format,
        top: args.top,
        explain: args.explain,
    };
    #[cfg(feature = "cluster")]
    if let Some(cluster) = args.cluster.cluster()? {
        if from_stdin {
            return Err(Error::Config(
                "cluster mode classifies files and corpora that every process can read, not stdin"
                    .into(),
            ));
        }
        let scoring = bowline::cluster::Scoring {
            model: args.model.clone(),
            inputs: args.paths.clone(),
            options: read,
            pipeline,
        };
        return classify_in_cluster(&cluster, &scoring, choices, &args);
    }
    let mut writer = ResultWriter::new(&classifier, choices);
    let mut output = Output::create(&args.output)?;
    let mut log = ReadLog::new(read.max_doc_bytes);
    let mut interrupted = None;
    if from_stdin {
        let stream = stream::stdin(&read, pipeline.batch_size)?;
        let stages = classifier.stages(read.max_doc_bytes, pipeline.is_fused());
        bowline::pipeline::run_channel(&pipeline, stream.items.clone(), stages, |batch| {
            for item in batch {
                log.note(&item.entry);
                if item.entry.is_document() {
                    classifier.probabilities(&item.counted, &mut writer.probabilities);
                }
                write(&mut output, writer.format(&item)?)?;
            }
            // Each result reaches a slow reader as soon as its batch is done.
            output.flush().map_err(|e| output.error(e))
        })?;
        interrupted = stream.interrupted_by();
    } else {
        let progress = progress_bar();
        log.print_through(progress.clone());
        let mut chained: Vec<Entries> = Vec::new();
        for path in &args.paths {
            chained.push(bowline::flow::open(path, &read)?.0);
        }
        let source = Source {
            name: args.paths[0].clone(),
            entries: Box::new(chained.into_iter().flatten()),
            classes: Vec::new(),
            max_doc_bytes: read.max_doc_bytes,
        };
        let mut reading = super::reading(pipeline, &mut log);
        classifier.classify(source, &mut reading, |item, probabilities| {
            progress.inc(1);
            if let Some(probabilities) = probabilities {
                writer.probabilities.copy_from_slice(probabilities);
            }
            write(&mut output, writer.format(item)?)
        })?;
        progress.finish_and_clear();
    }
    output.commit()?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
    }
    Ok(match interrupted {
        Some(signal) => Outcome::Interrupted(signal),
        None => log.outcome(),
    })
}

/// Writes one entry's result.
fn write(output: &mut Output, line: &[u8]) -> Result<()> {
    output.write_all(line).map_err(|e| output.error(e))
}

/// `classify` in cluster mode: every process reads the inputs, each worker classifies the
/// documents it owns, and process 0 writes every result in input order.
#[cfg(feature = "cluster")]
fn classify_in_cluster(
    cluster: &bowline::cluster::Cluster,
    scoring: &bowline::cluster::Scoring,
    choices: Choices,
    args: &ClassifyArgs,
) -> Result<Outcome> {
    let agreed = vec![("the output".to_string(), format!("{choices:?}"))];
    // Created first, so that an output that cannot be written stops the run before any work.
    let output = (cluster.process == 0)
        .then(|| Output::create(&args.output))
        .transpose()?;
    let classify = |note| {
        bowline::cluster::classify(cluster, scoring, agreed, note, move |classifier| {
            let mut writer = ResultWriter::new(classifier, choices.clone());
            let format: bowline::cluster::Format = Box::new(move |item, probabilities, out| {
                if let Some(probabilities) = probabilities {
                    writer.probabilities.copy_from_slice(probabilities);
                }
                out.extend_from_slice(writer.format(item)?);
                Ok(())
            });
            Ok(format)
        })
    };
    let logging = (scoring.options.max_doc_bytes, args.runtime.quiet);
    super::cluster::run_logged(cluster, logging, classify, |results| {
        let Some(mut output) = output else {
            return Ok(());
        };
        for line in results {
            write(&mut output, &line)?;
        }
        output.commit()
    })
}

/// Formats one result per entry.
struct ResultWriter<'m> {
    labels: &'m [String],
    decide: Decision,
    format: ClassifyFormat,
    top: usize,
    /// With --explain: the terms to show, and the classifier that explains.
    explain: Option<(usize, &'m TextClassifier)>,
    /// The class probabilities of the entry being written, when it is a document.
    probabilities: Vec<f64>,
    /// Whether they are probabilities in earnest, or an uncalibrated SVM's scores.
    probabilistic: bool,
    /// A multi-label model's decision: every label above its threshold is written.
    multi: Option<&'m MultiLabelClassifier>,
    line: Vec<u8>,
}

impl<'m> ResultWriter<'m> {
    fn new(classifier: &'m TextClassifier, choices: Choices) -> Self {
        ResultWriter {
            labels: classifier.labels(),
            decide: choices.decide,
            format: choices.format,
            top: choices.top,
            explain: choices.explain.map(|k| (k, classifier)),
            probabilities: vec![0.0; classifier.labels().len()],
            probabilistic: classifier.model().classifier.gives_probabilities(),
            multi: classifier.model().classifier.multi_label(),
            line: Vec::new(),
        }
    }

    /// The result line for one entry: its class, or in jsonl the reason it has none (nothing
    /// for an entry skipped for another reason).
    fn format(&mut self, item: &Analyzed) -> Result<&[u8]> {
        self.line.clear();
        let entry = &item.entry;
        match &entry.skip {
            None if self.multi.is_some() => {
                let chosen = self
                    .multi
                    .map_or(Vec::new(), |m| m.decision.predict(&self.probabilities));
                let explanations = self.explain.map(|(k, classifier)| {
                    let explain =
                        |&c: &usize| classifier.explanation_in(&item.counted, &item.terms, c, k);
                    chosen.iter().map(explain).collect::<Vec<_>>()
                });
                let (labels, scores) = (self.labels, &self.probabilities);
                let given = chosen.into_iter().map(|c| (labels[c].as_str(), scores[c]));
                let json = self.format == ClassifyFormat::Jsonl;
                let line = &mut self.line;
                super::multilabel::format_labels(line, &entry.doc.id, given, explanations, json)?;
            }
            None => {
                let best = self.decide.decide(&self.probabilities);
                let explanation = self.explain.map(|(k, classifier)| {
                    classifier.explanation_in(&item.counted, &item.terms, best, k)
                });
                self.format_result(&entry.doc.id, best, explanation)?;
            }
            Some(Skip::Failed(error)) if self.format == ClassifyFormat::Jsonl => {
                let failure = Failure {
                    id: failed_id(&entry.doc.id, error),
                    error: error.to_string(),
                };
                super::json_line(&mut self.line, &failure)?;
            }
            Some(_) => {}
        }
        Ok(&self.line)
    }

    fn format_result(
        &mut self,
        id: &str,
        best: usize,
        explanation: Option<Explanation>,
    ) -> Result<()> {
        let (label, value) = (&self.labels[best], self.probabilities[best]);
        match self.format {
            ClassifyFormat::Tsv => {
                let id = escaped(id);
                write!(self.line, "{id}\t{label}\t{value:.6}").map_err(|e| Error::io("-", e))?;
                if let Some(explanation) = explanation {
                    let column = escaped(&explained(&explanation));
                    write!(self.line, "\t{column}").map_err(|e| Error::io("-", e))?;
                }
                self.line.push(b'\n');
                Ok(())
            }
            ClassifyFormat::Jsonl => {
                let scores = &self.probabilities;
                let mut ranked: Vec<usize> = (0..scores.len()).collect();
                ranked.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
                ranked.truncate(self.top);
                let (probability, score) = named(value, self.probabilistic);
                let result = JsonResult {
                    id,
                    label,
                    probability,
                    score,
                    explanations: explanation.map(|e| vec![e]),
                    scores: ranked
                        .iter()
                        .map(|&c| {
                            let (probability, score) = named(scores[c], self.probabilistic);
                            Ranked {
                                label: &self.labels[c],
                                probability,
                                score,
                            }
                        })
                        .collect(),
                };
                super::json_line(&mut self.line, &result)
            }
        }
    }
}

/// Tabs and newlines in a column would break the line; they are escaped.
fn escaped(text: &str) -> String {
    text.replace('\t', "\\t").replace('\n', "\\n")
}

/// An explanation as one readable column: `score S: bias B, TERM +C, ..., other terms +R`, whose
/// parts add up to the score. Every figure has the same decimals, four or more, enough to show
/// four significant digits of the largest (complement NB's scores are small fractions).
pub(crate) fn explained(explanation: &Explanation) -> String {
    let contributions = explanation.terms.iter().map(|t| t.contribution);
    let figures = [explanation.score, explanation.bias, explanation.other_terms];
    let largest = (contributions.clone().chain(figures))
        .map(f64::abs)
        .fold(0.0, f64::max);
    let decimals = if largest > 0.0 {
        (3 - largest.log10().floor() as i64).clamp(4, 12) as usize
    } else {
        4
    };
    let mut column = format!(
        "score {:.decimals$}: bias {:+.decimals$}",
        explanation.score, explanation.bias
    );
    for term in &explanation.terms {
        column += &format!(", {} {:+.decimals$}", term.term, term.contribution);
    }
    column + &format!(", other terms {:+.decimals$}", explanation.other_terms)
}

/// The id of an entry that failed: for a line error, the line number, as the line's id would
/// have been; otherwise the entry's id (a file path).
fn failed_id(id: &str, error: &Error) -> String {
    match error {
        Error::Line { line, .. } => line.to_string(),
        _ => id.to_string(),
    }
}

/// One document's result in jsonl: the chosen class and its value, and the top classes in rank
/// order. The values are called probabilities, or scores for an uncalibrated SVM.
#[derive(Serialize)]
struct JsonResult<'a> {
    id: &'a str,
    label: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    probability: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    scores: Vec<Ranked<'a>>,
    /// With --explain, the explanation of each class given (one, the decided class).
    #[serde(skip_serializing_if = "Option::is_none")]
    explanations: Option<Vec<Explanation>>,
}

/// A class and its value, in the ranking of a result.
#[derive(Serialize)]
struct Ranked<'a> {
    label: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    probability: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
}

/// `value` as a probability or as a score.
fn named(value: f64, probabilities: bool) -> (Option<f64>, Option<f64>) {
    if probabilities {
        (Some(value), None)
    } else {
        (None, Some(value))
    }
}

#[derive(Serialize)]
struct Failure {
    id: String,
    error: String,
}

/// A document counter on stderr when it is a terminal, hidden otherwise.
fn progress_bar() -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    counted(indicatif::ProgressBar::new_spinner())
}

/// `bar` styled as a count of documents: "documents read: N (elapsed)", which reads well for
/// one document as for many, and claims no rate it cannot measure over a slow stream.
fn counted(bar: indicatif::ProgressBar) -> indicatif::ProgressBar {
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{spinner} documents read: {human_pos} ({elapsed})")
    {
        bar.set_style(style);
    }
    bar
}

#[cfg(test)]
mod tests {
    use indicatif::{InMemoryTerm, ProgressBar, ProgressDrawTarget};

    #[test]
    fn the_spinner_counts_documents_in_words_that_fit_one() {
        let term = InMemoryTerm::new(4, 80);
        let target = ProgressDrawTarget::term_like(Box::new(term.clone()));
        let bar = super::counted(ProgressBar::with_draw_target(None, target));
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
