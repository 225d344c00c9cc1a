//! `eval`: a model's figures on a labelled corpus, in this process or across a cluster, with
//! every document's scores kept for the curves when asked.

use std::path::PathBuf;

use super::{Note, Placement};
use crate::classifier::Evaluation;
use crate::corpus::ReadOptions;
use crate::error::Result;
use crate::flow::Source;
use crate::model::Decision;
use crate::pipeline::PipelineConfig;
use crate::render::evaluation::{Evaluated, Figures};
use crate::{Reading, TextClassifier};

/// Bins of the reliability diagram.
const RELIABILITY_BINS: usize = 10;

/// An `eval` run.
pub struct Eval<'a> {
    /// The model, loaded: a front end loads it first, to check its decision flags against the
    /// model's classes.
    pub classifier: &'a TextClassifier,
    /// The file the model was loaded from, which a cluster's processes load.
    pub model: PathBuf,
    /// The labelled corpus.
    pub corpus: PathBuf,
    /// How the corpus is read.
    pub read: ReadOptions,
    /// Threads and batches.
    pub pipeline: PipelineConfig,
    /// How a single-label model decides; a multi-label model decides by its own thresholds.
    pub decision: Decision,
    /// Keep every document's scores, for ROC and precision-recall curves and a reliability
    /// diagram: documents × classes numbers of 8 bytes.
    pub keep_scores: bool,
}

impl Eval<'_> {
    /// Where the evaluation runs: `requested`, but a multi-label model always here, as `eval`
    /// always did (cluster mode evaluates single-label models).
    pub fn placement(&self, requested: Placement) -> Placement {
        match self.classifier.is_multi_label() {
            true => Placement::Local,
            false => requested,
        }
    }

    /// Evaluates the model on the corpus where `placement` says, telling `note` of each entry
    /// read. Returns the figures, or `None` on a cluster process other than 0, which writes
    /// nothing. A cluster evaluates single-label models only.
    pub fn run(&self, placement: &Placement, note: Note) -> Result<Option<Evaluated>> {
        let evaluation = match placement {
            Placement::Local if self.classifier.is_multi_label() => {
                return self.labels(&note).map(Some);
            }
            Placement::Local => self.classes(&note)?,
            #[cfg(feature = "cluster")]
            Placement::Cluster(cluster) => match self.in_cluster(cluster, note)? {
                Some(evaluation) => evaluation,
                None => return Ok(None),
            },
        };
        let scores = evaluation.scores.as_ref();
        Ok(Some(Evaluated {
            curves: scores.map(|s| s.curves()),
            reliability: scores.and_then(|s| s.reliability(RELIABILITY_BINS)),
            figures: Figures::Classes(evaluation),
        }))
    }

    /// A single-label model's figures, in this process.
    fn classes(&self, note: &Note) -> Result<Evaluation> {
        let source = Source::open(&self.corpus, &self.read)?;
        let mut reading = Reading::new(self.pipeline.clone()).on_entry(|entry| note(entry));
        if self.keep_scores {
            self.classifier
                .evaluate_with_scores(source, &mut reading, &self.decision)
        } else {
            self.classifier
                .evaluate(source, &mut reading, &self.decision)
        }
    }

    /// A single-label model's figures across `cluster`: the workers score the documents they
    /// own, and process 0 adds the scores up in input order.
    #[cfg(feature = "cluster")]
    fn in_cluster(
        &self,
        cluster: &crate::cluster::Cluster,
        note: Note,
    ) -> Result<Option<Evaluation>> {
        let scoring = crate::cluster::Scoring {
            model: self.model.clone(),
            inputs: vec![self.corpus.clone()],
            options: self.read.clone(),
            pipeline: self.pipeline.clone(),
        };
        let (decision, keep_scores) = (&self.decision, self.keep_scores);
        crate::cluster::evaluate(cluster, &scoring, decision, keep_scores, note)
    }

    /// A multi-label model's figures, in this process, with each label's curves when the
    /// scores are kept.
    fn labels(&self, note: &Note) -> Result<Evaluated> {
        let mut read = self.read.clone();
        // A file in several class folders is one document with several labels.
        read.merge_folders = true;
        let source = Source::open(&self.corpus, &read)?;
        let mut reading = Reading::new(self.pipeline.clone()).on_entry(|entry| note(entry));
        let (metrics, curves) = if self.keep_scores {
            let (metrics, scores) = self
                .classifier
                .evaluate_labels_with_scores(source, &mut reading)?;
            (metrics, Some(scores.curves()))
        } else {
            (self.classifier.evaluate_labels(source, &mut reading)?, None)
        };
        Ok(Evaluated {
            figures: Figures::Labels(metrics),
            curves,
            reliability: None,
        })
    }
}
