//! The Python extension module `bowline._bowline` (cargo feature `python`), built by maturin
//! from `pyproject.toml`.
//!
//! It is thin on purpose: each class holds one of the library's values and each method is one
//! call into it, with the GIL released while the work runs. The estimators Python users meet
//! (`bowline.TextClassifier`, `bowline.Vectorizer`, `bowline.MultinomialNB`...) are written in
//! Python over these (`src/python/bowline/`), where scikit-learn's conventions (parameters,
//! input checks, `classes_`) are kept: they hold parameters, this holds models.

mod convert;
mod csr;
mod matrix;
mod settings;
mod stream;
mod text;
mod vectorizer;

use pyo3::prelude::*;

// The extension allocates as the program does (src/main.rs), with mimalloc: the pipeline
// allocates and frees per-document buffers on several threads at once. Where the program is
// built too (feature `cli`), its own allocator serves both.
#[cfg(not(feature = "cli"))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The module: its version (the crate's) and its three model classes.
#[pymodule]
fn _bowline(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    module.add_class::<text::TextModel>()?;
    module.add_class::<vectorizer::VectorizerModel>()?;
    module.add_class::<matrix::MatrixModel>()?;
    Ok(())
}
