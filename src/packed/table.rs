//! [`Table`]: an array of numbers that is either owned or a view into a model file, so that a
//! model's large arrays are used where the file lies instead of being decoded at load.

use std::ops::Deref;
use std::sync::Arc;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::sections::{self, Backing, Sections};
use super::Word;

/// An array of [`Word`]s, owned or in a model file. It reads as a slice; `Table::to_mut` gives
/// an owned `Vec` to change, copying a file's array first. Inside a model file of format 6 it is
/// encoded as the position of its bytes among the file's sections; elsewhere as one packed byte
/// string, as [`crate::packed`] writes.
pub struct Table<T: Word> {
    /// The first element and the number of them, kept beside their owner so that reading an
    /// element costs no branch on where it lives (a hot loop reads them millions of times).
    first: *const T,
    length: usize,
    owner: Owner<T>,
}

enum Owner<T> {
    Vec(Vec<T>),
    /// A file's bytes, at an address aligned for `T`.
    File(Arc<Backing>),
}

// SAFETY: a table is an owned `Vec` or a shared read-only view of bytes that its `Arc` keeps
// alive; the pointer only caches where they are. Numbers are `Send` and `Sync`.
unsafe impl<T: Word + Send> Send for Table<T> {}
// SAFETY: as for `Send`: nothing is written through a shared table.
unsafe impl<T: Word + Sync> Sync for Table<T> {}

impl<T: Word> Table<T> {
    /// The elements as a `Vec` to change; a table in a file is copied out of it first.
    pub(crate) fn to_mut(&mut self) -> TableMut<'_, T> {
        if let Owner::File(_) = self.owner {
            *self = Table::from(self.to_vec());
        }
        TableMut(self)
    }

    /// The elements as a `Vec`, without copying an owned table.
    pub(crate) fn into_vec(self) -> Vec<T> {
        match self.owner {
            Owner::Vec(values) => values,
            Owner::File(_) => self.to_vec(),
        }
    }

    /// A view of `length` elements of the backing from byte `start`, or a copy of them on a
    /// big-endian machine, where the file's little-endian numbers cannot be used in place.
    fn in_file(backing: Arc<Backing>, start: usize, length: usize) -> Self {
        let bytes = &backing.bytes()[start..start + length * T::SIZE];
        if cfg!(target_endian = "little") {
            return Table {
                first: bytes.as_ptr().cast(),
                length,
                owner: Owner::File(backing),
            };
        }
        bytes.chunks_exact(T::SIZE).map(T::take).collect()
    }
}

/// A table's `Vec`, borrowed to change; the table notes where its elements went when dropped.
pub(crate) struct TableMut<'a, T: Word>(&'a mut Table<T>);

impl<T: Word> Deref for TableMut<'_, T> {
    type Target = Vec<T>;

    fn deref(&self) -> &Vec<T> {
        match &self.0.owner {
            Owner::Vec(values) => values,
            Owner::File(_) => unreachable!("`Table::to_mut` copies a file's table"),
        }
    }
}

impl<T: Word> std::ops::DerefMut for TableMut<'_, T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        match &mut self.0.owner {
            Owner::Vec(values) => values,
            Owner::File(_) => unreachable!("`Table::to_mut` copies a file's table"),
        }
    }
}

impl<T: Word> Drop for TableMut<'_, T> {
    fn drop(&mut self) {
        if let Owner::Vec(values) = &self.0.owner {
            (self.0.first, self.0.length) = (values.as_ptr(), values.len());
        }
    }
}

impl<T: Word> Deref for Table<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `first` and `length` are those of the owner's elements: a `Vec`'s, updated
        // whenever it changes (only through `TableMut`, which updates them when dropped), or
        // bytes that `Sections::locate` checked lie within the backing and are aligned for `T`,
        // which `Word` promises are valid values and which the `Arc` keeps alive and unwritten
        // (see `Model::load` on the mapped file).
        unsafe { std::slice::from_raw_parts(self.first, self.length) }
    }
}

impl<T: Word> Default for Table<T> {
    fn default() -> Self {
        Vec::new().into()
    }
}

impl<T: Word> From<Vec<T>> for Table<T> {
    fn from(values: Vec<T>) -> Self {
        Table {
            first: values.as_ptr(),
            length: values.len(),
            owner: Owner::Vec(values),
        }
    }
}

impl<T: Word> FromIterator<T> for Table<T> {
    fn from_iter<I: IntoIterator<Item = T>>(values: I) -> Self {
        values.into_iter().collect::<Vec<T>>().into()
    }
}

