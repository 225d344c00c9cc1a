//! Fitting a whole corpus: reading, analysis and counting on the pipeline, then the vocabulary.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::{Duration, Instant};

use super::{fit_stages, FittedVectorizer, Fitter, Matrix, VectorizerConfig};
use crate::analyze::{run_stages, Analyzer};
use crate::corpus::{self, Entry, ReadOptions};
use crate::error::{Error, Result};
use crate::pipeline::{PipelineConfig, StageStats};

/// A corpus turned into a fitted vectorizer and its training matrix.
#[derive(Debug)]
pub struct FittedCorpus {
    /// The vocabulary, document frequencies and configuration.
    pub vectorizer: FittedVectorizer,
    /// One weighted row per document, in input order.
    pub matrix: Matrix,
    /// Each row's label, as the input gave it.
    pub labels: Vec<Option<String>>,
    /// Each row's document id (the path below the root, or the line number).
    pub ids: Vec<String>,
    /// The class names: the class folders, or else the distinct labels in byte order.
    pub classes: Vec<String>,
    /// Per-stage pipeline counters.
    pub stats: Vec<StageStats>,
    /// Time to read, analyze and count, then to build the vocabulary and matrix.
    pub phases: (Duration, Duration),
}

impl FittedCorpus {
    /// Each row's class as a position in [`FittedCorpus::classes`].
    pub fn class_ids(&self) -> Vec<Option<usize>> {
        let position = |label: &String| self.classes.iter().position(|c| c == label);
        self.labels
            .iter()
            .map(|l| l.as_ref().and_then(position))
            .collect()
    }

    /// Each row's class id, for learning from the corpus at `path` (named in errors, as is
    /// `purpose`): every document needs a label, and there must be two classes or more.
    pub fn training_ids(&self, path: &Path, purpose: &str) -> Result<Vec<u32>> {
        let ids: Option<Vec<u32>> = self
            .class_ids()
            .iter()
            .map(|id| id.map(|c| c as u32))
            .collect();
        let ids = ids.ok_or_else(|| {
            Error::input(path, format!("{purpose} needs a label on every document"))
        })?;
        if self.classes.len() < 2 {
            let message = format!("{purpose} needs at least two classes");
            return Err(Error::input(path, message));
        }
        Ok(ids)
    }
}

/// Reads, analyzes and vectorizes the corpus at `path`, calling `on_entry` with every entry (in
/// input order) so the caller can report warnings and count.
pub fn fit_corpus(
    path: &Path,
    read: &ReadOptions,
    analyzer: &Analyzer,
    config: &VectorizerConfig,
    pipeline: &PipelineConfig,
    mut on_entry: impl FnMut(&Entry),
) -> Result<FittedCorpus> {
    if analyzer.config().ngram_max > 1 {
        crate::memory::return_freed_pages_at_once();
    }
    let (entries, folders) = corpus::open(path, read)?;
    let started = Instant::now();
    let mut fitter = Fitter::new(config.clone())?;
    let (mut labels, mut ids) = (Vec::new(), Vec::new());
    let (interner, rows) = fitter.parts();
    let fused = pipeline.is_fused();
    let stages = fit_stages(analyzer, interner, read.max_doc_bytes, fused);
    let stats = run_stages(entries, pipeline, stages, |item| {
        on_entry(&item.entry);
        if item.entry.is_document() {
            rows.push(item.counted);
            labels.push(item.entry.doc.label);
            ids.push(item.entry.doc.id);
        }
        Ok(())
    })?;
    let analyzed = started.elapsed();
    let (vectorizer, matrix) = fitter.finish(analyzer.config().clone())?;
    let classes = if folders.is_empty() {
        let distinct: BTreeSet<&String> = labels.iter().flatten().collect();
        distinct.into_iter().cloned().collect()
    } else {
        folders
    };
    Ok(FittedCorpus {
        vectorizer,
        matrix,
        labels,
        ids,
        classes,
        stats,
        phases: (analyzed, started.elapsed() - analyzed),
    })
}
