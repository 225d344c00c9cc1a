//! `classify`: label documents with a model, from files and folder trees or from a stream, and
//! write one result per document in input order; and the answer to one text, as `serve` gives
//! it. The same decisions and the same renderer serve both.

use std::path::{Path, PathBuf};

use crossbeam_channel::Receiver;

use super::{Note, Output, Placement, Sink};
use crate::classifier::{Explanation, ScoredLabel};
use crate::corpus::{Entries, ReadOptions, Skip};
use crate::error::Result;
use crate::flow::{Analyzed, Source};
use crate::model::{Decision, MultiLabelClassifier};
use crate::pipeline::PipelineConfig;
use crate::render::{Decided, JsonPrediction, LineFormat, PredictionWriter};
use crate::{Reading, TextClassifier};

/// What shapes each result, the same in every worker of a cluster.
#[derive(Debug, Clone)]
pub struct Choices {
    /// How a class is chosen from the class values.
    pub decide: Decision,
    /// TSV or JSON lines.
    pub format: LineFormat,
    /// Classes ranked in a JSON result.
    pub top: usize,
    /// Explain each class given with this many terms.
    pub explain: Option<usize>,
}

/// Where the documents come from.
pub enum Documents {
    /// Files, folder trees and line files, in order, each resolved by [`crate::flow::open`].
    Paths(Vec<PathBuf>),
    /// Documents that arrive at their own pace (stdin); `None` or a closed channel ends them.
    /// Each batch's results are flushed as soon as it is done.
    Stream(Receiver<Option<Analyzed>>),
}

/// A `classify` run.
pub struct Classify {
    /// The model file.
    pub model: PathBuf,
    /// The documents.
    pub documents: Documents,
    /// How the documents are read.
    pub read: ReadOptions,
    /// Threads and batches.
    pub pipeline: PipelineConfig,
    /// How each result is shaped.
    pub choices: Choices,
}

impl Classify {
    /// Classifies every document where `placement` says into the file at `output` (`-` is
    /// stdout), created before any work so that one that cannot be written stops the run first;
    /// in a cluster, process 0 alone writes, and the file is whole or not there.
    pub fn run_into(self, placement: &Placement, note: Note, output: &Path) -> Result<()> {
        let mut output = placement
            .writes()
            .then(|| Output::create(output))
            .transpose()?;
        match output.as_mut() {
            Some(output) => self.run(placement, note, output)?,
            None => self.run(placement, note, &mut std::io::sink())?,
        }
        output.map_or(Ok(()), Output::commit)
    }

    /// Classifies every document where `placement` says, telling `note` of each entry read and
    /// writing each result to `sink`, in input order.
    pub fn run(self, placement: &Placement, note: Note, sink: &mut dyn Sink) -> Result<()> {
        match (placement, self.documents) {
            (Placement::Local, Documents::Paths(paths)) => {
                let classifier = TextClassifier::load(&self.model)?;
                let mut labeller = Labeller::new(&classifier, &self.choices)?;
                let source = sources(&paths, &self.read)?;
                let mut reading = Reading::new(self.pipeline).on_entry(|entry| note(entry));
                classifier.classify(source, &mut reading, |item, probabilities| {
                    sink.write(labeller.line(item, probabilities)?)
                })?;
                Ok(())
            }
            (Placement::Local, Documents::Stream(items)) => {
                let classifier = TextClassifier::load(&self.model)?;
                let run = Streamed {
                    classifier: &classifier,
                    choices: &self.choices,
                    pipeline: &self.pipeline,
                    max_doc_bytes: self.read.max_doc_bytes,
                };
                run.classify(items, &*note, sink)
            }
            #[cfg(feature = "cluster")]
            (Placement::Cluster(cluster), Documents::Paths(inputs)) => {
                let scoring = crate::cluster::Scoring {
                    model: self.model,
                    inputs,
                    options: self.read,
                    pipeline: self.pipeline,
                };
                in_cluster(cluster, &scoring, self.choices, note, sink)
            }
            #[cfg(feature = "cluster")]
            (Placement::Cluster(_), Documents::Stream(_)) => Err(crate::Error::Config(
                "cluster mode classifies files and corpora that every process can read, not stdin"
                    .into(),
            )),
        }
    }
}

/// The inputs' entries chained, in order, as one source.
pub(crate) fn sources(paths: &[PathBuf], read: &ReadOptions) -> Result<Source> {
    let mut chained: Vec<Entries> = Vec::new();
    for path in paths {
        chained.push(crate::flow::open(path, read)?.0);
    }
    Ok(Source {
        name: paths.first().cloned().unwrap_or_default(),
        entries: Box::new(chained.into_iter().flatten()),
        classes: Vec::new(),
        max_doc_bytes: read.max_doc_bytes,
    })
}

/// A stream classified on the pipeline's threads as its documents arrive.
struct Streamed<'a> {
    classifier: &'a TextClassifier,
    choices: &'a Choices,
    pipeline: &'a PipelineConfig,
    max_doc_bytes: u64,
}

