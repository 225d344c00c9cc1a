//! What crosses between Python and the library: errors, texts, thread counts and CSR arrays.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyOSError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::error::Error;
use crate::pipeline::{Layout, PipelineConfig};
use crate::vectorize::Matrix;

impl From<Error> for PyErr {
    /// A file that could not be read or written is an `OSError`; everything else bowline
    /// refuses (a parameter, a malformed model file, an input) is a `ValueError`. Both carry
    /// bowline's own message.
    fn from(error: Error) -> PyErr {
        match error {
            Error::Io { .. } => PyOSError::new_err(error.to_string()),
            _ => PyValueError::new_err(error.to_string()),
        }
    }
}

/// The texts of any Python iterable, each `str` or `bytes`; bytes are decoded as bowline
/// decodes a file (UTF-8, else Windows-1252).
pub(crate) fn read_texts(items: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let mut texts = Vec::with_capacity(items.len().unwrap_or(0));
    for item in items.try_iter()? {
        texts.push(read_text(&item?)?);
    }
    Ok(texts)
}

/// One text, `str` or `bytes`.
pub(crate) fn read_text(item: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = item.cast::<PyString>() {
        return Ok(text.to_cow()?.into_owned());
    }
    if let Ok(bytes) = item.cast::<PyBytes>() {
        return Ok(crate::corpus::decode(bytes.as_bytes().to_vec()).0);
    }
    let kind = item.get_type().name()?;
    Err(PyTypeError::new_err(format!(
        "a text must be str or bytes, not {kind}"
    )))
}

/// The pipeline for `n_jobs` threads as scikit-learn counts them: `None` is one thread, -1
/// every core, -2 every core but one, and so on.
pub(crate) fn pipeline(n_jobs: Option<i64>) -> PipelineConfig {
    let cores = crate::pipeline::default_threads() as i64;
    let workers = match n_jobs {
        None | Some(0) => 1,
        Some(n) if n < 0 => (cores + 1 + n).max(1),
        Some(n) => n,
    };
    PipelineConfig {
        layout: Layout::Fused {
            workers: workers as usize,
        },
        ..PipelineConfig::default()
    }
}

/// A CSR matrix as the arrays `scipy.sparse.csr_matrix((data, indices, indptr), shape)` takes,
/// each handed to numpy without a copy. Indices are `int32` while they fit, as scipy keeps
/// them, so that scipy need not convert them.
pub(crate) type CsrArrays<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    (usize, usize),
);

/// The arrays of `matrix`, for [`CsrArrays`].
pub(crate) fn csr_arrays(py: Python<'_>, matrix: Matrix) -> CsrArrays<'_> {
    let shape = matrix.shape();
    let (indptr, indices, data) = matrix.into_raw_storage();
    let small = indices.len() < i32::MAX as usize && shape.1 < i32::MAX as usize;
    let data = PyArray1::from_vec(py, data).into_any();
    if small {
        let indptr: Vec<i32> = indptr.into_iter().map(|i| i as i32).collect();
        let indices: Vec<i32> = indices.into_iter().map(|i| i as i32).collect();
        let indptr = PyArray1::from_vec(py, indptr).into_any();
        (
            data,
            PyArray1::from_vec(py, indices).into_any(),
            indptr,
            shape,
        )
    } else {
        let indptr: Vec<i64> = indptr.into_iter().map(|i| i as i64).collect();
        let indices: Vec<i64> = indices.into_iter().map(i64::from).collect();
        let indptr = PyArray1::from_vec(py, indptr).into_any();
        (
            data,
            PyArray1::from_vec(py, indices).into_any(),
            indptr,
            shape,
        )
    }
}

/// A `(rows, columns)` array of `values` laid out row by row.
pub(crate) fn table(
    py: Python<'_>,
    values: Vec<f64>,
    columns: usize,
) -> PyResult<Bound<'_, PyAny>> {
    let rows = values.len().checked_div(columns).unwrap_or(0);
    Ok(PyArray1::from_vec(py, values)
        .reshape([rows, columns])?
        .into_any())
}
