//! A vocabulary's terms, stored end to end in one string, and the lookup from term to column.
//!
//! A bigram vocabulary holds over a million terms. As separate `String`s, loading one cost a
//! million allocations and UTF-8 checks, and building its hash index cost as much again: most
//! of a model's load time. Here the terms share one buffer; binary formats (the model file)
//! store that buffer and the terms' lengths, so loading is one UTF-8 check and one pass over the
//! lengths, while human-readable ones (the JSON vocabulary file) store a plain list of strings.
//! The hash index is built only once enough terms have been looked up to pay for it: until
//! then a lookup is a binary search, so classifying a single document never builds it.

use std::fmt;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use hashbrown::HashTable;
use rayon::prelude::*;
use serde::de::{DeserializeSeed, Error as _, SeqAccess, Visitor};
use serde::ser::{Error as _, SerializeTuple};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Terms in column order: term `j` is `list[j]`.
#[derive(Debug, Clone, Default)]
pub struct TermList {
    text: String,
    /// Term `j` is `text[ends[j - 1]..ends[j]]` (from 0 for the first).
    ends: Vec<usize>,
    index: LazyIndex,
}

impl TermList {
    /// An empty list with room for `terms` terms of `bytes` bytes in all.
    pub fn with_capacity(terms: usize, bytes: usize) -> Self {
        TermList {
            text: String::with_capacity(bytes),
            ends: Vec::with_capacity(terms),
            index: LazyIndex::default(),
        }
    }

    /// Appends a term.
    pub fn push(&mut self, term: &str) {
        self.text.push_str(term);
        self.ends.push(self.text.len());
        self.index = LazyIndex::default();
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
    pub fn binary_search(&self, term: &str) -> Result<usize, usize> {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = low + (high - low) / 2;
            match self[middle].cmp(term) {
                std::cmp::Ordering::Less => low = middle + 1,
                std::cmp::Ordering::Greater => high = middle,
                std::cmp::Ordering::Equal => return Ok(middle),
            }
        }
        Err(low)
    }

    /// Whether every term is greater than the one before it, in byte order. Checked on every
    /// load, so in parallel.
    pub fn is_sorted_and_unique(&self) -> bool {
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
        let found = table.find(term_hash(term), |&j| &self[j as usize] == term);
        found.copied()
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
        let start = if j == 0 { 0 } else { self.ends[j - 1] };
        &self.text[start..self.ends[j]]
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
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            return serializer.collect_seq(self.iter());
        }
        let lengths = self.iter().map(|term| u32::try_from(term.len()));
        let lengths = lengths
            .collect::<Result<_, _>>()
            .map_err(|_| S::Error::custom("a term is longer than 4 GiB"))?;
        let mut tuple = serializer.serialize_tuple(2)?;
        tuple.serialize_element(&self.text)?;
        tuple.serialize_element(&Lengths(lengths))?;
        tuple.end()
    }
}

impl<'de> Deserialize<'de> for TermList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_seq(StringsVisitor)
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
            ends.push(end);
        }
        if end != text.len() {
            return Err(misfit());
        }
        Ok(TermList {
            text,
            ends,
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
