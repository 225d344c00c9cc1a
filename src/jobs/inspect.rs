//! `inspect`: a model file read and described for people, as aligned text, or for programs, as
//! JSON (`render::model` writes both).

use std::path::PathBuf;

use crate::error::Result;
use crate::render::model::Inspection;
use crate::TextClassifier;

/// An `inspect` run.
#[derive(Debug, Clone)]
pub struct Inspect {
    /// The model file.
    pub model: PathBuf,
    /// Terms shown per class.
    pub top: usize,
    /// JSON instead of text.
    pub json: bool,
}

impl Inspect {
    /// The model described, as JSON when asked for, else as text.
    pub fn run(&self) -> Result<String> {
        let classifier = TextClassifier::load(&self.model)?;
        let inspection = Inspection::new(&self.model, classifier.model(), self.top);
        if self.json {
            inspection.json()
        } else {
            Ok(inspection.text())
        }
    }
}
