//! A labelled corpus read once and counted over every term, for the work that fits on parts of
//! it: cross-validation, selection and ranking.

use std::path::Path;

use super::Reading;
use crate::analyze::Analyzer;
use crate::error::{Error, Result};
use crate::flow::{count_corpus, run_stages, transform_stages, Source};
use crate::vectorize::{
    counting_config, matrix_row, CountedCorpus, FittedCorpus, Hashing, MatrixBuilder, SparseRow,
    VectorizerConfig,
};

/// The counted corpus and each row's class id.
#[derive(Debug)]
pub(crate) struct Labelled {
    /// Raw counts over every term, with ids, labels and class names.
    pub corpus: FittedCorpus,
    /// Each row's position in `corpus.classes`.
    pub classes: Vec<u32>,
}

/// Rows appended from a second corpus, and how many of its documents were left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Appended {
    /// The new rows' positions.
    pub rows: Vec<usize>,
    /// Documents of classes the first corpus lacks, which were left out.
    pub unknown: u64,
}

impl Labelled {
    /// Reads and counts `source`, its terms hashed when `hashing` says so; every document needs
    /// a label, and there must be two classes (`purpose` names the work in those errors).
    pub(crate) fn read(
        source: Source,
        purpose: &str,
        analyzer: &Analyzer,
        hashing: Option<Hashing>,
        reading: &mut Reading,
    ) -> Result<Self> {
        let name = source.name.clone();
        let (pipeline, note) = reading.parts();
        let config = VectorizerConfig {
            hashing,
            ..counting_config()
        };
        let counted = count_corpus(source, analyzer, &config, pipeline, note)?;
        Self::counted(counted, analyzer, &name, purpose)
    }

    /// The corpus at `name` counted with [`counting_config`] and the same hashing (by a
    /// cluster's workers, say), with the checks of [`Labelled::read`].
    pub(crate) fn counted(
        counted: CountedCorpus,
        analyzer: &Analyzer,
        name: &Path,
        purpose: &str,
    ) -> Result<Self> {
        let corpus = counted.finish(analyzer.config().clone())?;
        let classes = corpus.training_ids(name, purpose)?;
        Ok(Labelled { corpus, classes })
    }

    /// Reads a second labelled corpus (a dev or test set) over this corpus's vocabulary, terms
    /// it lacks being dropped, and appends its rows. Documents of classes this corpus lacks are
    /// left out, and counted.
    pub(crate) fn append(
        &mut self,
        source: Source,
        analyzer: &Analyzer,
        reading: &mut Reading,
    ) -> Result<Appended> {
        let name = source.name.clone();
        let vectorizer = &self.corpus.vectorizer;
        let (pipeline, note) = reading.parts();
        let fused = pipeline.is_fused();
        let stages = transform_stages(analyzer, vectorizer, source.max_doc_bytes, fused);
        let mut builder = MatrixBuilder::default();
        for i in 0..self.classes.len() {
            let (indices, values) = matrix_row(&self.corpus.matrix, i);
            builder.push(&SparseRow {
                indices: indices.to_vec(),
                values: values.to_vec(),
            });
        }
        let (mut added, mut unknown) = (Vec::new(), 0u64);
        let classes = &self.corpus.classes;
        run_stages(source.entries, pipeline, stages, |item| {
            note(&item.entry);
            if !item.entry.is_document() {
                return Ok(());
            }
            let label = item.entry.doc.label.as_deref();
            let label = label.ok_or_else(|| Error::input(&name, "every document needs a label"))?;
            match classes.iter().position(|c| c == label) {
                Some(c) => {
                    builder.push(&item.counted.row);
                    added.push((c as u32, item.entry.doc.id));
                }
                None => unknown += 1,
            }
            Ok(())
        })?;
        let first = self.classes.len();
        self.corpus.matrix = builder.finish(vectorizer.n_features())?;
        for (class, id) in added {
            self.classes.push(class);
            self.corpus.ids.push(id);
        }
        let rows = (first..self.classes.len()).collect();
        Ok(Appended { rows, unknown })
    }

    /// Class ids of rows `rows`.
    pub(crate) fn classes_of(&self, rows: &[usize]) -> Vec<u32> {
        rows.iter().map(|&i| self.classes[i]).collect()
    }
}
