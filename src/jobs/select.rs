//! `select`: greedy forward feature selection against a dev set, and a model trained on the
//! features selected.

use std::path::PathBuf;

use super::Note;
use crate::classifier::{SelectOptions, SelectionOutcome};
use crate::corpus::ReadOptions;
use crate::error::Result;
use crate::flow::Source;
use crate::pipeline::PipelineConfig;
use crate::select::{Greedy, RankBy};
use crate::{Builder, Reading};

/// A `select` run.
pub struct Select {
    /// A labelled corpus: class folders, a .tsv or a .jsonl file.
    pub corpus: PathBuf,
    /// A separate labelled dev corpus instead of a split of the corpus.
    pub dev: Option<PathBuf>,
    /// A labelled test corpus, only reported at the end.
    pub test: Option<PathBuf>,
    /// The classifier, its analysis and its weighting.
    pub builder: Builder,
    /// The dev metric, and when to stop.
    pub greedy: Greedy,
    /// Candidates: the top terms of the ranking on the training part.
    pub candidates: usize,
    /// The ranking that picks the candidates.
    pub rank_by: RankBy,
    /// The share of each class held out as the dev set when there is no dev corpus.
    pub dev_split: f64,
    /// Seed of the dev split.
    pub seed: u64,
    /// Train the final model on train + dev instead of train alone.
    pub refit: bool,
    /// How the corpora are read.
    pub read: ReadOptions,
    /// Threads and batches.
    pub pipeline: PipelineConfig,
}

impl Select {
    /// Selects features, telling `note` of each entry read and `on_step` of each greedy step
    /// with its dev metric, and gives what was found with the model trained on them.
    pub fn run(self, note: Note, on_step: impl FnMut(usize, f64)) -> Result<SelectionOutcome> {
        let read = &self.read;
        let source = Source::open(&self.corpus, read)?;
        let open = |path: Option<PathBuf>| path.map(|p| Source::open(&p, read)).transpose();
        let options = SelectOptions {
            greedy: self.greedy,
            candidates: self.candidates,
            rank_by: self.rank_by,
            dev: open(self.dev)?,
            dev_split: self.dev_split,
            seed: self.seed,
            refit: self.refit,
            test: open(self.test)?,
        };
        let mut reading = Reading::new(self.pipeline).on_entry(|entry| note(entry));
        (self.builder).select(source, options, &mut reading, on_step)
    }
}
