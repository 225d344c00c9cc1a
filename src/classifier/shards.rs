//! Training in cluster mode: on one shard of a corpus, for merging with the other shards'
//! models, or on a corpus that a cluster's workers analyzed and counted.

use std::path::Path;

use super::{Builder, Fitted, Reading};
use crate::analyze::Analyzer;
use crate::error::{Error, Result};
use crate::flow::Source;
use crate::model::{Model, TrainingInfo};
use crate::vectorize::CountedCorpus;

impl Builder {
    /// Trains on one shard of a corpus, for merging with the other shards' models: as
    /// [`Builder::fit_source`] does, but a shard may hold a single class, and one without
    /// documents gives no model.
    pub(crate) fn fit_part(self, source: Source, reading: &mut Reading) -> Result<Option<Model>> {
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
        let space = fitted.vectorizer.space();
        let classifier = self.trainer.fit_in(&fitted.matrix, &ids, classes, space)?;
        Ok(Some(Model {
            vectorizer: fitted
                .vectorizer
                .with_weighting(self.vectorizer.weighting)?,
            labels: fitted.classes,
            classifier,
            info: TrainingInfo::now(vec![name.display().to_string()], docs_per_class),
        }))
    }

    /// Trains a single-label model on the corpus at `name` as [`Builder::fit_source`] does, from
    /// its documents already analyzed and counted with [`Builder::counting_config`] (by a
    /// cluster's workers, say).
    pub(crate) fn fit_counted(self, counted: CountedCorpus, name: &Path) -> Result<Fitted> {
        let analyzer = Analyzer::new(self.analysis.clone())?;
        let fitted = counted.finish(analyzer.config().clone())?;
        self.train_single(analyzer, fitted, name)
    }
}
