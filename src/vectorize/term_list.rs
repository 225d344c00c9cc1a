//! A vocabulary's terms, stored end to end in one string, and the lookup from term to column.
//!
//! A bigram vocabulary holds over a million terms. As separate `String`s, loading one cost a
//! million allocations and UTF-8 checks, and building its hash index cost as much again: most
//! of a model's load time. Here the terms share one buffer; binary formats (the model file)
//! store that buffer and the terms' lengths, so loading is one UTF-8 check and one pass over the
//! lengths, while human-readable ones (the JSON vocabulary file) store a plain list of strings.
//! The hash index is built only once enough terms have been looked up to pay for it: until
//! then a lookup is a binary search, so classifying a single document never builds it.
//!
//! In a model file of format 6 the text and the terms' ends are raw sections, used in place: a
//! list loaded from one is checked term by term as it is read, not whole at load, and a term
//! that is not valid text there (a damaged file) reads as empty, which no document's term is.

use std::fmt;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use hashbrown::HashTable;
use rayon::prelude::*;
use serde::de::{DeserializeSeed, Error as _, SeqAccess, Visitor};
use serde::ser::{Error as _, SerializeTuple};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::packed::{sections, Table};

/// Terms in column order: term `j` is `list[j]`.
#[derive(Debug, Clone)]
pub struct TermList {
    /// The terms' UTF-8 bytes, end to end.
    text: Table<u8>,
    /// Term `j` is `text[ends[j - 1]..ends[j]]` (from 0 for the first).
    ends: Table<u64>,
    /// Whether every term is known to be valid UTF-8 within the text: so for a list built from
    /// strings or checked whole; not for one used in place from a model file.
    checked: bool,
    index: LazyIndex,
}

impl Default for TermList {
    fn default() -> Self {
        TermList::with_capacity(0, 0)
    }
}

impl TermList {
    /// An empty list with room for `terms` terms of `bytes` bytes in all.
    pub(crate) fn with_capacity(terms: usize, bytes: usize) -> Self {
        TermList {
            text: Vec::with_capacity(bytes).into(),
            ends: Vec::with_capacity(terms).into(),
            checked: true,
            index: LazyIndex::default(),
        }
    }

    /// Appends a term.
    pub fn push(&mut self, term: &str) {
        let mut text = self.text.to_mut();
        text.extend_from_slice(term.as_bytes());
        let end = text.len() as u64;
        self.ends.to_mut().push(end);
        self.index = LazyIndex::default();
    }

    /// Appends the terms of `other`.
    pub(crate) fn append(&mut self, other: TermList) {
        let offset = self.text_len() as u64;
        self.text.to_mut().extend_from_slice(&other.text);
        let ends = other.ends.iter().map(|&end| end + offset);
        self.ends.to_mut().extend(ends);
        self.checked &= other.checked;
        self.index = LazyIndex::default();
    }

    /// Term `j`'s bytes; empty when the ends do not fit the text (a damaged file).
    pub(super) fn term_bytes(&self, j: usize) -> &[u8] {
        let start = if j == 0 { 0 } else { self.ends[j - 1] };
        let end = self.ends[j];
        let range = usize::try_from(start).unwrap_or(usize::MAX)..usize::try_from(end).unwrap_or(0);
        self.text.get(range).unwrap_or_default()
    }

    /// The bytes of all the terms together.
    pub(crate) fn text_len(&self) -> usize {
        self.ends.last().map_or(0, |&end| end as usize)
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no terms.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The terms in column order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        (0..self.len()).map(|j| &self[j])
    }

    /// Finds `term` in a list sorted in byte order, as [`slice::binary_search`] does.
    pub(crate) fn binary_search(&self, term: &str) -> Result<usize, usize> {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = low + (high - low) / 2;
            match self.term_bytes(middle).cmp(term.as_bytes()) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Ok(middle),
            }
        }
        Err(low)
    }

    /// Whether every term is greater than the one before it, in byte order. Checked on every
    /// load, so in parallel.
    pub(crate) fn is_sorted_and_unique(&self) -> bool {
        (1..self.len())
            .into_par_iter()
            .all(|j| self[j - 1] < self[j])
    }

    /// The column of `term` in a sorted list. A hash table answers once a sixty-fourth as many
    /// lookups as there are terms have been made (building it costs about as much as that many
    /// binary searches); before, a binary search does.
    pub fn find(&self, term: &str) -> Option<u32> {
        let table = match self.index.table.get() {
            Some(table) => table,
            None if self.index.probes.fetch_add(1, Ordering::Relaxed) < self.len() / 64 => {
                return self.binary_search(term).ok().map(|j| j as u32);
            }
            None => self.index.table.get_or_init(|| self.hash_table()),
        };
        let found = table.find(term_hash(term), |&j| {
            self.term_bytes(j as usize) == term.as_bytes()
        });
        found.copied()
    }

    /// Whether the hash table of [`TermList::find`] has been built.
    #[cfg(test)]
    pub(super) fn has_hash_table(&self) -> bool {
        self.index.table.get().is_some()
    }

    fn hash_table(&self) -> HashTable<u32> {
        let mut table = HashTable::with_capacity(self.len());
        for (j, term) in self.iter().enumerate() {
            // Callers keep the terms unique, and the table has room for all of them.
            table.insert_unique(term_hash(term), j as u32, |_| 0);
        }
        table
    }
}

