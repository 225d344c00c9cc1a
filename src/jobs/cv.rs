//! `cv`: stratified k-fold cross-validation of a classifier on a labelled corpus, in this
//! process or across a cluster; or, with `--tune`, the search of settings by cross-validation
//! in this process.

use std::path::PathBuf;

use super::{Note, Placement};
use crate::classifier::{CvReport, TuneOptions, TuneOutcome};
use crate::corpus::ReadOptions;
use crate::error::Result;
use crate::flow::Source;
use crate::pipeline::PipelineConfig;
use crate::{Builder, Reading};

/// A `cv` run.
pub struct Cv {
    /// The classifier and its analysis and weighting, as given.
    pub builder: Builder,
    /// The labelled corpus.
    pub corpus: PathBuf,
    /// How the corpus is read.
    pub read: ReadOptions,
    /// Threads and batches.
    pub pipeline: PipelineConfig,
    /// Folds, at least 2.
    pub folds: usize,
    /// Seed of the fold assignment (a hash of each document's id).
    pub seed: u64,
    /// With options: search the settings by cross-validation (successive halving) instead of
    /// cross-validating the settings given.
    pub tune: Option<TuneOptions>,
}

/// What a `cv` run found.
pub enum CrossValidated {
    /// Each fold's figures, with their mean and spread.
    Folds(CvReport),
    /// The trials of a search, and the model of the best settings.
    Tuned(Box<TuneOutcome>),
}

impl Cv {
    /// Cross-validates where `placement` says, telling `note` of each entry read and, when
    /// tuning, `on_trial` of the trials done and planned after each. Returns the figures, or
    /// `None` on a cluster process other than 0, which writes nothing.
    pub fn run(
        &self,
        placement: &Placement,
        note: Note,
        on_trial: impl Fn(usize, usize) + Sync,
    ) -> Result<Option<CrossValidated>> {
        match placement {
            Placement::Local => self.here(&note, on_trial).map(Some),
            #[cfg(feature = "cluster")]
            Placement::Cluster(cluster) => self.in_cluster(cluster, note),
        }
    }

    /// Cross-validates, or searches, in this process.
    fn here(&self, note: &Note, on_trial: impl Fn(usize, usize) + Sync) -> Result<CrossValidated> {
        let source = Source::open(&self.corpus, &self.read)?;
        let mut reading = Reading::new(self.pipeline.clone()).on_entry(|entry| note(entry));
        Ok(match &self.tune {
            Some(options) => {
                let outcome = self.builder.tune(source, &mut reading, options, on_trial)?;
                CrossValidated::Tuned(Box::new(outcome))
            }
            None => {
                let report =
                    self.builder
                        .cross_validate(source, &mut reading, self.folds, self.seed)?;
                CrossValidated::Folds(report)
            }
        })
    }

    /// Cross-validates across `cluster`: the workers read and count their documents, and
    /// process 0 fits and scores the folds on all of them.
    #[cfg(feature = "cluster")]
    fn in_cluster(
        &self,
        cluster: &crate::cluster::Cluster,
        note: Note,
    ) -> Result<Option<CrossValidated>> {
        // The cluster counts the corpus under one analysis, which a search would vary.
        if self.tune.is_some() {
            return Err(crate::Error::Config(
                "cluster mode cross-validates given settings; --tune runs in one process".into(),
            ));
        }
        let (runs, folds) = ((&self.read, &self.pipeline), (self.folds, self.seed));
        let builder = &self.builder;
        let report =
            crate::cluster::cross_validate(cluster, builder, &self.corpus, runs, folds, note)?;
        Ok(report.map(CrossValidated::Folds))
    }
}
