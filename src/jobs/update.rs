//! `update`: a saved model taught more labelled documents, in this process or across a cluster,
//! and written over itself (under its lock) or to another file. See
//! [`TextClassifier::update_source`] for what an update means for each classifier.
//!
//! An update runs in three steps, so that a front end can act between them: [`Update::open`]
//! locks and loads the model, [`Opened::run`] reads the corpus and learns it, and
//! [`Updated::save`] writes the result.

use std::path::{Path, PathBuf};

use super::{Note, Placement};
use crate::analyze::AnalyzerConfig;
use crate::corpus::ReadOptions;
use crate::error::{Error, Result};
use crate::flow::Source;
use crate::model::{Model, ModelLock};
use crate::pipeline::PipelineConfig;
use crate::{Reading, TextClassifier};

/// An update's files: the model, the corpus of new documents, and where the result goes.
#[derive(Debug, Clone)]
pub struct Update {
    model: PathBuf,
    corpus: PathBuf,
    output: Option<PathBuf>,
}

impl Update {
    /// An update of the model at `model` with the labelled corpus at `corpus`, written to
    /// `output`, or over the model without it. Refuses an output that is the corpus.
    pub fn new(model: PathBuf, corpus: PathBuf, output: Option<PathBuf>) -> Result<Self> {
        let update = Update {
            model,
            corpus,
            output,
        };
        crate::io::refuse_overwriting_inputs(update.target(), &[&update.corpus])?;
        Ok(update)
    }

    /// Where the updated model goes.
    fn target(&self) -> &Path {
        self.output.as_deref().unwrap_or(&self.model)
    }

    /// Loads the model, refusing one that cannot be updated. The process that writes the result
    /// (see [`Placement::writes`]) first takes the model's lock and holds it until the result is
    /// written, so that two updates of one model take turns instead of one losing the other's
    /// documents.
    pub fn open(self, placement: &Placement) -> Result<Opened> {
        let lock = (placement.writes())
            .then(|| ModelLock::acquire(&self.model))
            .transpose()?;
        let classifier = TextClassifier::load(&self.model)?;
        // Refused before the corpus is read, naming the model file, which the library's own
        // check in the update cannot know.
        if let Some(reason) = classifier.model().classifier.not_updatable() {
            return Err(Error::input(&self.model, reason));
        }
        Ok(Opened {
            update: self,
            classifier,
            lock,
        })
    }
}

/// An update whose model is loaded, and locked in the process that writes it.
pub struct Opened {
    update: Update,
    classifier: TextClassifier,
    lock: Option<ModelLock>,
}

impl Opened {
    /// How the model analyzes text, as it will analyze the new documents.
    pub fn analysis(&self) -> &AnalyzerConfig {
        self.classifier.analyzer().config()
    }

    /// Reads the corpus with `read` on `pipeline` where `placement` says, telling `note` of
    /// every entry read, and learns its documents. In a cluster, every process reads the corpus,
    /// each worker counts the documents it owns, and process 0 learns them all. Returns the
    /// updated model in the process that writes it, `None` in the others; an error naming the
    /// corpus when it holds no document.
    pub fn run(
        self,
        read: &ReadOptions,
        pipeline: PipelineConfig,
        placement: &Placement,
        note: Note,
    ) -> Result<Option<Updated>> {
        let Opened {
            update,
            mut classifier,
            lock,
        } = self;
        let learned = match placement {
            Placement::Local => {
                let source = Source::open(&update.corpus, read)?;
                let mut reading = Reading::new(pipeline).on_entry(|entry| note(entry));
                Some(classifier.update_source(source, &mut reading)?)
            }
            #[cfg(feature = "cluster")]
            Placement::Cluster(cluster) => {
                let corpus = &update.corpus;
                crate::cluster::update(cluster, &mut classifier, corpus, read, &pipeline, note)?
            }
        };
        // A corpus without documents (class folders without files, an empty file) would only
        // rewrite the model with a new date and corpus name: refused, the model left as it was.
        if learned.is_some_and(|learned| learned.documents == 0) {
            let message = "no labelled document to learn, so the model was not updated";
            return Err(Error::input(&update.corpus, message));
        }
        // Only the process holding the lock writes, so only it gets a model to save.
        Ok(learned.zip(lock).map(|(learned, lock)| Updated {
            documents: learned.documents,
            classifier,
            lock,
            update,
        }))
    }
}

/// An updated model, ready to be written.
pub struct Updated {
    documents: usize,
    classifier: TextClassifier,
    lock: ModelLock,
    update: Update,
}

impl Updated {
    /// The documents learned.
    pub fn documents(&self) -> usize {
        self.documents
    }

    /// The updated model.
    pub fn model(&self) -> &Model {
        self.classifier.model()
    }

    /// Where [`Updated::save`] writes it.
    pub fn target(&self) -> &Path {
        self.update.target()
    }

    /// Writes the updated model: to the other file asked for, or over the model under the lock
    /// held since it was read. The lock is released when `self` is dropped.
    pub fn save(&self) -> Result<()> {
        match &self.update.output {
            Some(other) => self.classifier.save(other),
            None => self.classifier.model().save_locked(&self.lock),
        }
    }
}
