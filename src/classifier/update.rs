//! Updating: a trained model learns more labelled documents without retraining from scratch.
//!
//! The new documents are counted over their own vocabulary, which is merged with the model's:
//! new terms become new columns, new classes new labels, document frequencies add up. Each new
//! document is then weighted with the merged vectorizer, and the classifier learns the rows as
//! its kind does (see [`Classifier::update`](crate::model::Classifier::update)): naive Bayes adds
//! them to its counts, k-NN keeps them and derives its weights again, the SVM continues its dual
//! problem over its reservoir of earlier rows plus the new ones.

use std::path::Path;

use super::{class_id, Reading, TextClassifier};
use crate::error::{Error, Result};
use crate::flow::{count_corpus, Source};
use crate::model::{utc_now, LabelSets};
use crate::vectorize::{count_rows, counting_config, weigh_rows, CountedCorpus, VectorizerConfig};

/// What an update added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Updated {
    /// Documents learned.
    pub documents: usize,
}

impl TextClassifier {
    /// Learns `(label, text)` pairs held in memory, with the default pipeline.
    pub fn update<L: Into<String>, T: Into<String>>(
        &mut self,
        pairs: impl IntoIterator<Item = (L, T)>,
    ) -> Result<Updated> {
        self.update_source(Source::labelled(pairs), &mut Reading::default())
    }

    /// Learns the labelled documents of `source`; `source.name` is added to the model's
    /// corpora, unless it is the last one there already. A model from `select` keeps only its selected features and cannot be updated.
    pub fn update_source(&mut self, source: Source, reading: &mut Reading) -> Result<Updated> {
        let name = source.name.clone();
        self.model.classifier.check_updatable()?;
        let (pipeline, note) = reading.parts();
        let mut label_sets = Vec::new();
        let counted = count_corpus(
            source,
            &self.analyzer,
            &self.update_config(),
            pipeline,
            |entry| {
                note(entry);
                if entry.is_document() {
                    label_sets.push(entry.doc.label_set());
                }
            },
        )?;
        self.update_counted(counted, &label_sets, &name)
    }

    /// How new documents are counted for an update: raw counts over every term, hashed as the
    /// model hashes.
    pub(crate) fn update_config(&self) -> VectorizerConfig {
        VectorizerConfig {
            hashing: self.model.vectorizer.hashing(),
            ..counting_config()
        }
    }

    /// Learns documents of the corpus at `name` already analyzed and counted with
    /// [`TextClassifier::update_config`] (by a cluster's workers, say), with each document's
    /// label set, as [`TextClassifier::update_source`] does.
    pub(crate) fn update_counted(
        &mut self,
        counted: CountedCorpus,
        label_sets: &[Vec<String>],
        name: &Path,
    ) -> Result<Updated> {
        self.model.classifier.check_updatable()?;
        let fitted = counted.finish(self.analyzer.config().clone())?;
        let model = &mut self.model;
        let documents = fitted.labels.len();
        let (merged, ours, theirs) = model.vectorizer.extend(&fitted.vectorizer)?;
        let sets = label_ids(name, &mut model.labels, label_sets)?;
        let multi = model.classifier.multi_label().is_some();
        if !multi && (0..sets.len()).any(|i| sets.row(i).len() > 1) {
            let message = "documents with several labels can only update a multi-label model";
            return Err(Error::input(name, message));
        }
        // The new documents' counts, moved to the merged columns and weighted as the model
        // weighs (k-NN weighs its own counts).
        let all: Vec<usize> = (0..documents).collect();
        let columns = merged.n_features();
        let rows = if model.classifier.learns_counts() {
            count_rows(&fitted.matrix, &theirs, &all, columns)?
        } else {
            weigh_rows(&fitted.matrix, &merged, &theirs, &all)?
        };
        let classes = model.labels.len();
        let (old, classifier) = (&model.vectorizer, &mut model.classifier);
        if multi {
            classifier.update_sets(&rows, &sets, classes, old, &merged, &ours)?;
        } else {
            let ids: Vec<u32> = (0..sets.len()).map(|i| sets.row(i)[0]).collect();
            classifier.update(&rows, &ids, classes, old, &merged, &ours)?;
        }
        model.info.docs_per_class.resize(classes, 0);
        let per_class = sets.counts(classes);
        (model.info.docs_per_class.iter_mut().zip(per_class)).for_each(|(n, new)| *n += new);
        // A stream of small updates from one source (a service's learn requests, say) names it
        // once, so that the list does not grow with every batch.
        let name = name.display().to_string();
        if model.info.corpora.last() != Some(&name) {
            model.info.corpora.push(name);
        }
        model.info.written = utc_now();
        model.vectorizer = merged;
        Ok(Updated { documents })
    }
}

/// Each document's labels as class ids, adding new labels to `labels`; every document needs
/// one. A single-label document's set is its one class.
fn label_ids(name: &Path, labels: &mut Vec<String>, sets: &[Vec<String>]) -> Result<LabelSets> {
    let mut ids = LabelSets::new();
    for set in sets {
        if set.is_empty() {
            return Err(Error::input(
                name,
                "updating needs a label on every document",
            ));
        }
        let row: Vec<u32> = set.iter().map(|label| class_id(labels, label)).collect();
        ids.push(row);
    }
    Ok(ids)
}
