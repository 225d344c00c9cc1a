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
use crate::model::{Classifier, Model, NaiveBayes, Trainer, TrainingInfo};
use crate::vectorize::{FittedVectorizer, MatrixBuilder};

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
        let Trainer::NaiveBayes(kind, alpha, priors) = self.trainer.clone() else {
            return self.fit_labelled(open()?, reading, options, multi);
        };
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
        let mut nb = NaiveBayes::new(kind, alpha, priors, classes.len(), features)?;
        let docs_per_class =
            add_documents(&mut nb, open()?, &analyzer, &vectorizer, &classes, &quiet)?;
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

/// The second pass: every document of `source` weighed by `vectorizer` and added to `nb` under
/// its class, in input order. Returns the documents of each class.
fn add_documents(
    nb: &mut NaiveBayes,
    source: Source,
    analyzer: &Analyzer,
    vectorizer: &FittedVectorizer,
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
