//! `export`: a model written as one line of JSON from which another program computes the same
//! scores as bowline (the schema is [`crate::model::export`]'s).

use std::path::PathBuf;

use crate::error::Result;
use crate::model::export::Export as ExportedModel;
use crate::TextClassifier;

/// The schema of the JSON `export` writes, for `bowline export --help`.
pub use crate::model::export::SCHEMA;

/// An `export` run.
#[derive(Debug, Clone)]
pub struct Export {
    /// The model file.
    pub model: PathBuf,
    /// Where the JSON goes; `-` is stdout.
    pub output: PathBuf,
}

impl Export {
    /// Writes the model's JSON to the output, atomically, without ever holding it as text: an
    /// exported model can be far larger than its file. Refuses an output that is the model.
    pub fn run(&self) -> Result<()> {
        crate::io::refuse_overwriting_inputs(&self.output, &[&self.model])?;
        let classifier = TextClassifier::load(&self.model)?;
        let exported = ExportedModel::new(classifier.model());
        crate::io::write_atomically(&self.output, |out| {
            crate::render::write_json(out, &exported)
        })
    }
}