impl<'a, T: Word> IntoIterator for &'a Table<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// A table in a file clones as another view of it.
impl<T: Word> Clone for Table<T> {
    fn clone(&self) -> Self {
        match &self.owner {
            Owner::Vec(values) => values.clone().into(),
            Owner::File(backing) => Table {
                first: self.first,
                length: self.length,
                owner: Owner::File(Arc::clone(backing)),
            },
        }
    }
}

impl<T: Word + std::fmt::Debug> std::fmt::Debug for Table<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl<T: Word + PartialEq> PartialEq for Table<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Word> Serialize for Table<T> {
    fn serialize<S: Serializer>(&self, mut serializer: S) -> Result<S::Ok, S::Error> {
        match sections::writing(&mut serializer) {
            Some(writer) => {
                let offset = writer.push(&T::bytes_of(self));
                (offset, self.len() as u64).serialize(serializer)
            }
            None => super::serialize(self, serializer),
        }
    }
}

impl<'de, T: Word> Deserialize<'de> for Table<T> {
    fn deserialize<D: Deserializer<'de>>(mut deserializer: D) -> Result<Self, D::Error> {
        match sections::reading(&mut deserializer).cloned() {
            Some(sections) => from_section(deserializer, sections),
            None => super::deserialize(deserializer).map(Table::from),
        }
    }
}

/// Reads a section reference written inside a model file of format 6 or later.
fn from_section<'de, D: Deserializer<'de>, T: Word>(
    deserializer: D,
    sections: Sections,
) -> Result<Table<T>, D::Error> {
    let (offset, length) = <(u64, u64)>::deserialize(deserializer)?;
    let bytes = length
        .checked_mul(T::SIZE as u64)
        .ok_or_else(|| D::Error::custom("an array's length overflows"))?;
    let (backing, start) = sections.locate(offset, bytes).map_err(D::Error::custom)?;
    Ok(Table::in_file(backing, start, length as usize))
}

/// For fields that older files store as a plain sequence (`#[serde(with = "packed::seq")]`):
/// a section inside a model file of format 6 or later, a sequence elsewhere, so that older
/// files and human-readable formats read and write as before.
pub(crate) mod seq {
    use std::borrow::Borrow;

    use super::*;

    /// Writes a section reference or a sequence.
    pub fn serialize<S: Serializer, T: Word + Serialize, B: Borrow<Table<T>>>(
        table: &B,
        mut serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let table = table.borrow();
        if sections::writing(&mut serializer).is_some() {
            return table.serialize(serializer);
        }
        serializer.collect_seq(table.iter())
    }

    /// Reads what [`serialize`] wrote.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Word + Deserialize<'de>>(
        mut deserializer: D,
    ) -> Result<Table<T>, D::Error> {
        match sections::reading(&mut deserializer).cloned() {
            Some(sections) => from_section(deserializer, sections),
            None => Vec::<T>::deserialize(deserializer).map(Table::from),
        }
    }
}

/// For a part derived from the rest and stored only in model files of format 6 or later, so
/// that loading need not compute it (`#[serde(default, with = "packed::derived")]`): elsewhere
/// it takes no bytes (a unit, which postcard writes as nothing) and is computed again when
/// needed, as before it was stored. A model file older than format 6 lacks it too, as the
/// format's table of fields says.
pub(crate) mod derived {
    use std::sync::OnceLock;

    use super::*;

    /// Reads a part stored as a plain value (`#[serde(default, deserialize_with =
    /// "packed::derived::option")]`): `None` where it is not stored.
    pub fn option<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        mut deserializer: D,
    ) -> Result<Option<T>, D::Error> {
        if sections::reading(&mut deserializer).is_none() {
            <()>::deserialize(deserializer)?;
            return Ok(None);
        }
        T::deserialize(deserializer).map(Some)
    }

    /// Writes the part, if computed, in a model file; nothing elsewhere.
    pub fn serialize<S: Serializer, T: Serialize>(
        part: &OnceLock<T>,
        mut serializer: S,
    ) -> Result<S::Ok, S::Error> {
        if sections::writing(&mut serializer).is_none() {
            return serializer.serialize_unit();
        }
        part.get().serialize(serializer)
    }

    /// Reads the part in a model file, or the nothing it takes elsewhere.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        mut deserializer: D,
    ) -> Result<OnceLock<T>, D::Error> {
        let part = OnceLock::new();
        if sections::reading(&mut deserializer).is_none() {
            <()>::deserialize(deserializer)?;
            return Ok(part);
        }
        if let Some(value) = Option::<T>::deserialize(deserializer)? {
            let _ = part.set(value);
        }
        Ok(part)
    }
}
