//! `MatrixModel`: a classifier trained on a matrix that any vectorizer made, for the
//! matrix-level estimators (`bowline.MultinomialNB`, `LinearSVC`...).
//!
//! It is kept as a model file like any other, so that it pickles as the program's bytes: its
//! vocabulary names the columns `x0`, `x1`... (zero-padded, so that the names sort in column
//! order as a vocabulary must), and counts them as they come.

use std::path::Path;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rayon::prelude::*;

use super::convert::table;
use super::csr::{CsrInput, CsrRows, SortedRows};
use super::settings::Settings;
use crate::analyze::AnalyzerConfig;
use crate::error::{Error, Result};
use crate::model::{Model, TrainingInfo};
use crate::vectorize::{FittedVectorizer, Idf, Norm, TermList, Tf, VectorizerConfig, Weighting};

/// A classifier over the columns of a matrix.
#[pyclass(module = "bowline._bowline", frozen)]
pub(crate) struct MatrixModel {
    model: Model,
}

/// What a model trained here is called in errors.
const IN_MEMORY: &str = "(matrix model)";

#[pymethods]
impl MatrixModel {
    /// Trains a classifier of `kind` on the rows of `x`, row `i` of class `ids[i]` out of
    /// `labels`.
    #[staticmethod]
    fn fit(
        py: Python<'_>,
        kind: &str,
        settings: Settings,
        x: CsrInput<'_>,
        ids: Vec<u32>,
        labels: Vec<String>,
    ) -> PyResult<Self> {
        let kind = Settings::kind(kind)?;
        let matrix = CsrRows::new(&x)?.matrix()?;
        let trainer = kind.trainer(&settings.params()?, Weighting::default())?;
        let model = py.detach(|| {
            let classifier = trainer.fit(&matrix, &ids, labels.len())?;
            let mut docs_per_class = vec![0u64; labels.len()];
            ids.iter().for_each(|&c| docs_per_class[c as usize] += 1);
            Ok::<_, Error>(Model {
                vectorizer: columns(matrix.cols(), matrix.rows())?,
                labels,
                classifier,
                info: TrainingInfo::now(vec![IN_MEMORY.into()], docs_per_class),
            })
        })?;
        Ok(MatrixModel { model })
    }

    /// Per row of `x` and class, the probability, or with `decision=True` the classifier's
    /// score: an array of shape `(rows, classes)`.
    #[pyo3(signature = (x, decision=false))]
    fn scores<'py>(
        &self,
        py: Python<'py>,
        x: CsrInput<'py>,
        decision: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let rows = CsrRows::new(&x)?;
        let classes = self.model.labels.len();
        let classifier = &self.model.classifier;
        // Each row is sorted as it is scored: no copy of the matrix is made.
        let values = py.detach(|| {
            let mut values = vec![0.0; rows.rows() * classes];
            let chunks = values.par_chunks_mut(classes.max(1)).enumerate();
            chunks.try_for_each_init(SortedRows::default, |row, (i, out)| {
                row.clear();
                rows.sorted_row(i, row)?;
                let (indices, values) = (&row.indices, &row.data);
                if decision {
                    classifier.scores(indices, values, out);
                } else {
                    classifier.probabilities_of(indices, values, out);
                }
                Ok::<_, Error>(())
            })?;
            Ok::<_, Error>(values)
        })?;
        table(py, values, classes)
    }

    /// Whether the probabilities are calibrated (see `TextModel.calibrated`).
    #[getter]
    fn calibrated(&self) -> bool {
        let classifier = &self.model.classifier;
        classifier.svm().is_none_or(|svm| svm.is_calibrated())
    }

    /// The SVM's passes over the data, the most that any class needed (scikit-learn's
    /// `n_iter_`); 0 for the other kinds, which make none.
    #[getter]
    fn n_iter(&self) -> usize {
        let svm = self.model.classifier.svm();
        svm.map_or(0, |svm| {
            let passes = svm.convergence().iter().map(|c| c.iterations);
            passes.max().unwrap_or(0)
        })
    }

    /// The model file's bytes.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = py.detach(|| self.model.to_bytes())?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// A model from the bytes of a model file.
    #[staticmethod]
    fn from_bytes(py: Python<'_>, bytes: &[u8]) -> PyResult<Self> {
        let model = py.detach(|| Model::from_bytes(bytes, Path::new(IN_MEMORY)))?;
        Ok(MatrixModel { model })
    }
}

/// A vocabulary naming `columns` columns `x0`... in column order, each seen in every one of
/// `rows` rows, weighing nothing: values reach the classifier as the matrix holds them.
fn columns(columns: usize, rows: usize) -> Result<FittedVectorizer> {
    let width = columns.saturating_sub(1).to_string().len();
    let mut terms = TermList::with_capacity(columns, columns * (width + 1));
    for j in 0..columns {
        terms.push(&format!("x{j:0width$}"));
    }
    let config = VectorizerConfig {
        weighting: Weighting {
            tf: Tf::Count,
            idf: Idf::None,
            norm: Norm::None,
        },
        ..VectorizerConfig::default()
    };
    let documents = u32::try_from(rows.max(1)).unwrap_or(u32::MAX);
    let df = vec![documents; columns];
    FittedVectorizer::from_parts(AnalyzerConfig::default(), config, terms, df, documents)
}
