//! `TextModel`: a [`TextClassifier`] for Python, trained on texts and asked about texts.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::convert::{pipeline, read_text, table};
use super::settings::Settings;
use super::stream::texts_source;
use crate::classifier::{Explanation, MultiLabelOptions, Reading, TextClassifier};
use crate::flow::Analyzed;
use crate::model::Model;

/// A trained text classifier. Every method that reads or trains on texts releases the GIL.
#[pyclass(module = "bowline._bowline")]
pub(crate) struct TextModel {
    classifier: TextClassifier,
}

/// An explanation as Python gets it: `(label, score, bias, [(term, contribution)],
/// other_terms)`.
type ExplanationTuple = (String, f64, f64, Vec<(String, f64)>, f64);

/// What a model is called in the errors of a model read from bytes (a pickle).
const IN_MEMORY: &str = "(pickled model)";

#[pymethods]
impl TextModel {
    /// Trains a classifier of `kind` on `texts` with labels `labels`, on `n_jobs` threads.
    #[staticmethod]
    #[pyo3(signature = (kind, settings, labels, texts, n_jobs=None))]
    fn fit(
        py: Python<'_>,
        kind: &str,
        settings: Settings,
        labels: Vec<String>,
        texts: &Bound<'_, PyAny>,
        n_jobs: Option<i64>,
    ) -> PyResult<Self> {
        let builder = settings.builder(Settings::kind(kind)?)?;
        let (source, stream) = texts_source(texts, Some(one_each(labels)))?;
        let fitted = py.detach(|| builder.fit_source(source, &mut Reading::new(pipeline(n_jobs))));
        let fitted = stream.finish(py, fitted)?;
        Ok(TextModel {
            classifier: fitted.classifier,
        })
    }

    /// Trains a multi-label classifier of `kind` on `texts`, each with its set of labels
    /// (binary relevance, thresholds chosen on folds of the training data, as `bowline train`
    /// does on documents with several labels), on `n_jobs` threads.
    #[staticmethod]
    #[pyo3(signature = (kind, settings, label_sets, texts, n_jobs=None))]
    fn fit_multi(
        py: Python<'_>,
        kind: &str,
        settings: Settings,
        label_sets: Vec<Vec<String>>,
        texts: &Bound<'_, PyAny>,
        n_jobs: Option<i64>,
    ) -> PyResult<Self> {
        let builder = settings.builder(Settings::kind(kind)?)?;
        let (source, stream) = texts_source(texts, Some(label_sets))?;
        let options = MultiLabelOptions::default();
        let fitted = py.detach(|| {
            let mut reading = Reading::new(pipeline(n_jobs));
            builder.fit_multi_source(source, &mut reading, &options)
        });
        let fitted = stream.finish(py, fitted)?;
        Ok(TextModel {
            classifier: fitted.classifier,
        })
    }

    /// The model of `models`, trained on disjoint shards with the same settings, merged as
    /// `bowline merge` merges model files: naive Bayes exactly, SVMs by averaging.
    #[staticmethod]
    fn merge(py: Python<'_>, models: Vec<PyRef<'_, TextModel>>) -> PyResult<Self> {
        let parts: Vec<(String, TextClassifier)> = models
            .iter()
            .enumerate()
            .map(|(i, model)| (format!("models[{i}]"), model.classifier.clone()))
            .collect();
        let classifier = py.detach(|| TextClassifier::merge(parts))?;
        Ok(TextModel { classifier })
    }

    /// Learns more labelled texts, as `bowline update` does.
    #[pyo3(signature = (labels, texts, n_jobs=None))]
    fn update(
        &mut self,
        py: Python<'_>,
        labels: Vec<String>,
        texts: &Bound<'_, PyAny>,
        n_jobs: Option<i64>,
    ) -> PyResult<()> {
        let (source, stream) = texts_source(texts, Some(one_each(labels)))?;
        let classifier = &mut self.classifier;
        let updated =
            py.detach(|| classifier.update_source(source, &mut Reading::new(pipeline(n_jobs))));
        stream.finish(py, updated)?;
        Ok(())
    }

