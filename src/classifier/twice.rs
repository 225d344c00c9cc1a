//! Training naive Bayes in two passes over a corpus on disk, so that memory follows the
//! vocabulary and the classes, never the number of documents.
//!
//! The first pass learns the vocabulary, document frequencies and classes and keeps no row
//! ([`survey_corpus`]); the second analyzes every document again against the fitted vocabulary,
//! weighs it as the model will weigh the documents it classifies, and adds it to the naive Bayes
//! sums a batch of rows at a time. The rows and their order are those of a one-pass training,
//! and naive Bayes adds a class's values in row order however its rows are split between calls,
//! so the model is the same.

use std::collections::HashMap;

use super::{Builder, Fitted, MultiLabelOptions, Reading, TextClassifier};
use crate::analyze::Analyzer;
use crate::error::{Error, Result};
use crate::flow::{run_stages, survey_corpus, transform_stages, Source};
use crate::model::naive_bayes::loo::stride;
use crate::model::{Classifier, Model, NaiveBayes, Smoothing, TrainingInfo};
use crate::vectorize::{FittedVectorizer, Matrix, MatrixBuilder, SparseRow};

/// Rows added to the sums at once: enough to amortize a merge into the sums, few enough that
/// the batch is a small part of the memory.
const BATCH_ROWS: usize = 4096;

impl Builder {
    /// Trains on the corpus that `open` opens, as [`Builder::fit_labelled`] does, but reads it
    /// twice when the classifier is naive Bayes and `multi` is not asked for (see the module's
    /// documentation): memory then holds the vocabulary and the model, not the documents. Any
    /// other classifier, or a corpus where some document has several labels, is trained in one
    /// pass as [`Builder::fit_labelled`] trains it. `reading` is told of each entry once.
    pub fn fit_twice(
        self,
        mut open: impl FnMut() -> Result<Source>,
        reading: &mut Reading,
        options: &MultiLabelOptions,
        multi: bool,
    ) -> Result<Fitted> {
        let Some((kind, smoothing, priors)) = self.trainer.naive_bayes_settings() else {
            return self.fit_labelled(open()?, reading, options, multi);
        };
        let priors = priors.clone();
        if multi {
            return self.fit_labelled(open()?, reading, options, multi);
        }
        let first = open()?;
        let name = first.name.clone();
        let analyzer = Analyzer::new(self.analysis.clone())?;
        let (pipeline, note) = reading.parts();
        let survey = survey_corpus(first, &analyzer, &self.vectorizer, pipeline, note)?;
        let mut quiet = Reading::new(reading.pipeline.clone());
        if survey.several_labels {
            return self.fit_labelled(open()?, &mut quiet, options, multi);
        }
        if survey.unlabelled {
            return Err(Error::input(
                &name,
                "training needs a label on every document",
            ));
        }
        if survey.classes.len() < 2 {
            return Err(Error::input(&name, "training needs at least two classes"));
        }
        let (vectorizer, _) = survey.fitter.finish_rows(self.analysis.clone())?;
        let classes = survey.classes;
        let features = vectorizer.n_features();
        let mut nb = NaiveBayes::new(kind, smoothing.value(), priors, classes.len(), features)?;
        nb.set_space(vectorizer.space());
        let mut sample = Sample::new(smoothing, vectorizer.n_docs() as usize);
        let docs_per_class = add_documents(
            (&mut nb, &mut sample),
            open()?,
            (&analyzer, &vectorizer),
            &classes,
            &quiet,
        )?;
        if smoothing == Smoothing::Auto {
            let (x, ids) = sample.finish(features)?;
            let rows: Vec<usize> = (0..ids.len()).collect();
            nb.set_alpha(nb.choose_alpha(&x, &ids, &rows)?.alpha);
        }
        let documents = docs_per_class.iter().sum::<u64>() as usize;
        let model = Model {
            vectorizer,
            labels: classes,
            classifier: Classifier::NaiveBayes(nb),
            info: TrainingInfo::now(vec![name.display().to_string()], docs_per_class),
        };
        Ok(Fitted {
            classifier: TextClassifier { model, analyzer },
            documents,
        })
    }
}

/// The weighted rows that multinomial NB's smoothing is chosen on, when it is to be chosen:
/// every `stride`-th document, as training in one pass picks them ([`stride`]).
struct Sample {
    stride: Option<usize>,
    seen: usize,
    rows: MatrixBuilder,
    ids: Vec<u32>,
}

impl Sample {
    fn new(smoothing: Smoothing, documents: usize) -> Self {
        Sample {
            stride: (smoothing == Smoothing::Auto).then(|| stride(documents)),
            seen: 0,
            rows: MatrixBuilder::default(),
            ids: Vec::new(),
        }
    }

    /// Keeps the next document's row, of class `class`, when it is one to keep.
    fn offer(&mut self, row: &SparseRow, class: u32) {
        if self
            .stride
            .is_some_and(|stride| self.seen.is_multiple_of(stride))
        {
            self.rows.push(row);
            self.ids.push(class);
        }
        self.seen += 1;
    }

    fn finish(self, columns: usize) -> Result<(Matrix, Vec<u32>)> {
        Ok((self.rows.finish(columns)?, self.ids))
    }
}

/// The second pass: every document of `source` weighed by `vectorizer` and added to `nb` under
/// its class, in input order, and offered to `sample`. Returns the documents of each class.
fn add_documents(
    (nb, sample): (&mut NaiveBayes, &mut Sample),
    source: Source,
    (analyzer, vectorizer): (&Analyzer, &FittedVectorizer),
    classes: &[String],
    reading: &Reading,
) -> Result<Vec<u64>> {
    let class_of: HashMap<&str, u32> = (0..classes.len() as u32)
        .map(|c| (classes[c as usize].as_str(), c))
        .collect();
    let columns = vectorizer.n_features();
    let mut docs_per_class = vec![0u64; classes.len()];
    let (mut batch, mut ids) = (MatrixBuilder::default(), Vec::with_capacity(BATCH_ROWS));
    let pipeline = &reading.pipeline;
    let stages = transform_stages(
        analyzer,
        vectorizer,
        source.max_doc_bytes,
        pipeline.is_fused(),
    );
    run_stages(source.entries, pipeline, stages, |item| {
        if !item.entry.is_document() {
            return Ok(());
        }
        let label = item.entry.doc.label.as_deref().unwrap_or_default();
        // The first pass saw every label; a corpus that changed in between is refused.
        let class = *class_of.get(label).ok_or_else(|| {
            Error::Config(format!(
                "the corpus changed while it was read: a new label '{label}'"
            ))
        })?;
        docs_per_class[class as usize] += 1;
        sample.offer(&item.counted.row, class);
        batch.push(&item.counted.row);
        ids.push(class);
        if ids.len() == BATCH_ROWS {
            nb.add(&std::mem::take(&mut batch).finish(columns)?, &ids);
            ids.clear();
        }
        Ok(())
    })?;
    nb.add(&batch.finish(columns)?, &ids);
    Ok(docs_per_class)
}
