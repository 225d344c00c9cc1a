//! Predicting: documents become class probabilities and a decision.

use super::{Reading, TextClassifier};
use crate::error::Result;
use crate::flow::{run_stages, transform_stages, Analyzed, Source};
use crate::model::decision::argmax;
use crate::pipeline::{Stage, StageStats};
use crate::vectorize::{Counted, DocumentCounter};

/// A document's predicted class.
#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    /// The most probable class.
    pub label: String,
    /// Its probability: a naive Bayes posterior, a calibrated SVM's Platt probability, k-NN's
    /// share of the neighbours' votes, or for an uncalibrated SVM a softmax of its decision
    /// values, which ranks the classes but is not calibrated.
    pub probability: f64,
    /// Every class with its probability, most probable first.
    pub ranked: Vec<(String, f64)>,
}

impl Prediction {
    /// The `k` most probable classes, most probable first.
    pub fn top(&self, k: usize) -> &[(String, f64)] {
        &self.ranked[..k.min(self.ranked.len())]
    }
}

/// Predicts one text after another with the same analysis buffers and token memo: the hot path
/// of a service, where [`TextClassifier::predict`] would set them up anew for every text.
pub struct Predictor<'a> {
    classifier: &'a TextClassifier,
    counter: DocumentCounter<'a>,
    counted: Counted,
}

impl Predictor<'_> {
    /// Predicts the class of one text.
    pub fn predict(&mut self, text: &str) -> Prediction {
        let classifier = self.classifier;
        classifier.prediction(self.vectorize(text))
    }

    /// One text analyzed, counted and weighed into this predictor's buffers, as
    /// [`TextClassifier::vectorize`] does: for a caller that wants more than the prediction
    /// from one analysis (labels, an explanation).
    pub fn vectorize(&mut self, text: &str) -> &Counted {
        let vectorizer = &self.classifier.model.vectorizer;
        self.counter.count(vectorizer, text, &mut self.counted);
        vectorizer.weigh(&mut self.counted.row, self.counted.length);
        &self.counted
    }
}

impl TextClassifier {
    /// Predicts the class of one text.
    pub fn predict(&self, text: &str) -> Result<Prediction> {
        Ok(self.predictor().predict(text))
    }

    /// A predictor for many texts, one at a time, on this thread.
    pub(crate) fn predictor(&self) -> Predictor<'_> {
        Predictor {
            classifier: self,
            counter: DocumentCounter::new(&self.analyzer),
            counted: Counted::default(),
        }
    }

    /// Predicts the class of every text, in input order, analyzing them on the pipeline's worker
    /// threads (all cores).
    pub fn predict_batch<T: Into<String>>(
        &self,
        texts: impl IntoIterator<Item = T>,
    ) -> Result<Vec<Prediction>> {
        let mut predictions = Vec::new();
        let mut reading = Reading::default();
        self.classify(Source::texts(texts), &mut reading, |item, _| {
            predictions.push(self.prediction(&item.counted));
            Ok(())
        })?;
        Ok(predictions)
    }

    /// Runs the documents of `source` through the pipeline, tells `reading` of each entry, and
    /// hands each entry, in input order, to `each` with its class probabilities (`None` for an entry that is not a document: it
    /// could not be read, or was skipped). This is the streaming form of
    /// [`TextClassifier::predict_batch`]: nothing is kept, and probabilities are computed into
    /// one reused buffer.
    pub fn classify(
        &self,
        source: Source,
        reading: &mut Reading,
        mut each: impl FnMut(&Analyzed, Option<&[f64]>) -> Result<()>,
    ) -> Result<Vec<StageStats>> {
        let stages = self.stages(source.max_doc_bytes, reading.pipeline.is_fused());
        let mut probabilities = vec![0.0; self.model.labels.len()];
        let (pipeline, note) = reading.parts();
        run_stages(source.entries, pipeline, stages, |item| {
            note(&item.entry);
            if !item.entry.is_document() {
                return each(&item, None);
            }
            self.probabilities(&item.counted, &mut probabilities);
            each(&item, Some(&probabilities))
        })
    }

    /// The pipeline stages that read, analyze, count and weigh a document for this model: what
    /// a caller with its own source of batches (a stream on stdin) runs.
    pub(crate) fn stages(&self, max_doc_bytes: u64, fused: bool) -> Vec<Stage<'_, Analyzed>> {
        transform_stages(&self.analyzer, &self.model.vectorizer, max_doc_bytes, fused)
    }

    /// Fills `out` (one slot per class) with the class probabilities of a document counted and
    /// weighed by [`TextClassifier::stages`].
    pub(crate) fn probabilities(&self, counted: &Counted, out: &mut [f64]) {
        let row = &counted.row;
        self.model
            .classifier
            .probabilities_of(&row.indices, &row.values, out);
    }

    /// The prediction for a document counted and weighed by [`TextClassifier::stages`] or
    /// [`Predictor::vectorize`].
    pub(crate) fn prediction(&self, counted: &Counted) -> Prediction {
        let labels = &self.model.labels;
        let mut probabilities = vec![0.0; labels.len()];
        self.probabilities(counted, &mut probabilities);
        let best = argmax(probabilities.iter().copied());
        let mut ranked: Vec<(String, f64)> = labels.iter().cloned().zip(probabilities).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        Prediction {
            label: labels[best].clone(),
            probability: ranked.first().map_or(0.0, |r| r.1),
            ranked,
        }
    }
}
