//! Classifying and evaluating with a cluster: each worker loads the model and scores the
//! documents it owns; process 0 puts every document's result back in input order.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use super::{gather, Cluster, Note, Settings, Shard};
use crate::classifier::{Evaluation, Reading, Tally, TextClassifier};
use crate::corpus::{Entry, ReadOptions};
use crate::error::{Error, Result};
use crate::eval::ScoreKind;
use crate::flow::{Analyzed, Source};
use crate::model::{Decision, Model};
use crate::pipeline::PipelineConfig;

/// Entries of one input at most; an entry's position is its input's number times this plus
/// its place in the input.
pub(super) const PER_INPUT: u64 = 1 << 40;

/// How a worker writes the result of one entry it classified (a document with its class
/// probabilities, or an entry that could not be read, without): made once per worker, from
/// the model that worker loaded.
pub type Format<'c> = Box<dyn FnMut(&Analyzed, Option<&[f64]>, &mut Vec<u8>) -> Result<()> + 'c>;

/// A model and the inputs a cluster scores with it; every process must name the same.
#[derive(Debug, Clone)]
pub struct Scoring {
    /// The model file.
    pub model: PathBuf,
    /// Corpora or folder trees of documents, in order.
    pub inputs: Vec<PathBuf>,
    /// How they are read.
    pub options: ReadOptions,
    /// Each worker's pipeline.
    pub pipeline: PipelineConfig,
}

/// Classifies the documents of `scoring.inputs` across `cluster`, each document by the worker
/// that owns it, whose `format` writes its result. Returns, on process 0, every entry's bytes
/// in input order (the inputs in the order given, the entries of each as one process reads
/// them), each entry exactly once; `None` on the others. `agreed` names what else every
/// process must share (such as the output format); `note` is told of every entry this process
/// reads. Process 0 holds every result before returning them.
pub fn classify<F>(
    cluster: &Cluster,
    scoring: &Scoring,
    agreed: Settings,
    note: Note,
    format: F,
) -> Result<Option<Vec<Vec<u8>>>>
where
    F: for<'c> Fn(&'c TextClassifier) -> Result<Format<'c>> + Send + Sync + 'static,
{
    let mut settings = scoring.settings("classify")?;
    settings.extend(agreed);
    let work_scoring = scoring.clone();
    let gathered = gather(cluster, settings, move |shard| {
        let classifier = TextClassifier::load(&work_scoring.model)?;
        let mut format = format(&classifier)?;
        let records = work_scoring.score(&classifier, shard, &note, |item, probabilities| {
            let mut bytes = Vec::new();
            format(item, probabilities, &mut bytes)?;
            Ok(bytes)
        })?;
        encode(&records)
    })?;
    let Some(payloads) = gathered else {
        return Ok(None);
    };
    let records: Vec<(u64, Vec<u8>)> = in_order(&payloads)?;
    Ok(Some(records.into_iter().map(|(_, bytes)| bytes).collect()))
}

/// One scored document, as a worker sends it to process 0 for an evaluation.
#[derive(Serialize, Deserialize)]
struct Scored {
    label: Option<String>,
    probabilities: Vec<f64>,
    /// Its decision values, when the curves rank by them.
    decision_values: Option<Vec<f64>>,
}

/// Evaluates the model of `scoring` on its labelled inputs across `cluster`: the workers score
/// the documents they own, and process 0 adds the scores up in input order with `decision`,
/// which gives exactly the figures of [`TextClassifier::evaluate`] (or, with `keep_scores`,
/// `TextClassifier::evaluate_with_scores`) in one process: on process 0, `None` on the
/// others. Single-label models only.
pub fn evaluate(
    cluster: &Cluster,
    scoring: &Scoring,
    decision: &Decision,
    keep_scores: bool,
    note: Note,
) -> Result<Option<Evaluation>> {
    let classifier = TextClassifier::load(&scoring.model)?;
    if classifier.is_multi_label() {
        return Err(Error::Config(
            "cluster mode evaluates single-label models; a multi-label model is evaluated in \
             one process"
                .into(),
        ));
    }
    let mut settings = scoring.settings("eval")?;
    settings.push(("the curves".into(), keep_scores.to_string()));
    let work_scoring = scoring.clone();
    let gathered = gather(cluster, settings, move |shard| {
        let classifier = TextClassifier::load(&work_scoring.model)?;
        let wants_decision_values =
            keep_scores && classifier.curve_score() == ScoreKind::DecisionValue;
        let mut values = vec![0.0; classifier.labels().len()];
        let records = work_scoring.score(&classifier, shard, &note, |item, probabilities| {
            let decision_values = wants_decision_values.then(|| {
                let row = &item.counted.row;
                let model = &classifier.model().classifier;
                model.scores(&row.indices, &row.values, &mut values);
                values.clone()
            });
            Ok(probabilities.map(|p| Scored {
                label: item.entry.doc.label.clone(),
                probabilities: p.to_vec(),
                decision_values,
            }))
        })?;
        encode(&records)
    })?;
    let Some(payloads) = gathered else {
        return Ok(None);
    };
    let mut tally = Tally::new(&classifier, decision, keep_scores);
    let records: Vec<(u64, Option<Scored>)> = in_order(&payloads)?;
    for scored in records.iter().filter_map(|(_, scored)| scored.as_ref()) {
        let values = scored.decision_values.as_deref().unwrap_or(&[]);
        tally.add(scored.label.as_deref(), &scored.probabilities, || values);
    }
    let name = (scoring.inputs.first()).map_or_else(PathBuf::new, PathBuf::clone);
    tally.finish(&name).map(Some)
}

