//! A whole corpus counted or fitted, with its labels and ids; [`crate::flow::fit_corpus`] makes
//! one from a corpus on disk.

use std::path::Path;

use super::{FittedVectorizer, Fitter, Matrix};
use crate::analyze::AnalyzerConfig;
use crate::error::{Error, Result};
use crate::pipeline::StageStats;

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
pub(crate) struct CountedCorpus {
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
    pub(crate) fn class_ids(&self) -> Vec<Option<usize>> {
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
    /// Prunes the vocabulary and builds the weighted training matrix (see [`Fitter::finish`]).
    pub(crate) fn finish(self, analyzer: AnalyzerConfig) -> Result<FittedCorpus> {
        let (vectorizer, matrix) = self.fitter.finish(analyzer)?;
        Ok(FittedCorpus {
            vectorizer,
            matrix,
            labels: self.labels,
            ids: self.ids,
            classes: self.classes,
            stats: self.stats,
        })
    }

    /// Each document's class as a position in [`CountedCorpus::classes`].
    pub(crate) fn class_ids(&self) -> Vec<Option<usize>> {
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
