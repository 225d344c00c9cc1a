//! Texts from Python as a [`Source`]: a list or tuple is read at once, any other iterable (a
//! generator, a file) one text at a time as the pipeline asks for it, so that its texts are
//! never all held in memory before the work starts.

use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyList, PyTuple};

use super::convert::{read_text, read_texts};
use crate::flow::Source;

/// What a streamed read leaves behind for [`Stream::finish`]: the Python error that ended it,
/// and how many texts it read.
#[derive(Default)]
struct State {
    error: Option<PyErr>,
    read: usize,
}

/// The texts of a Python iterator, each read with the GIL taken for it alone, so that the
/// pipeline's work runs without it between texts. An error (from the iterator, or an item that
/// is not a text) ends the texts and waits in the state.
struct Pull {
    iterator: Py<PyIterator>,
    state: Arc<Mutex<State>>,
}

impl Iterator for Pull {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        Python::attach(|py| {
            let mut state = self.state.lock().ok()?;
            if state.error.is_some() {
                return None;
            }
            let text = self
                .iterator
                .bind(py)
                .clone()
                .next()?
                .and_then(|item| read_text(&item));
            match text {
                Ok(text) => {
                    state.read += 1;
                    Some(text)
                }
                Err(error) => {
                    state.error = Some(error);
                    None
                }
            }
        })
    }
}

/// How a read of texts ended, checked once the work on them is done.
pub(crate) struct Stream {
    /// A streamed read's iterator and state; `None` when the texts were read at once.
    pulled: Option<(Py<PyIterator>, Arc<Mutex<State>>)>,
    /// Texts read at once, or the labels the texts were paired with.
    expected: Option<usize>,
    texts: usize,
}

/// The texts of `items` as a source, each text paired with its set of `labels` when there are
/// labels, and the [`Stream`] to finish once the source is read.
pub(crate) fn texts_source(
    items: &Bound<'_, PyAny>,
    labels: Option<Vec<Vec<String>>>,
) -> PyResult<(Source, Stream)> {
    let expected = labels.as_ref().map(Vec::len);
    if items.is_instance_of::<PyList>() || items.is_instance_of::<PyTuple>() {
        let texts = read_texts(items)?;
        let stream = Stream {
            pulled: None,
            expected,
            texts: texts.len(),
        };
        let labels = labels.unwrap_or_else(|| vec![Vec::new(); texts.len()]);
        return Ok((Source::streamed(labels.into_iter().zip(texts)), stream));
    }
    let iterator = items.try_iter()?.unbind();
    let state = Arc::new(Mutex::new(State::default()));
    let pull = Pull {
        iterator: iterator.clone_ref(items.py()),
        state: Arc::clone(&state),
    };
    let source = match labels {
        Some(labels) => Source::streamed(labels.into_iter().zip(pull)),
        None => Source::streamed(pull.map(|text| (Vec::new(), text))),
    };
    let stream = Stream {
        pulled: Some((iterator, state)),
        expected,
        texts: 0,
    };
    Ok((source, stream))
}

impl Stream {
    /// The work's `result`, unless the texts failed first: the iterator's own Python error, or
    /// a count of texts that differs from the count of labels (which comes before whatever the
    /// work made of the texts it had).
    pub(crate) fn finish<T>(self, py: Python<'_>, result: crate::Result<T>) -> PyResult<T> {
        let mut texts = self.texts;
        let mut more = false;
        if let Some((iterator, state)) = &self.pulled {
            let mut state = state
                .lock()
                .map_err(|_| PyValueError::new_err("reading the texts failed"))?;
            if let Some(error) = state.error.take() {
                return Err(error);
            }
            texts = state.read;
            // Labels that ran out before the texts leave texts unread: one more tells.
            more = self.expected == Some(texts) && iterator.bind(py).clone().next().is_some();
        }
        match self.expected {
            Some(labels) if more || labels != texts => Err(PyValueError::new_err(format!(
                "X has {}{texts} texts but y has {labels} labels",
                if more { "more than " } else { "" }
            ))),
            _ => Ok(result?),
        }
    }
}
