//! Fitting a whole corpus: reading, analysis and counting on the pipeline, then the vocabulary.

use std::collections::BTreeSet;
use std::path::Path;

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
}

/// A corpus read, analyzed and counted: the fitter holds the counts, ready to be finished.
#[derive(Debug)]
pub struct CountedCorpus {
    /// The counts over provisional ids, with the interner that gave them.
    pub fitter: Fitter,
    /// Each document's label, as the input gave it.
    pub labels: Vec<Option<String>>,
    /// Each document's id (the path below the root, or the line number).
    pub ids: Vec<String>,
    /// The class names: the class folders, or else the distinct labels in byte order.
    pub classes: Vec<String>,
    /// Per-stage pipeline counters.
    pub stats: Vec<StageStats>,
}

impl FittedCorpus {
    /// Each row's class as a position in [`FittedCorpus::classes`].
    pub fn class_ids(&self) -> Vec<Option<usize>> {
        class_ids(&self.labels, &self.classes)
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

impl CountedCorpus {
    /// Each document's class as a position in [`CountedCorpus::classes`].
    pub fn class_ids(&self) -> Vec<Option<usize>> {
        class_ids(&self.labels, &self.classes)
    }
}

/// The position of each label in `classes`.
fn class_ids(labels: &[Option<String>], classes: &[String]) -> Vec<Option<usize>> {
    let position = |label: &String| classes.iter().position(|c| c == label);
    labels
        .iter()
        .map(|l| l.as_ref().and_then(position))
        .collect()
}

/// Reads, analyzes and vectorizes the corpus at `path`, calling `on_entry` with every entry (in
/// input order) so the caller can report warnings and count.
pub fn fit_corpus(
    path: &Path,
    read: &ReadOptions,
    analyzer: &Analyzer,
    config: &VectorizerConfig,
    pipeline: &PipelineConfig,
    on_entry: impl FnMut(&Entry),
) -> Result<FittedCorpus> {
    let counted = count_corpus(path, read, analyzer, config, pipeline, on_entry)?;
    let (vectorizer, matrix) = counted.fitter.finish(analyzer.config().clone())?;
    Ok(FittedCorpus {
        vectorizer,
        matrix,
        labels: counted.labels,
        ids: counted.ids,
        classes: counted.classes,
        stats: counted.stats,
    })
}

/// Reads, analyzes and counts the corpus at `path`, the part of [`fit_corpus`] before the
/// vocabulary is pruned, calling `on_entry` as it does.
pub fn count_corpus(
    path: &Path,
    read: &ReadOptions,
    analyzer: &Analyzer,
    config: &VectorizerConfig,
    pipeline: &PipelineConfig,
    mut on_entry: impl FnMut(&Entry),
) -> Result<CountedCorpus> {
    if analyzer.config().ngram_max > 1 {
        crate::memory::return_freed_pages_at_once();
    }
    let (entries, folders) = corpus::open(path, read)?;
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
    let classes = if folders.is_empty() {
        let distinct: BTreeSet<&String> = labels.iter().flatten().collect();
        distinct.into_iter().cloned().collect()
    } else {
        folders
    };
    Ok(CountedCorpus {
        fitter,
        labels,
        ids,
        classes,
        stats,
    })
}