impl Scoring {
    /// What every process running `command` must share: the model (by its header's checksums,
    /// so that processes given different files with one name refuse), the inputs and the
    /// options.
    fn settings(&self, command: &str) -> Result<Settings> {
        let paths: Vec<String> = self
            .inputs
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        let model = Model::fingerprint(&self.model)?;
        Ok(vec![
            ("the command".into(), command.into()),
            (
                "the model".into(),
                format!("{} (header {model})", self.model.display()),
            ),
            ("the inputs".into(), paths.join(", ")),
            ("the read options".into(), format!("{:?}", self.options)),
        ])
    }

    /// Scores the entries `shard` owns with `classifier` and returns what `record` makes of
    /// each, with its position in the input.
    fn score<T>(
        &self,
        classifier: &TextClassifier,
        shard: Shard,
        note: &Note,
        mut record: impl FnMut(&Analyzed, Option<&[f64]>) -> Result<T>,
    ) -> Result<Vec<(u64, T)>> {
        // The pipeline gives back every entry once, in the order it took them, so the k-th
        // result is the k-th owned entry: the reader queues positions, the results take them.
        let positions = Arc::new(Mutex::new(VecDeque::new()));
        let source = owned(&self.inputs, &self.options, shard, Arc::clone(&positions))?;
        let note = Arc::clone(note);
        let mut reading = Reading::new(self.pipeline.clone()).on_entry(move |e| note(e));
        let mut records = Vec::new();
        classifier.classify(source, &mut reading, |item, probabilities| {
            let position = (positions.lock().ok())
                .and_then(|mut queue| queue.pop_front())
                .ok_or_else(|| Error::Config("a result came without its document".into()))?;
            records.push((position, record(item, probabilities)?));
            Ok(())
        })?;
        Ok(records)
    }
}

/// The entries of `inputs` that `shard` owns, in order, each queueing its position in the
/// input (see [`PER_INPUT`]) in `positions` as it is read.
pub(super) fn owned(
    inputs: &[PathBuf],
    options: &ReadOptions,
    shard: Shard,
    positions: Arc<Mutex<VecDeque<u64>>>,
) -> Result<Source> {
    let mut chained = Vec::new();
    for (number, path) in inputs.iter().enumerate() {
        let (entries, classes) = crate::flow::open(path, options)?;
        let first = number as u64 * PER_INPUT;
        chained.push((
            entries.enumerate().map(move |(i, e)| (first + i as u64, e)),
            classes,
        ));
    }
    let classes = chained.first().map(|(_, c)| c.clone()).unwrap_or_default();
    let entries = (chained.into_iter().flat_map(|(entries, _)| entries))
        .filter(move |(_, entry): &(u64, Entry)| shard.owns(&entry.doc.id))
        .map(move |(position, entry)| {
            if let Ok(mut queue) = positions.lock() {
                queue.push_back(position);
            }
            entry
        });
    Ok(Source {
        name: inputs.first().map_or_else(PathBuf::new, PathBuf::clone),
        entries: Box::new(entries),
        classes,
        max_doc_bytes: options.max_doc_bytes,
    })
}

/// A worker's records as the bytes it sends.
fn encode<T: Serialize>(records: &[(u64, T)]) -> Result<Vec<u8>> {
    postcard::to_allocvec(records)
        .map_err(|e| Error::Config(format!("cannot encode the results: {e}")))
}

/// Every worker's records, decoded and sorted by their position in the input.
fn in_order<T: for<'de> Deserialize<'de>>(payloads: &[Vec<u8>]) -> Result<Vec<(u64, T)>> {
    let mut all = Vec::new();
    for (worker, bytes) in payloads.iter().enumerate() {
        let part: Vec<(u64, T)> = postcard::from_bytes(bytes)
            .map_err(|e| Error::Config(format!("worker {worker}'s results do not decode: {e}")))?;
        all.extend(part);
    }
    all.sort_unstable_by_key(|(position, _)| *position);
    Ok(all)
}
