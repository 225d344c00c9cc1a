//! Counting a document's terms into a sparse row; [`crate::flow`] runs it as pipeline stages.

use super::SparseRow;
use crate::analyze::Terms;

/// A document's term counts, or weights once weighed, with what the weighting needs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Counted {
    /// Column ids and counts (fit) or weights (transform).
    pub row: SparseRow,
    /// Number of terms the analyzer produced, in the vocabulary or not.
    pub length: u32,
    /// Terms not in the vocabulary (transform only).
    pub oov: u64,
}

/// Counts ids into a dense scratch array, so counting a document costs no hashing beyond the id
/// lookups themselves.
#[derive(Debug, Default)]
pub(crate) struct RowCounter {
    counts: Vec<u32>,
    touched: Vec<u32>,
}

impl RowCounter {
    /// Counts the terms of one document, with `id_of` giving each term's column (or `None` for an
    /// unknown term). Fills `counted` with the row in column order, values being counts.
    pub(crate) fn count(
        &mut self,
        terms: &Terms,
        mut id_of: impl FnMut(&str) -> Option<u32>,
        counted: &mut Counted,
    ) {
        counted.oov = 0;
        for term in terms.iter() {
            match id_of(term) {
                Some(id) => self.bump(id),
                None => counted.oov += 1,
            }
        }
        let length = u32::try_from(terms.len()).unwrap_or(u32::MAX);
        self.finish_row(length, counted);
    }

    /// Moves the ids counted since the last row into `counted`, in id order, and resets.
    pub(crate) fn finish_row(&mut self, length: u32, counted: &mut Counted) {
        counted.length = length;
        let row = &mut counted.row;
        row.indices.clear();
        row.values.clear();
        self.touched.sort_unstable();
        // Exact capacities: a fit keeps every training row until the vocabulary is known.
        row.indices.reserve_exact(self.touched.len());
        row.values.reserve_exact(self.touched.len());
        for &id in &self.touched {
            row.indices.push(id);
            row.values
                .push(f64::from(std::mem::take(&mut self.counts[id as usize])));
        }
        self.touched.clear();
    }

    pub(crate) fn bump(&mut self, id: u32) {
        let slot = id as usize;
        if slot >= self.counts.len() {
            self.counts.resize(slot + 1, 0);
        }
        if self.counts[slot] == 0 {
            self.touched.push(id);
        }
        self.counts[slot] += 1;
    }
}
