//! `merge`: models trained on disjoint shards of a corpus combined into one and written (see
//! [`crate::model::merge`](mod@crate::model::merge) for what merges exactly and what is refused).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::model::Model;
use crate::TextClassifier;

/// A `merge` run.
#[derive(Debug, Clone)]
pub struct Merge {
    /// The model files, two or more.
    pub models: Vec<PathBuf>,
    /// Where the merged model goes.
    pub output: PathBuf,
    /// Merge models that share a corpus in their provenance, or that are one file or one
    /// model: their documents are then counted more than once.
    pub allow_overlap: bool,
}

impl Merge {
    /// Merges the models and writes the result to the output, which must be none of them;
    /// returns the merged model, which the summary describes.
    pub fn run(&self) -> Result<TextClassifier> {
        let inputs: Vec<&Path> = self.models.iter().map(PathBuf::as_path).collect();
        crate::io::refuse_overwriting_inputs(&self.output, &inputs)?;
        let parts = (self.models.iter())
            .map(|path| Ok((path.clone(), TextClassifier::load(path)?)))
            .collect::<Result<Vec<_>>>()?;
        if !self.allow_overlap {
            refuse_overlap(&parts)?;
        }
        let named = parts.into_iter().map(|(p, m)| (p.display().to_string(), m));
        let merged = TextClassifier::merge(named)?;
        merged.save(&self.output)?;
        Ok(merged)
    }
}

/// Refuses two parts that are one model (the same file, or the same bytes: the header's
/// checksums cover every byte) or that name a corpus in common in their provenance: merging
/// them would count some documents twice.
fn refuse_overlap(parts: &[(PathBuf, TextClassifier)]) -> Result<()> {
    let fingerprints = (parts.iter())
        .map(|(path, _)| Model::fingerprint(path))
        .collect::<Result<Vec<_>>>()?;
    for (i, (a, first)) in parts.iter().enumerate() {
        for (j, (b, second)) in parts.iter().enumerate().skip(i + 1) {
            let why = if fingerprints[i] == fingerprints[j] {
                "are the same model".to_string()
            } else {
                let corpora = &second.model().info.corpora;
                match (first.model().info.corpora.iter()).find(|c| corpora.contains(c)) {
                    Some(corpus) => format!("were both trained on {corpus}"),
                    None => continue,
                }
            };
            return Err(Error::Config(format!(
                "{} and {} {why}: merging them would count documents twice; merge models of \
                 disjoint shards, or give --allow-overlap",
                a.display(),
                b.display()
            )));
        }
    }
    Ok(())
}
