//! Fitting a whole corpus: reading, analysis and counting on the pipeline, then the vocabulary.

use std::collections::BTreeSet;

use super::{fit_stages, hashed_fit_stages, run_stages, Analyzed, Source};
use crate::analyze::Analyzer;
use crate::corpus::Entry;
use crate::error::Result;
use crate::pipeline::{PipelineConfig, StageStats};
use crate::vectorize::{CountRows, CountedCorpus, FittedCorpus, Fitter, VectorizerConfig};

/// Reads, analyzes and vectorizes the documents of `source`, calling `on_entry` with every entry
/// (in input order) so the caller can report warnings and count.
pub fn fit_corpus(
    source: Source,
    analyzer: &Analyzer,
    config: &VectorizerConfig,
    pipeline: &PipelineConfig,
    on_entry: impl FnMut(&Entry),
) -> Result<FittedCorpus> {
    let counted = count_corpus(source, analyzer, config, pipeline, on_entry)?;
    counted.finish(analyzer.config().clone())
}

/// The class names of a corpus without class folders: its distinct labels in byte order.
pub(crate) fn distinct_labels<'a>(labels: impl IntoIterator<Item = &'a String>) -> Vec<String> {
    let distinct: BTreeSet<&String> = labels.into_iter().collect();
    distinct.into_iter().cloned().collect()
}

/// Reads, analyzes and counts the documents of `source`, the part of [`fit_corpus`] before the
/// vocabulary is pruned, calling `on_entry` as it does.
pub(crate) fn count_corpus(
    source: Source,
    analyzer: &Analyzer,
    config: &VectorizerConfig,
    pipeline: &PipelineConfig,
    on_entry: impl FnMut(&Entry),
) -> Result<CountedCorpus> {
    let (mut labels, mut ids) = (Vec::new(), Vec::new());
    let folders = source.classes.clone();
    let (fitter, stats) = fit_documents(
        source,
        analyzer,
        config,
        pipeline,
        on_entry,
        |rows, item| {
            rows.push(item.counted);
            labels.push(item.entry.doc.label);
            ids.push(item.entry.doc.id);
        },
    )?;
    let classes = if folders.is_empty() {
        distinct_labels(labels.iter().flatten())
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

/// What a first pass over a corpus learns while keeping none of its documents: the statistics
/// its vocabulary is fitted from, its classes, and whether every document has exactly one label.
#[derive(Debug)]
pub(crate) struct Survey {
    /// Document frequencies and totals over provisional ids, with no rows kept.
    pub fitter: Fitter,
    /// The class folders, or else the distinct labels, sorted.
    pub classes: Vec<String>,
    /// Whether some document has no label.
    pub unlabelled: bool,
    /// Whether some document has several labels.
    pub several_labels: bool,
}

/// Reads, analyzes and counts the documents of `source` into a [`Survey`], calling `on_entry` as
/// [`fit_corpus`] does. Its memory follows the vocabulary and the labels, not the documents.
pub(crate) fn survey_corpus(
    source: Source,
    analyzer: &Analyzer,
    config: &VectorizerConfig,
    pipeline: &PipelineConfig,
    on_entry: impl FnMut(&Entry),
) -> Result<Survey> {
    let (mut labels, mut unlabelled, mut several_labels) = (BTreeSet::new(), false, false);
    let folders = source.classes.clone();
    let (fitter, _) = fit_documents(
        source,
        analyzer,
        config,
        pipeline,
        on_entry,
        |rows, item| {
            rows.count(&item.counted);
            let set = item.entry.doc.label_set();
            unlabelled |= set.is_empty();
            several_labels |= set.len() > 1;
            labels.extend(set);
        },
    )?;
    let classes = if folders.is_empty() {
        labels.into_iter().collect()
    } else {
        folders
    };
    Ok(Survey {
        fitter,
        classes,
        unlabelled,
        several_labels,
    })
}

/// Runs the documents of `source` through the fitting stages on a new fitter, calling
/// `on_entry` with every entry and `each` with every document, in input order, with the
/// fitter's rows to add it to: what [`count_corpus`] and [`survey_corpus`] share.
fn fit_documents(
    source: Source,
    analyzer: &Analyzer,
    config: &VectorizerConfig,
    pipeline: &PipelineConfig,
    mut on_entry: impl FnMut(&Entry),
    mut each: impl FnMut(&mut CountRows, Analyzed),
) -> Result<(Fitter, Vec<StageStats>)> {
    let mut fitter = Fitter::new(config.clone())?;
    let hashing = fitter.hashing();
    let (interner, rows) = fitter.parts();
    let (max_doc_bytes, fused) = (source.max_doc_bytes, pipeline.is_fused());
    let stages = match hashing {
        Some(hashing) => hashed_fit_stages(analyzer, hashing, max_doc_bytes, fused),
        None => fit_stages(analyzer, interner, max_doc_bytes, fused),
    };
    let stats = run_stages(source.entries, pipeline, stages, |item| {
        on_entry(&item.entry);
        if item.entry.is_document() {
            each(rows, item);
        }
        Ok(())
    })?;
    Ok((fitter, stats))
}
