//! Counting a corpus with a cluster: each worker counts the documents it owns, and process 0
//! adds them up, in input order, into the counts that one process reading the corpus has.

use std::collections::{BTreeSet, VecDeque};
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use super::classify::owned;
use super::{gather, Cluster, Note};
use crate::analyze::Analyzer;
use crate::corpus::ReadOptions;
use crate::error::{Error, Result};
use crate::pipeline::PipelineConfig;
use crate::report::settings::{analysis_flags, weighting_flags};
use crate::vectorize::{CountedCorpus, CountedShard, Fitter, VectorizerConfig};

/// One worker's documents, counted, as it sends them to process 0.
#[derive(Serialize, Deserialize)]
struct CountedPart {
    /// Each document's position in the input.
    positions: Vec<u64>,
    labels: Vec<Option<String>>,
    /// Each document's labels, all of them.
    label_sets: Vec<Vec<String>>,
    ids: Vec<String>,
    classes: Vec<String>,
    shard: CountedShard,
}

/// A corpus counted by a cluster, on process 0.
#[derive(Debug)]
pub(crate) struct GatheredCounts {
    /// What one process counting the corpus has.
    pub counts: CountedCorpus,
    /// Each document's labels, all of them, in input order.
    pub label_sets: Vec<Vec<String>>,
    /// Bytes of counted documents gathered at worker 0 of process 0, its own included.
    pub exchanged: u64,
}

/// [`crate::flow::count_corpus`] across `cluster` for `command` (which every process must run
/// alike): every process reads the corpus at `corpus`, each worker analyzes and counts the
/// documents it owns, and process 0 adds their counts in input order. On process 0 the result is what one process counting the corpus has, up to
/// provisional term ids (which fitting renumbers in term order) and its stage counters (empty);
/// `None` on the others. Process 0 holds every document's counts, as one process does.
pub(crate) fn count_corpus(
    cluster: &Cluster,
    (command, corpus): (&str, &Path),
    analyzer: &Analyzer,
    config: &VectorizerConfig,
    options: &ReadOptions,
    pipeline: &PipelineConfig,
    note: Note,
) -> Result<Option<GatheredCounts>> {
    let settings = vec![
        ("the command".to_string(), command.to_string()),
        ("the corpus".to_string(), corpus.display().to_string()),
        (
            "the analysis".to_string(),
            analysis_flags(analyzer.config()),
        ),
        ("the weighting".to_string(), weighting_flags(config)),
        // What the flags above leave out, such as a custom stop word list's words.
        (
            "the analysis in full".to_string(),
            format!("{:?}", analyzer.config()),
        ),
        ("the read options".to_string(), format!("{options:?}")),
    ];
    let inputs = vec![corpus.to_path_buf()];
    let (analyzer, work_config) = (analyzer.clone(), config.clone());
    let (options, pipeline) = (options.clone(), pipeline.clone());
    let gathered = gather(cluster, settings, move |shard| {
        let queued = Arc::new(Mutex::new(VecDeque::new()));
        let source = owned(&inputs, &options, shard, Arc::clone(&queued))?;
        let (mut positions, mut label_sets) = (Vec::new(), Vec::new());
        let counted =
            crate::flow::count_corpus(source, &analyzer, &work_config, &pipeline, |entry| {
                note(entry);
                let position = queued.lock().ok().and_then(|mut q| q.pop_front());
                if entry.is_document() {
                    positions.push(position);
                    label_sets.push(entry.doc.label_set());
                }
            })?;
        let positions = (positions.into_iter().collect::<Option<Vec<u64>>>())
            .ok_or_else(|| Error::Config("a document came without its position".into()))?;
        let part = CountedPart {
            positions,
            labels: counted.labels,
            label_sets,
            ids: counted.ids,
            classes: counted.classes,
            shard: counted.fitter.into_shard(),
        };
        postcard::to_allocvec(&part)
            .map_err(|e| Error::Config(format!("cannot encode the counts: {e}")))
    })?;
    let Some(payloads) = gathered else {
        return Ok(None);
    };
    let mut parts = Vec::with_capacity(payloads.len());
    for (worker, bytes) in payloads.iter().enumerate() {
        let part: CountedPart = postcard::from_bytes(bytes)
            .map_err(|e| Error::Config(format!("worker {worker}'s counts do not decode: {e}")))?;
        parts.push(part);
    }
    let exchanged = payloads.iter().map(|p| p.len() as u64).sum();
    let (counts, label_sets) = combined(parts, config)?;
    Ok(Some(GatheredCounts {
        counts,
        label_sets,
        exchanged,
    }))
}

/// The workers' counts added up in input order, with the documents' label sets.
type Combined = (CountedCorpus, Vec<Vec<String>>);

/// The workers' counts added up in input order.
fn combined(mut parts: Vec<CountedPart>, config: &VectorizerConfig) -> Result<Combined> {
    let mut order: Vec<(u64, usize, usize)> = (parts.iter().enumerate())
        .flat_map(|(p, part)| (part.positions.iter().enumerate()).map(move |(i, &at)| (at, p, i)))
        .collect();
    order.sort_unstable();
    let mut fitter = Fitter::new(config.clone())?;
    let mut ids = vec![Vec::new(); parts.len()];
    let (mut labels, mut names, mut sets) =
        (Vec::with_capacity(order.len()), Vec::new(), Vec::new());
    for &(_, p, i) in &order {
        let part = &mut parts[p];
        fitter.add_counted(&part.shard, i, &mut ids[p])?;
        let malformed = || Error::Config(format!("worker {p}'s document {i} has no label"));
        labels.push(part.labels.get_mut(i).ok_or_else(malformed)?.take());
        names.push(std::mem::take(part.ids.get_mut(i).ok_or_else(malformed)?));
        sets.push(std::mem::take(
            part.label_sets.get_mut(i).ok_or_else(malformed)?,
        ));
    }
    let classes: BTreeSet<String> = parts.iter_mut().flat_map(|p| p.classes.drain(..)).collect();
    let counts = CountedCorpus {
        fitter,
        labels,
        ids: names,
        classes: classes.into_iter().collect(),
        stats: Vec::new(),
    };
    Ok((counts, sets))
}