fn term_hash(term: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(term)
}

/// Term → column, built on demand; derived from the terms, so a clone starts without it.
#[derive(Debug, Default)]
struct LazyIndex {
    table: OnceLock<HashTable<u32>>,
    probes: AtomicUsize,
}

impl Clone for LazyIndex {
    fn clone(&self) -> Self {
        LazyIndex::default()
    }
}

/// Term `j`; panics when `j` is out of range, as slices do.
impl std::ops::Index<usize> for TermList {
    type Output = str;

    fn index(&self, j: usize) -> &str {
        let bytes = self.term_bytes(j);
        if self.checked {
            // SAFETY: a checked list's text is valid UTF-8 and its ends are character
            // boundaries within it (see `checked`).
            return unsafe { std::str::from_utf8_unchecked(bytes) };
        }
        std::str::from_utf8(bytes).unwrap_or_default()
    }
}

/// Two lists are equal when their terms are; the index is derived.
impl PartialEq for TermList {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text && self.ends == other.ends
    }
}

/// Lets tests compare a list with an array of string literals.
impl<const N: usize> PartialEq<[&str; N]> for TermList {
    fn eq(&self, other: &[&str; N]) -> bool {
        self.iter().eq(other.iter().copied())
    }
}

impl<S: AsRef<str>> FromIterator<S> for TermList {
    fn from_iter<I: IntoIterator<Item = S>>(terms: I) -> Self {
        let mut list = TermList::default();
        for term in terms {
            list.push(term.as_ref());
        }
        list
    }
}

impl Serialize for TermList {
    fn serialize<S: Serializer>(&self, mut serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            return serializer.collect_seq(self.iter());
        }
        if sections::writing(&mut serializer).is_some() {
            return (&self.text, &self.ends).serialize(serializer);
        }
        let text = std::str::from_utf8(&self.text).map_err(S::Error::custom)?;
        let lengths = self.iter().map(|term| u32::try_from(term.len()));
        let lengths = lengths
            .collect::<Result<_, _>>()
            .map_err(|_| S::Error::custom("a term is longer than 4 GiB"))?;
        let mut tuple = serializer.serialize_tuple(2)?;
        tuple.serialize_element(text)?;
        tuple.serialize_element(&Lengths(lengths))?;
        tuple.end()
    }
}

impl<'de> Deserialize<'de> for TermList {
    fn deserialize<D: Deserializer<'de>>(mut deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_seq(StringsVisitor)
        } else if sections::reading(&mut deserializer).is_some() {
            let (text, ends) = <(Table<u8>, Table<u64>)>::deserialize(deserializer)?;
            Ok(TermList {
                text,
                ends,
                checked: false,
                index: LazyIndex::default(),
            })
        } else {
            deserializer.deserialize_tuple(2, BlobVisitor)
        }
    }
}

/// Reads the text and the packed lengths written for binary formats.
struct BlobVisitor;

impl<'de> Visitor<'de> for BlobVisitor {
    type Value = TermList;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the terms' text and their lengths")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TermList, A::Error> {
        let missing = || A::Error::custom("terms: text or lengths missing");
        let text: String = seq.next_element()?.ok_or_else(missing)?;
        let Lengths(lengths) = seq.next_element()?.ok_or_else(missing)?;
        let misfit = || A::Error::custom("terms: lengths do not fit the text");
        let mut ends = Vec::with_capacity(lengths.len());
        let mut end = 0usize;
        for length in lengths {
            end += length as usize;
            // Slicing at a position that is not a character boundary would panic later.
            if !text.is_char_boundary(end) {
                return Err(misfit());
            }
            ends.push(end as u64);
        }
        if end != text.len() {
            return Err(misfit());
        }
        Ok(TermList {
            text: text.into_bytes().into(),
            ends: ends.into(),
            checked: true,
            index: LazyIndex::default(),
        })
    }
}

/// The terms' lengths, stored packed.
#[derive(Serialize, Deserialize)]
struct Lengths(#[serde(with = "crate::packed")] Vec<u32>);

/// Reads a plain list of strings, appending each to one buffer as it is decoded.
struct StringsVisitor;

impl<'de> Visitor<'de> for StringsVisitor {
    type Value = TermList;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence of terms")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<TermList, A::Error> {
        let mut list = TermList::default();
        while seq.next_element_seed(Append(&mut list))?.is_some() {}
        Ok(list)
    }
}

/// Decodes one term straight onto the end of a list.
struct Append<'a>(&'a mut TermList);

impl<'de> DeserializeSeed<'de> for Append<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for Append<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a term")
    }

    fn visit_str<E: serde::de::Error>(self, term: &str) -> Result<(), E> {
        self.0.push(term);
        Ok(())
    }
}

#[cfg(test)]
mod tests;
