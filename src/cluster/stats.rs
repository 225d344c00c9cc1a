//! Corpus statistics gathered by a cluster: each worker reduces the documents it owns, and
//! worker 0 of process 0 adds every reduction in input order.

use std::path::PathBuf;
use std::sync::Arc;

use super::classify::PER_INPUT;
use super::{gather, Cluster};
use crate::analyze::Analyzer;
use crate::corpus::{self, ReadOptions};
use crate::error::{Error, Result};
use crate::pipeline::PipelineConfig;
use crate::report::settings::analysis_flags;
use crate::report::stats::{observe, Collector, CorpusStats, Observation};

/// A pipeline's threads at most. Each corpus a worker reads runs a pipeline of its own, whose
/// threads number their terms afresh, so a reducing thread is named by the corpus and the worker
/// (times this) plus its own number.
const THREADS_PER_PIPELINE: u64 = 1 << 20;

/// The statistics of `corpora`, read by every process and each document reduced by the worker
/// that owns it, as one process reading them in order gives them: on process 0, `None` on the
/// others. `note` is told of every entry this process reads.
pub fn stats(
    cluster: &Cluster,
    corpora: &[PathBuf],
    analyzer: &Analyzer,
    options: &ReadOptions,
    pipeline: &PipelineConfig,
    note: super::Note,
) -> Result<Option<CorpusStats>> {
    let paths: Vec<String> = corpora.iter().map(|p| p.display().to_string()).collect();
    let settings = vec![
        ("the command".to_string(), "stats".to_string()),
        ("the corpora".to_string(), paths.join(", ")),
        (
            "the analysis".to_string(),
            analysis_flags(analyzer.config()),
        ),
        // What the flags above leave out, such as a custom stop word list's words.
        (
            "the analysis in full".to_string(),
            format!("{:?}", analyzer.config()),
        ),
        ("the read options".to_string(), format!("{options:?}")),
    ];
    let (corpora, work_analyzer) = (corpora.to_vec(), analyzer.clone());
    let (options, pipeline) = (options.clone(), pipeline.clone());
    let gathered = gather(cluster, settings, move |shard| {
        let mut observations = Vec::new();
        for (number, path) in corpora.iter().enumerate() {
            let (entries, _) = corpus::open(path, &options)?;
            let first = number as u64 * PER_INPUT;
            let owned = (entries.enumerate())
                .map(move |(i, entry)| (first + i as u64, entry))
                .filter(move |(_, entry)| shard.owns(&entry.doc.id));
            let note = Arc::clone(&note);
            let pipeline_number = number as u64 * shard.peers as u64 + shard.index as u64;
            let base = pipeline_number * THREADS_PER_PIPELINE;
            let limit = options.max_doc_bytes;
            let reduced = observe(owned, base, &work_analyzer, &pipeline, limit, |e| note(e))?;
            observations.extend(reduced);
        }
        postcard::to_allocvec(&observations)
            .map_err(|e| Error::Config(format!("cannot encode the statistics: {e}")))
    })?;
    let Some(payloads) = gathered else {
        return Ok(None);
    };
    let mut all = Vec::new();
    for (worker, bytes) in payloads.iter().enumerate() {
        let part: Vec<Observation> = postcard::from_bytes(bytes).map_err(|e| {
            Error::Config(format!("worker {worker}'s statistics do not decode: {e}"))
        })?;
        all.extend(part);
    }
    let mut collector = Collector::new(analyzer.config().clone());
    collector.add_observations(all);
    Ok(Some(collector.finish()))
}