    /// Per text and class (in the order of `labels`), the probability, or with
    /// `decision=True` the classifier's score: an array of shape `(texts, classes)`.
    #[pyo3(signature = (texts, decision=false, n_jobs=None))]
    fn scores<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, PyAny>,
        decision: bool,
        n_jobs: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let model = self.classifier.model();
        self.table_of(py, texts, n_jobs, |item, probabilities, out| {
            match (decision, probabilities) {
                (true, _) => {
                    let row = &item.counted.row;
                    model.classifier.scores(&row.indices, &row.values, out);
                }
                (false, Some(probabilities)) => out.copy_from_slice(probabilities),
                (false, None) => {}
            }
        })
    }

    /// Per text and label (in the order of `labels`), 1 where the model gives the text the
    /// label and 0 elsewhere, as `bowline classify` decides a multi-label model's labels: an
    /// array of shape `(texts, labels)`.
    #[pyo3(signature = (texts, n_jobs=None))]
    fn label_sets<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, PyAny>,
        n_jobs: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let classifier = &self.classifier;
        let mut scores = vec![0.0; classifier.labels().len()];
        self.table_of(py, texts, n_jobs, |item, _, out| {
            for given in classifier.labels_of(&item.counted.row, &mut scores) {
                if let Some(column) = classifier.labels().iter().position(|l| *l == given.label) {
                    out[column] = 1.0;
                }
            }
        })
    }

    /// The predicted class of `text` with its `k` terms of largest contribution: `(label,
    /// score, bias, [(term, contribution)], other_terms)`.
    fn explain(&self, text: &Bound<'_, PyAny>, k: usize) -> PyResult<ExplanationTuple> {
        let Explanation {
            label,
            score,
            bias,
            terms,
            other_terms,
        } = self.classifier.explain(&read_text(text)?, k)?;
        let terms = terms
            .into_iter()
            .map(|t| (t.term, t.contribution))
            .collect();
        Ok((label, score, bias, terms, other_terms))
    }

    /// The class names, in the order of the columns of [`TextModel::scores`].
    #[getter]
    fn labels(&self) -> Vec<String> {
        self.classifier.labels().to_vec()
    }

    /// The kind of classifier, by its command-line name.
    #[getter]
    fn kind(&self) -> &'static str {
        self.classifier.model().classifier.kind().name()
    }

    /// Whether the probabilities are calibrated: naive Bayes' posteriors, a calibrated SVM's,
    /// k-NN's votes; not an uncalibrated SVM's softmax of its scores, nor a multi-label model's
    /// per-label scores.
    #[getter]
    fn calibrated(&self) -> bool {
        self.classifier.model().classifier.gives_probabilities()
    }

    /// Whether the model is multi-label: it gives each text a set of labels.
    #[getter]
    fn multi_label(&self) -> bool {
        self.classifier.is_multi_label()
    }

    /// The model file's bytes, as `save` writes them.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = py.detach(|| self.classifier.model().to_bytes())?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// A model from the bytes of a model file.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, bytes: &[u8]) -> PyResult<Self> {
        let model = py.detach(|| Model::from_bytes(bytes, Path::new(IN_MEMORY)))?;
        Ok(TextModel {
            classifier: TextClassifier::from_model(model)?,
        })
    }

    /// Writes the model file atomically, as `bowline train` writes it.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| self.classifier.save(&path))?;
        Ok(())
    }

    /// Reads a model file written by `save` or by `bowline train`.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let classifier = py.detach(|| TextClassifier::load(&path))?;
        Ok(TextModel { classifier })
    }
}

impl TextModel {
    /// Classifies `texts` into an array of shape `(texts, labels)`, in the order of `labels`:
    /// `fill` writes each text's row from the text and its probabilities, and what it leaves
    /// stays 0. The GIL is released while the texts are classified.
    fn table_of<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, PyAny>,
        n_jobs: Option<i64>,
        mut fill: impl FnMut(&Analyzed, Option<&[f64]>, &mut [f64]) + Send,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (source, stream) = texts_source(texts, None)?;
        let width = self.classifier.labels().len();
        let classifier = &self.classifier;
        let values = py.detach(|| {
            let mut values = Vec::new();
            let mut reading = Reading::new(pipeline(n_jobs));
            classifier.classify(source, &mut reading, |item, probabilities| {
                let start = values.len();
                values.resize(start + width, 0.0);
                fill(item, probabilities, &mut values[start..]);
                Ok(())
            })?;
            Ok::<_, crate::Error>(values)
        });
        let values = stream.finish(py, values)?;
        table(py, values, width)
    }
}

/// Single labels as the label sets of a source: one label each.
fn one_each(labels: Vec<String>) -> Vec<Vec<String>> {
    labels.into_iter().map(|label| vec![label]).collect()
}
