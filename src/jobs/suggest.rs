//! `suggest`: the pool documents whose labels would help a model most.

use std::collections::HashMap;
use std::path::PathBuf;

use super::Note;
use crate::active::{excerpt, Picker, Strategy, Suggestion};
use crate::corpus::ReadOptions;
use crate::error::{Error, Result};
use crate::pipeline::PipelineConfig;
use crate::{Reading, TextClassifier};

/// A `suggest` run.
pub struct Suggest {
    /// The model file.
    pub model: PathBuf,
    /// The pool: files, folders of files, line files; read twice, so not stdin.
    pub pool: Vec<PathBuf>,
    /// How the pool is read: as unlabeled documents
    /// ([`InputFlags::unlabelled_options`](super::settings::InputFlags::unlabelled_options)).
    pub read: ReadOptions,
    /// Threads and batches.
    pub pipeline: PipelineConfig,
    /// Documents to suggest at most.
    pub n: usize,
    /// How they are chosen.
    pub strategy: Strategy,
    /// Orders the `random` strategy.
    pub seed: u64,
}

impl Suggest {
    /// Scores every pool document with the model, telling `note` of each entry read, and gives
    /// the documents to label, first to ask first, each with the start of its text.
    pub fn run(self, note: Note) -> Result<Vec<Suggestion>> {
        if self.n == 0 {
            return Err(Error::Config("--n must be at least 1".into()));
        }
        if self.pool.iter().any(|p| p.as_os_str() == "-") {
            return Err(Error::Config(
                "suggest reads its pool twice (to score it, then to quote the documents it \
                 picks), so the pool must be files or folders, not stdin"
                    .into(),
            ));
        }
        let classifier = TextClassifier::load(&self.model)?;
        let labels = &classifier.model().labels;
        let mut picker = Picker::new(self.strategy, self.n, self.seed);
        let source = super::classify::sources(&self.pool, &self.read)?;
        let mut reading = Reading::new(self.pipeline).on_entry(|entry| note(entry));
        classifier.classify(source, &mut reading, |item, probabilities| {
            if let Some(probabilities) = probabilities {
                let row = &item.counted.row;
                picker.offer(&item.entry.doc.id, (labels, probabilities), row);
            }
            Ok(())
        })?;
        let mut picked = picker.finish();
        quote(&self.pool, &self.read, &mut picked)?;
        Ok(picked)
    }
}

/// Fills each suggestion's excerpt from a second read of the pool.
fn quote(pool: &[PathBuf], read: &ReadOptions, picked: &mut [Suggestion]) -> Result<()> {
    let mut wanted: HashMap<String, usize> = (picked.iter().enumerate())
        .map(|(i, s)| (s.id.clone(), i))
        .collect();
    let source = super::classify::sources(pool, read)?;
    for mut entry in source.entries {
        if let Some(i) = wanted.remove(&entry.doc.id) {
            crate::corpus::load_pending(&mut entry, read.max_doc_bytes);
            picked[i].excerpt = excerpt(&entry.doc.text);
        }
        if wanted.is_empty() {
            break;
        }
    }
    Ok(())
}
