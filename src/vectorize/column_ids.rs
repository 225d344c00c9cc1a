//! Provisional ids for hashed columns, so that counting hashed terms keeps arrays as long as the
//! columns that occur rather than 2^bits.

use rustc_hash::FxHashMap;

/// The hashed columns documents reached, each with an id in order of first appearance.
#[derive(Debug, Default, Clone)]
pub(crate) struct ColumnIds {
    ids: FxHashMap<u32, u32>,
    columns: Vec<u32>,
}

impl ColumnIds {
    /// The id of hashed column `column`, the next one if it is new.
    pub(crate) fn id(&mut self, column: u32) -> u32 {
        let next = self.columns.len() as u32;
        let id = *self.ids.entry(column).or_insert(next);
        if id == next {
            self.columns.push(column);
        }
        id
    }

    /// The id of hashed column `column`, if it has one.
    pub(crate) fn get(&self, column: u32) -> Option<u32> {
        self.ids.get(&column).copied()
    }

    /// The hashed column of each id.
    pub(crate) fn columns(&self) -> &[u32] {
        &self.columns
    }

    /// Ids for `columns`, in their order.
    pub(crate) fn from_columns(columns: &[u32]) -> Self {
        let mut ids = ColumnIds::default();
        for &column in columns {
            ids.id(column);
        }
        ids
    }
}
