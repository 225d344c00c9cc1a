//! Merging classifiers trained on disjoint shards of a corpus (see [`crate::model::merge`]).

use std::path::Path;

use super::TextClassifier;
use crate::error::Result;
use crate::model::{merge, Model, Part};

impl TextClassifier {
    /// Merges classifiers trained on disjoint shards with the same analysis and settings, each
    /// named for its errors: naive Bayes into exactly the model of training on the union (when
    /// the shards kept every term and weighed with integer weights), SVMs by averaging their
    /// weights by documents. See [`crate::model::merge`] for what is refused, and why.
    pub fn merge(parts: impl IntoIterator<Item = (String, TextClassifier)>) -> Result<Self> {
        let parts: Vec<Part> = parts
            .into_iter()
            .map(|(name, classifier)| Part {
                name,
                model: classifier.model,
            })
            .collect();
        Self::from_model(merge(&parts)?)
    }

    /// Loads the model files at `paths` and merges them, as [`TextClassifier::merge`] does.
    pub fn merge_files<P: AsRef<Path>>(paths: &[P]) -> Result<Self> {
        let parts = paths
            .iter()
            .map(|path| {
                let path = path.as_ref();
                Ok(Part {
                    name: path.display().to_string(),
                    model: Model::load(path)?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Self::from_model(merge(&parts)?)
    }
}
