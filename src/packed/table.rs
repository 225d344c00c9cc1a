//! [`Table`]: an array of numbers that is either owned or a view into a model file, so that a
//! model's large arrays are used where the file lies instead of being decoded at load.

use std::ops::Deref;
use std::sync::Arc;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::sections::{self, Backing};
use super::Word;

/// An array of [`Word`]s, owned or in a model file. It reads as a slice; [`Table::to_mut`] gives
/// an owned `Vec` to change, copying a file's array first. Inside a model file of format 6 it is
/// encoded as the position of its bytes among the file's sections; elsewhere as one packed byte
/// string, as [`crate::packed`] writes.
pub struct Table<T: Word> {
    data: Data<T>,
}

enum Data<T> {
    Owned(Vec<T>),
    /// `length` elements from byte `start` of the backing, which is aligned for `T`.
    Mapped {
        backing: Arc<Backing>,
        start: usize,
        length: usize,
    },
}

impl<T: Word> Table<T> {
    /// The elements as a `Vec` to change; a table in a file is copied out of it first.
    pub fn to_mut(&mut self) -> &mut Vec<T> {
        if let Data::Mapped { .. } = self.data {
            self.data = Data::Owned(self.to_vec());
        }
        match &mut self.data {
            Data::Owned(values) => values,
            Data::Mapped { .. } => unreachable!("a mapped table was just copied"),
        }
    }

    /// The elements as a `Vec`, without copying an owned table.
    pub fn into_vec(self) -> Vec<T> {
        match self.data {
            Data::Owned(values) => values,
            Data::Mapped { .. } => self.to_vec(),
        }
    }

    /// A view of `length` elements of the backing from byte `start`, or a copy of them on a
    /// big-endian machine, where the file's little-endian numbers cannot be used in place.
    fn in_file(backing: Arc<Backing>, start: usize, length: usize) -> Self {
        if cfg!(target_endian = "little") {
            let data = Data::Mapped {
                backing,
                start,
                length,
            };
            return Table { data };
        }
        let bytes = &backing.bytes()[start..start + length * T::SIZE];
        bytes.chunks_exact(T::SIZE).map(T::take).collect()
    }
}

impl<T: Word> Deref for Table<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match &self.data {
            Data::Owned(values) => values,
            Data::Mapped {
                backing,
                start,
                length,
            } => {
                // SAFETY: `sections::find` checked that the bytes lie within the backing and are
                // aligned for `T`; `Word` promises that any bytes are a valid `T`; the backing
                // lives as long as this table holds its `Arc`, and nothing writes to it (see
                // `Model::load` on the mapped file).
                unsafe {
                    let first = backing.bytes().as_ptr().add(*start).cast::<T>();
                    std::slice::from_raw_parts(first, *length)
                }
            }
        }
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
            data: Data::Owned(values),
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
        let data = match &self.data {
            Data::Owned(values) => Data::Owned(values.clone()),
            Data::Mapped {
                backing,
                start,
                length,
            } => Data::Mapped {
                backing: Arc::clone(backing),
                start: *start,
                length: *length,
            },
        };
        Table { data }
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
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if !sections::active() {
            return super::serialize(self, serializer);
        }
        match sections::lay_out(&T::bytes_of(self)) {
            Some(offset) => (offset, self.len() as u64).serialize(serializer),
            None => super::serialize(self, serializer),
        }
    }
}

impl<'de, T: Word> Deserialize<'de> for Table<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if !sections::active() {
            return super::deserialize(deserializer).map(Table::from);
        }
        from_section(deserializer)
    }
}

/// Reads a section reference written inside a model file of format 6.
fn from_section<'de, D: Deserializer<'de>, T: Word>(deserializer: D) -> Result<Table<T>, D::Error> {
    let (offset, length) = <(u64, u64)>::deserialize(deserializer)?;
    let bytes = length
        .checked_mul(T::SIZE as u64)
        .ok_or_else(|| D::Error::custom("an array's length overflows"))?;
    match sections::find(offset, bytes) {
        Some(Ok((backing, start))) => Ok(Table::in_file(backing, start, length as usize)),
        Some(Err(message)) => Err(D::Error::custom(message)),
        None => Err(D::Error::custom("an array outside a model file")),
    }
}

/// For fields that older files store as a plain sequence (`#[serde(with = "packed::seq")]`):
/// a section inside a model file of format 6, a sequence elsewhere, so that older files and
/// human-readable formats read and write as before.
pub mod seq {
    use std::borrow::Borrow;

    use super::*;

    /// Writes a section reference or a sequence.
    pub fn serialize<S: Serializer, T: Word + Serialize, B: Borrow<Table<T>>>(
        table: &B,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let table = table.borrow();
        if sections::active() {
            return table.serialize(serializer);
        }
        serializer.collect_seq(table.iter())
    }

    /// Reads what [`serialize`] wrote.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Word + Deserialize<'de>>(
        deserializer: D,
    ) -> Result<Table<T>, D::Error> {
        if sections::active() {
            return from_section(deserializer);
        }
        Vec::<T>::deserialize(deserializer).map(Table::from)
    }
}

/// For a part derived from the rest and stored only in model files of format 6, so that
/// loading need not compute it (`#[serde(default, with = "packed::derived",
/// skip_serializing_if = "packed::derived::skipped")]`): elsewhere it takes no bytes and is
/// computed again when needed, as before it was stored.
pub mod derived {
    use std::sync::OnceLock;

    use super::*;

    /// Whether the part is left out: everywhere but in a model file of format 6.
    pub fn skipped<T>(_: &T) -> bool {
        !sections::active()
    }

    /// Reads a part stored as a plain value (`#[serde(default, deserialize_with =
    /// "packed::derived::option")]`): `None` where it is not stored.
    pub fn option<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        deserializer: D,
    ) -> Result<Option<T>, D::Error> {
        if !sections::active() {
            <()>::deserialize(deserializer)?;
            return Ok(None);
        }
        T::deserialize(deserializer).map(Some)
    }

    /// Writes the part, if computed.
    pub fn serialize<S: Serializer, T: Serialize>(
        part: &OnceLock<T>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        part.get().serialize(serializer)
    }

    /// Reads the part in a model file of format 6, or the nothing an older one holds.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        deserializer: D,
    ) -> Result<OnceLock<T>, D::Error> {
        let part = OnceLock::new();
        if !sections::active() {
            <()>::deserialize(deserializer)?;
            return Ok(part);
        }
        if let Some(value) = Option::<T>::deserialize(deserializer)? {
            let _ = part.set(value);
        }
        Ok(part)
    }
}
