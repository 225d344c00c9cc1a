//! `VectorizerModel`: a fitted TF-IDF vectorizer for Python, its matrices as CSR arrays.

use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use super::convert::{csr_arrays, pipeline, CsrArrays};
use super::settings::Settings;
use super::stream::texts_source;
use crate::analyze::{Analyzer, AnalyzerConfig};
use crate::error::Result;
use crate::flow::{fit_corpus, run_stages, transform_stages, Source};
use crate::vectorize::{
    matrix_row, FittedVectorizer, Matrix, MatrixBuilder, SparseRow, VectorizerConfig,
    VocabularyFile,
};

/// A vectorizer fitted on texts: its analysis, vocabulary and idf.
#[pyclass(module = "bowline._bowline", frozen)]
pub(crate) struct VectorizerModel {
    analyzer: Analyzer,
    vectorizer: FittedVectorizer,
}

#[pymethods]
impl VectorizerModel {
    /// Fits a vectorizer with `settings` over the library's defaults on `texts`, returning it
    /// with the texts' matrix.
    #[staticmethod]
    #[pyo3(signature = (settings, texts, n_jobs=None))]
    fn fit_transform<'py>(
        py: Python<'py>,
        settings: Settings,
        texts: &Bound<'py, PyAny>,
        n_jobs: Option<i64>,
    ) -> PyResult<(Self, CsrArrays<'py>)> {
        let analyzer = Analyzer::new(settings.analysis(&AnalyzerConfig::default())?)?;
        let config = settings.vectorizer(&VectorizerConfig::default())?;
        let (source, stream) = texts_source(texts, None)?;
        let fitted =
            py.detach(|| fit_corpus(source, &analyzer, &config, &pipeline(n_jobs), |_| {}));
        let fitted = stream.finish(py, fitted)?;
        let model = VectorizerModel {
            analyzer,
            vectorizer: fitted.vectorizer,
        };
        let matrix = outer(&model.vectorizer, fitted.matrix)?;
        Ok((model, csr_arrays(py, matrix)))
    }

    /// The matrix of `texts`: one weighted row per text, over the fitted columns.
    #[pyo3(signature = (texts, n_jobs=None))]
    fn transform<'py>(
        &self,
        py: Python<'py>,
        texts: &Bound<'py, PyAny>,
        n_jobs: Option<i64>,
    ) -> PyResult<CsrArrays<'py>> {
        let (source, stream) = texts_source(texts, None)?;
        let matrix = stream.finish(py, py.detach(|| self.matrix(source, n_jobs)))?;
        Ok(csr_arrays(py, matrix))
    }

    /// The terms, in column order (empty when terms are hashed).
    fn terms(&self) -> Vec<String> {
        self.vectorizer.terms().iter().map(str::to_string).collect()
    }

    /// The number of columns: the terms, or 2^bits for hashed terms, as scikit-learn's
    /// `HashingVectorizer` has them.
    #[getter]
    fn n_features(&self) -> usize {
        self.vectorizer.space()
    }

    /// The idf factor of each column; a hashed column no document reached has the idf of df 0.
    fn idf<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        let v = &self.vectorizer;
        if v.hashing().is_none() {
            return PyArray1::from_slice(py, v.idf());
        }
        let mut idf = vec![v.config().weighting.idf(0, v.n_docs()); v.space()];
        for (j, &value) in v.idf().iter().enumerate() {
            idf[v.outer_column(j as u32) as usize] = value;
        }
        PyArray1::from_vec(py, idf)
    }

    /// The vocabulary file's bytes, as `bowline vectorize --vocab` writes it (with no labels).
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let file = VocabularyFile {
            labels: Vec::new(),
            vectorizer: self.vectorizer.clone(),
        };
        let bytes = serde_json::to_vec(&file).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// A vectorizer from the bytes of a vocabulary file.
    #[staticmethod]
    fn from_bytes(bytes: &[u8]) -> PyResult<Self> {
        let file: VocabularyFile = serde_json::from_slice(bytes)
            .map_err(|e| PyValueError::new_err(format!("not a bowline vocabulary: {e}")))?;
        Ok(VectorizerModel {
            analyzer: Analyzer::new(file.vectorizer.analyzer().clone())?,
            vectorizer: file.vectorizer,
        })
    }
}

impl VectorizerModel {
    /// The rows of `source`'s documents, analyzed, counted and weighed on the pipeline.
    fn matrix(&self, source: Source, n_jobs: Option<i64>) -> Result<Matrix> {
        let pipeline = pipeline(n_jobs);
        let stages = transform_stages(
            &self.analyzer,
            &self.vectorizer,
            source.max_doc_bytes,
            pipeline.is_fused(),
        );
        let mut rows = MatrixBuilder::default();
        run_stages(source.entries, &pipeline, stages, |item| {
            rows.push(&item.counted.row);
            Ok(())
        })?;
        outer(&self.vectorizer, rows.finish(self.vectorizer.n_features())?)
    }
}

/// `matrix` over the columns scikit-learn's `HashingVectorizer` has: for hashed terms, each kept
/// column moved to its hashed column of 2^bits (they ascend alike); otherwise as it is.
fn outer(vectorizer: &FittedVectorizer, matrix: Matrix) -> Result<Matrix> {
    if vectorizer.hashing().is_none() {
        return Ok(matrix);
    }
    let (mut rows, mut row) = (MatrixBuilder::default(), SparseRow::default());
    for i in 0..matrix.rows() {
        let (indices, values) = matrix_row(&matrix, i);
        row.indices.clear();
        row.indices
            .extend(indices.iter().map(|&j| vectorizer.outer_column(j)));
        row.values.clear();
        row.values.extend_from_slice(values);
        rows.push(&row);
    }
    rows.finish(vectorizer.space())
}