impl Streamed<'_> {
    fn classify(
        &self,
        items: Receiver<Option<Analyzed>>,
        note: &dyn Fn(&crate::corpus::Entry),
        sink: &mut dyn Sink,
    ) -> Result<()> {
        let classifier = self.classifier;
        let mut labeller = Labeller::new(classifier, self.choices)?;
        let mut probabilities = vec![0.0; classifier.labels().len()];
        let stages = classifier.stages(self.max_doc_bytes, self.pipeline.is_fused());
        crate::pipeline::run_channel(self.pipeline, items, stages, |batch| {
            for item in batch {
                note(&item.entry);
                let values = item.entry.is_document().then(|| {
                    classifier.probabilities(&item.counted, &mut probabilities);
                    &probabilities[..]
                });
                sink.write(labeller.line(&item, values)?)?;
            }
            // Each result reaches a slow reader as soon as its batch is done.
            sink.flush()
        })?;
        Ok(())
    }
}

/// `classify` across a cluster: every process reads the inputs, each worker classifies the
/// documents it owns, and process 0 writes every result in input order.
#[cfg(feature = "cluster")]
fn in_cluster(
    cluster: &crate::cluster::Cluster,
    scoring: &crate::cluster::Scoring,
    choices: Choices,
    note: Note,
    sink: &mut dyn Sink,
) -> Result<()> {
    let agreed = vec![("the output".to_string(), format!("{choices:?}"))];
    let results = crate::cluster::classify(cluster, scoring, agreed, note, move |classifier| {
        let mut labeller = Labeller::new(classifier, &choices)?;
        let format: crate::cluster::Format = Box::new(move |item, probabilities, out| {
            out.extend_from_slice(labeller.line(item, probabilities)?);
            Ok(())
        });
        Ok(format)
    })?;
    for line in results.into_iter().flatten() {
        sink.write(&line)?;
    }
    Ok(())
}

/// Decides each entry's class (or labels) and explanation, and writes its result line.
pub(crate) struct Labeller<'m> {
    classifier: &'m TextClassifier,
    decide: Decision,
    explain: Option<usize>,
    /// A multi-label model's decision: every label above its threshold is given.
    multi: Option<&'m MultiLabelClassifier>,
    writer: PredictionWriter,
}

impl<'m> Labeller<'m> {
    /// A labeller of `classifier`'s results, shaped by `choices`; explanations of a classifier
    /// that has none by term are refused before any document is read.
    pub(crate) fn new(classifier: &'m TextClassifier, choices: &Choices) -> Result<Self> {
        if choices.explain.is_some() {
            classifier.model().classifier.check_explainable()?;
        }
        let probabilistic = classifier.model().classifier.gives_probabilities();
        let (format, top) = (choices.format, choices.top);
        Ok(Labeller {
            classifier,
            decide: choices.decide.clone(),
            explain: choices.explain,
            multi: classifier.model().classifier.multi_label(),
            writer: PredictionWriter::new(classifier.labels(), format, top, probabilistic),
        })
    }

    /// The result line of one entry, whose class values are `values` when it is a document.
    pub(crate) fn line(&mut self, item: &Analyzed, values: Option<&[f64]>) -> Result<&[u8]> {
        let entry = &item.entry;
        let values = values.unwrap_or(&[]);
        let decided = match (&entry.skip, self.multi) {
            (None, Some(multi)) => {
                let chosen = multi.decision.predict(values);
                let explanations = self
                    .explain
                    .map(|k| chosen.iter().map(|&c| self.explained(item, c, k)).collect());
                Decided::Labels {
                    chosen,
                    explanations,
                }
            }
            (None, None) => {
                let best = self.decide.decide(values);
                let explanation = self.explain.map(|k| self.explained(item, best, k));
                Decided::Class { best, explanation }
            }
            (Some(Skip::Failed(error)), _) => Decided::Failed(error),
            (Some(_), _) => Decided::Nothing,
        };
        self.writer.line(&entry.doc.id, decided, values)
    }

    fn explained(&self, item: &Analyzed, class: usize, k: usize) -> Explanation {
        self.classifier
            .explanation_in(&item.counted, &item.terms, class, k)
    }
}

/// How `serve` answers each document of a request.
#[derive(Debug, Clone, Copy)]
pub struct Asked {
    /// Classes ranked in the answer.
    pub top_k: usize,
    /// No label when the top class's value is below it.
    pub threshold: Option<f64>,
    /// Explain the top class with this many terms.
    pub explain: Option<usize>,
}

/// The answer to one text, as `serve` gives it: the top class (none below the threshold), the
/// `top_k` classes ranked, a multi-label model's labels, and the explanation asked for.
pub fn answer<'a>(
    classifier: &'a TextClassifier,
    predictor: &mut crate::classifier::Predictor,
    (id, text): (Option<&'a str>, &str),
    asked: Asked,
) -> JsonPrediction<'a> {
    // One analysis serves the prediction, the labels and the explanation alike.
    let counted = predictor.vectorize(text);
    let labels = classifier.labels();
    let mut values = vec![0.0; labels.len()];
    classifier.probabilities(counted, &mut values);
    let best = crate::model::decision::argmax(values.iter().copied());
    let probabilistic = classifier.model().classifier.gives_probabilities();
    let mut prediction =
        JsonPrediction::new(id, labels, &values, best, (asked.top_k, probabilistic));
    if asked.threshold.is_some_and(|t| values[best] < t) {
        prediction.label = None;
    }
    prediction.labels = classifier
        .is_multi_label()
        .then(|| label_set(classifier, counted));
    prediction.explanation = asked
        .explain
        .map(|k| classifier.explain_counted(counted, text, k));
    prediction
}

fn label_set(classifier: &TextClassifier, counted: &crate::vectorize::Counted) -> Vec<ScoredLabel> {
    let mut scores = vec![0.0; classifier.labels().len()];
    classifier.labels_of(&counted.row, &mut scores)
}
