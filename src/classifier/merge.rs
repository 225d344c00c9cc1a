//! Merging classifiers trained on disjoint shards of a corpus (see [`crate::model::merge`](mod@crate::model::merge)).

use super::{Builder, TextClassifier};
use crate::error::Result;
use crate::model::{merge, Part, Trainer};

impl TextClassifier {
    /// Merges classifiers trained on disjoint shards with the same analysis and settings, each
    /// named for its errors: naive Bayes into exactly the model of training on the union (when
    /// the shards kept every term and weighed with integer weights), SVMs by averaging their
    /// weights by documents. See [`crate::model::merge`](mod@crate::model::merge) for what is refused, and why.
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
}

impl Builder {
    /// The kind and parameters it trains with.
    pub fn trainer_config(&self) -> &Trainer {
        &self.trainer
    }
}
