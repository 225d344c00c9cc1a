//! `merge`: models trained on disjoint shards of a corpus combined into one and written (see
//! [`crate::model::merge`](mod@crate::model::merge) for what merges exactly and what is refused).

use std::path::{Path, PathBuf};

use crate::error::Result;
use crate::TextClassifier;

/// A `merge` run.
#[derive(Debug, Clone)]
pub struct Merge {
    /// The model files, two or more.
    pub models: Vec<PathBuf>,
    /// Where the merged model goes.
    pub output: PathBuf,
}

impl Merge {
    /// Merges the models and writes the result to the output, which must be none of them;
    /// returns the merged model, which the summary describes.
    pub fn run(&self) -> Result<TextClassifier> {
        let inputs: Vec<&Path> = self.models.iter().map(PathBuf::as_path).collect();
        crate::io::refuse_overwriting_inputs(&self.output, &inputs)?;
        let merged = TextClassifier::merge_files(&self.models)?;
        merged.save(&self.output)?;
        Ok(merged)
    }
}
