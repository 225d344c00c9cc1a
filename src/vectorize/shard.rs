//! A fitter's counts moved to another fitter: how the processes of a cluster count their own
//! documents and one of them fits the vocabulary of all.

use serde::{Deserialize, Serialize};

use super::{Counted, Fitter, SparseRow};
use crate::error::{Error, Result};

/// The counts of the documents one fitter saw, over its provisional ids, with the term each id
/// stands for (or over hashed columns, with no terms): what [`Fitter::add_counted`] adds to another fitter, in any order of documents.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(crate) struct CountedShard {
    /// The term of each provisional id.
    pub terms: Vec<String>,
    /// Each document's column ids and counts.
    pub rows: Vec<(Vec<u32>, Vec<f64>)>,
    /// Each document's number of terms.
    pub lengths: Vec<u32>,
}

impl Fitter {
    /// The documents counted so far, to be added to another fitter.
    pub(crate) fn into_shard(self) -> CountedShard {
        let terms = self.interner.into_terms();
        // Hashed rows are kept over this fitter's own ids for the columns: they travel over the
        // hashed columns themselves, the same in every fitter.
        let hashed = self.rows.hashed.as_ref().map(|ids| ids.columns().to_vec());
        let row = |row: SparseRow| match &hashed {
            Some(columns) => {
                let outer = row.indices.iter().map(|&id| columns[id as usize]);
                let mut pairs: Vec<(u32, f64)> = outer.zip(row.values).collect();
                pairs.sort_unstable_by_key(|&(column, _)| column);
                pairs.into_iter().unzip()
            }
            None => (row.indices, row.values),
        };
        CountedShard {
            terms: terms.iter().map(str::to_owned).collect(),
            rows: self.rows.rows.into_iter().map(row).collect(),
            lengths: self.rows.lengths,
        }
    }

    /// Adds document `i` of `shard` as if it had been counted here: its terms take this
    /// fitter's ids (`ids` remembers the shard's ids already looked up; give each shard its
    /// own, empty at first). Adding every shard's documents in input order gives the fitter
    /// that counting the whole corpus in one process gives, up to its provisional ids, which
    /// fitting renumbers in term order.
    pub(crate) fn add_counted(
        &mut self,
        shard: &CountedShard,
        i: usize,
        ids: &mut Vec<Option<u32>>,
    ) -> Result<()> {
        let malformed = || Error::Config(format!("counted document {i} does not decode"));
        let (indices, values) = shard.rows.get(i).ok_or_else(malformed)?;
        let length = *shard.lengths.get(i).ok_or_else(malformed)?;
        if self.config.hashing.is_some() {
            // A hashed term's column is the same in every fitter: the row is added as it is.
            let row = SparseRow {
                indices: indices.clone(),
                values: values.clone(),
            };
            self.rows.push(Counted {
                row,
                length,
                oov: 0,
            });
            return Ok(());
        }
        ids.resize(shard.terms.len(), None);
        let mut pairs = Vec::with_capacity(indices.len());
        for (&local, &value) in indices.iter().zip(values) {
            let slot = ids.get_mut(local as usize).ok_or_else(malformed)?;
            let term = &shard.terms[local as usize];
            pairs.push((*slot.get_or_insert_with(|| self.interner.id(term)), value));
        }
        pairs.sort_unstable_by_key(|&(id, _)| id);
        let row = SparseRow {
            indices: pairs.iter().map(|&(id, _)| id).collect(),
            values: pairs.iter().map(|&(_, value)| value).collect(),
        };
        self.rows.push(Counted {
            row,
            length,
            oov: 0,
        });
        Ok(())
    }
}
