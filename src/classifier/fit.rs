//! Training: a labelled corpus becomes a model.

use std::path::Path;

use super::{Builder, Reading, TextClassifier};
use crate::analyze::Analyzer;
use crate::corpus::Entry;
use crate::error::Result;
use crate::flow::{fit_corpus, Source};
use crate::model::{Model, TrainingInfo};
use crate::vectorize::{counting_config, FittedCorpus, VectorizerConfig};

/// A classifier just trained, with what it was trained on.
#[derive(Debug)]
pub struct Fitted {
    /// The classifier.
    pub classifier: TextClassifier,
    /// Training documents.
    pub documents: usize,
}

impl Builder {
    /// Trains on `(label, text)` pairs held in memory, with the default pipeline.
    pub fn fit<L: Into<String>, T: Into<String>>(
        self,
        pairs: impl IntoIterator<Item = (L, T)>,
    ) -> Result<TextClassifier> {
        let fitted = self.fit_source(Source::labelled(pairs), &mut Reading::default())?;
        Ok(fitted.classifier)
    }

    /// Trains on the documents of `source`, every one of which needs a label, from two classes
    /// or more; `source.name` is recorded in the model as its corpus.
    pub fn fit_source(self, source: Source, reading: &mut Reading) -> Result<Fitted> {
        let name = source.name.clone();
        let (analyzer, fitted) = self.read_corpus(source, reading, |_| {})?;
        self.train_single(analyzer, fitted, &name)
    }

    /// Reads, analyzes and vectorizes `source` for training, calling `on_document` with every
    /// document read (in input order) besides telling `reading` of every entry.
    pub(super) fn read_corpus(
        &self,
        source: Source,
        reading: &mut Reading,
        mut on_document: impl FnMut(&Entry),
    ) -> Result<(Analyzer, FittedCorpus)> {
        let analyzer = Analyzer::new(self.analysis.clone())?;
        let fit_config = self.counting_config();
        let (pipeline, note) = reading.parts();
        let fitted = fit_corpus(source, &analyzer, &fit_config, pipeline, |entry| {
            note(entry);
            if entry.is_document() {
                on_document(entry);
            }
        })?;
        Ok((analyzer, fitted))
    }

    /// What a corpus is counted and pruned with for this trainer: the configuration, but raw
    /// counts for a trainer that learns counts (the model's vectorizer gets the configured
    /// weighting back afterwards, for the documents it classifies).
    pub(crate) fn counting_config(&self) -> VectorizerConfig {
        if self.trainer.learns_counts() {
            VectorizerConfig {
                weighting: counting_config().weighting,
                ..self.vectorizer.clone()
            }
        } else {
            self.vectorizer.clone()
        }
    }

    /// Trains a single-label model on a corpus read by [`Builder::read_corpus`] from `name`.
    pub(super) fn train_single(
        self,
        analyzer: Analyzer,
        fitted: FittedCorpus,
        name: &Path,
    ) -> Result<Fitted> {
        let config = self.vectorizer;
        let ids = fitted.training_ids(name, "training")?;
        let classes = fitted.classes.len();
        let mut docs_per_class = vec![0u64; classes];
        ids.iter().for_each(|&c| docs_per_class[c as usize] += 1);
        let space = fitted.vectorizer.space();
        let classifier = self.trainer.fit_in(&fitted.matrix, &ids, classes, space)?;
        // The training matrix is spent; freeing it before the model is encoded lowers the peak.
        drop(fitted.matrix);
        let model = Model {
            vectorizer: fitted.vectorizer.with_weighting(config.weighting)?,
            labels: fitted.classes,
            classifier,
            info: TrainingInfo::now(vec![name.display().to_string()], docs_per_class),
        };
        Ok(Fitted {
            classifier: TextClassifier { model, analyzer },
            documents: ids.len(),
        })
    }
}
