//! Merging classifiers trained on disjoint shards of a corpus (see [`crate::model::merge`](mod@crate::model::merge)).

use std::path::Path;

use super::{Builder, Reading, TextClassifier};
use crate::error::{Error, Result};
use crate::flow::Source;
use crate::model::{merge, Model, Part, Trainer, TrainingInfo};

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

impl Builder {
    /// The kind and parameters it trains with.
    pub fn trainer_config(&self) -> &Trainer {
        &self.trainer
    }

    /// Trains on one shard of a corpus, for merging with the other shards' models: as
    /// [`Builder::fit_source`] does, but a shard may hold a single class, and one without
    /// documents gives no model.
    pub fn fit_part(self, source: Source, reading: &mut Reading) -> Result<Option<Model>> {
        let name = source.name.clone();
        let (_, fitted) = self.read_corpus(source, reading, |_| {})?;
        if fitted.labels.is_empty() {
            return Ok(None);
        }
        let ids: Option<Vec<u32>> = (fitted.class_ids().iter())
            .map(|id| id.map(|c| c as u32))
            .collect();
        let ids =
            ids.ok_or_else(|| Error::input(&name, "training needs a label on every document"))?;
        let classes = fitted.classes.len();
        let mut docs_per_class = vec![0u64; classes];
        ids.iter().for_each(|&c| docs_per_class[c as usize] += 1);
        let classifier = self.trainer.fit(&fitted.matrix, &ids, classes)?;
        Ok(Some(Model {
            vectorizer: fitted
                .vectorizer
                .with_weighting(self.vectorizer.weighting)?,
            labels: fitted.classes,
            classifier,
            info: TrainingInfo::now(vec![name.display().to_string()], docs_per_class),
        }))
    }
}
