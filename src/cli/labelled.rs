//! A labelled corpus read once and counted over every term, for the commands that fit on parts
//! of it (`rank`, `cv`, `select`), and the evaluation they share.

use std::path::Path;

use super::log::ReadLog;
use super::{InputArgs, RuntimeArgs};
use crate::analyze::{run_stages, Analyzer};
use crate::corpus::{self, ReadOptions};
use crate::error::{Error, Result};
use crate::eval::{Confusion, Report};
use crate::model::{Classifier, Decision};
use crate::pipeline::PipelineConfig;
use crate::select::Metric;
use crate::vectorize::{
    counting_config, fit_corpus, matrix_row, transform_stages, FittedCorpus, Matrix, MatrixBuilder,
    SparseRow,
};

/// The counted corpus and each row's class id.
pub struct Labelled {
    /// Raw counts over every term, with ids, labels and class names.
    pub corpus: FittedCorpus,
    /// Each row's position in `corpus.classes`.
    pub classes: Vec<u32>,
}

/// The reading set-up a command keeps after the corpus is read: for a second corpus, and for
/// the warnings and summary.
pub struct Reading {
    /// How inputs are read.
    pub read: ReadOptions,
    /// Threads and batches.
    pub pipeline: PipelineConfig,
    /// Warnings and counts so far.
    pub log: ReadLog,
}

impl Labelled {
    /// Sets up reading from the flags, then reads and counts `path` as [`Labelled::read`] does.
    pub fn open(
        path: &Path,
        purpose: &str,
        analyzer: &Analyzer,
        input: &InputArgs,
        runtime: &RuntimeArgs,
    ) -> Result<(Self, Reading)> {
        let read = input.options()?;
        let pipeline = runtime.start()?;
        let mut log = ReadLog::new(read.max_doc_bytes);
        let labelled = Self::read(path, purpose, &read, analyzer, &pipeline, &mut log)?;
        Ok((
            labelled,
            Reading {
                read,
                pipeline,
                log,
            },
        ))
    }

    /// Reads and counts `path`; every document needs a label, and there must be two classes
    /// (`purpose` names the command's work in those errors).
    fn read(
        path: &Path,
        purpose: &str,
        read: &ReadOptions,
        analyzer: &Analyzer,
        pipeline: &PipelineConfig,
        log: &mut ReadLog,
    ) -> Result<Self> {
        let corpus = fit_corpus(path, read, analyzer, &counting_config(), pipeline, |e| {
            log.note(e)
        })?;
        let classes = corpus.training_ids(path, purpose)?;
        Ok(Labelled { corpus, classes })
    }

    /// Reads a second labelled corpus (a dev or test set) over this corpus's vocabulary, terms it
    /// lacks being dropped, and appends its rows; returns their positions. Documents of classes
    /// this corpus lacks are reported and left out.
    pub fn append(
        &mut self,
        path: &Path,
        analyzer: &Analyzer,
        reading: &mut Reading,
    ) -> Result<Vec<usize>> {
        let Reading {
            read,
            pipeline,
            log,
        } = reading;
        let (entries, _) = corpus::open(path, read)?;
        let fused = pipeline.is_fused();
        let vectorizer = &self.corpus.vectorizer;
        let stages = transform_stages(analyzer, vectorizer, read.max_doc_bytes, fused);
        let mut builder = MatrixBuilder::default();
        for i in 0..self.classes.len() {
            let (indices, values) = matrix_row(&self.corpus.matrix, i);
            builder.push(&SparseRow {
                indices: indices.to_vec(),
                values: values.to_vec(),
            });
        }
        let (mut added, mut unknown) = (Vec::new(), 0u64);
        let classes = &self.corpus.classes;
        run_stages(entries, pipeline, stages, |item| {
            log.note(&item.entry);
            if !item.entry.is_document() {
                return Ok(());
            }
            let label = item.entry.doc.label.as_deref();
            let label = label.ok_or_else(|| Error::input(path, "every document needs a label"))?;
            match classes.iter().position(|c| c == label) {
                Some(c) => {
                    builder.push(&item.counted.row);
                    added.push((c as u32, item.entry.doc.id));
                }
                None => unknown += 1,
            }
            Ok(())
        })?;
        if unknown > 0 {
            eprintln!("bowline: warning: {unknown} documents of {} have classes the training corpus lacks; left out", path.display());
        }
        let first = self.classes.len();
        self.corpus.matrix = builder.finish(vectorizer.terms().len())?;
        for (class, id) in added {
            self.classes.push(class);
            self.corpus.ids.push(id);
        }
        Ok((first..self.classes.len()).collect())
    }

    /// Class ids of rows `rows`.
    pub fn classes_of(&self, rows: &[usize]) -> Vec<u32> {
        rows.iter().map(|&i| self.classes[i]).collect()
    }
}

/// Evaluates `classifier` on the rows of `x` with true classes `truth`, deciding the most
/// probable class.
pub fn evaluate(classifier: &Classifier, labels: &[String], x: &Matrix, truth: &[u32]) -> Report {
    let mut confusion = Confusion::new(labels.to_vec());
    let scorer = classifier.scorer();
    let mut scores = vec![0.0; labels.len()];
    for (i, &t) in truth.iter().enumerate() {
        let (indices, values) = matrix_row(x, i);
        scorer.scores(indices, values, &mut scores);
        classifier.probabilities(&mut scores);
        confusion.add(t as usize, Decision::MostProbable.decide(&scores));
    }
    confusion.report()
}

/// `classifier`'s value of `metric` on the rows of `x` with true classes `truth`.
pub fn metric_of(
    classifier: &Classifier,
    labels: &[String],
    x: &Matrix,
    truth: &[u32],
    metric: Metric,
) -> f64 {
    match metric {
        Metric::Accuracy => evaluate(classifier, labels, x, truth).accuracy,
        Metric::MacroF1 => evaluate(classifier, labels, x, truth).macro_f1,
        Metric::LogLoss => {
            let scorer = classifier.scorer();
            let mut scores = vec![0.0; labels.len()];
            let total: f64 = truth
                .iter()
                .enumerate()
                .map(|(i, &t)| {
                    let (indices, values) = matrix_row(x, i);
                    scorer.scores(indices, values, &mut scores);
                    classifier.probabilities(&mut scores);
                    -scores[t as usize].max(f64::MIN_POSITIVE).ln()
                })
                .sum();
            total / truth.len().max(1) as f64
        }
    }
}
