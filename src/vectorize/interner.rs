//! [`Interner`]: term → provisional id, shared by all pipeline workers during a fit.
//!
//! Words are interned by their text, n-grams by their parts' ids: the n-gram of words
//! `w1 .. wn` is the pair (id of `w1 .. wn-1`, id of `wn`), so a bigram costs one lookup of
//! eight bytes instead of building, hashing and storing its joined text. 20 Newsgroups has
//! 1.26 million distinct bigrams; only those that survive pruning are ever spelled out.
//!
//! Looking terms up on the workers instead of on the collecting thread keeps that thread from
//! becoming the bottleneck (it did: 44% of all samples in a profile of 20news). Ids are handed out
//! in whatever order the workers meet new terms, which is not deterministic; that is harmless,
//! because [`super::Fitter::finish`] renumbers the final vocabulary in term order.

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{PoisonError, RwLock};

use rustc_hash::{FxBuildHasher, FxHashMap};

use super::spelling::{Spelling, WORD};
#[cfg(any(test, feature = "cluster"))]
use super::TermList;

/// Shards cut lock contention: two workers rarely want the same shard at once.
const SHARDS: usize = 64;

/// A concurrent term → id map; words and n-grams share one id space.
#[derive(Debug)]
pub struct Interner {
    shards: Vec<RwLock<FxHashMap<Box<str>, u32>>>,
    /// `(left, right)` → id of the n-gram that joins `left` and `right`: twelve bytes an entry,
    /// where a `u64` key took sixteen.
    pairs: Vec<RwLock<FxHashMap<(u32, u32), u32>>>,
    next: AtomicU32,
}

impl Default for Interner {
    fn default() -> Self {
        Interner {
            shards: (0..SHARDS).map(|_| RwLock::default()).collect(),
            pairs: (0..SHARDS).map(|_| RwLock::default()).collect(),
            next: AtomicU32::new(0),
        }
    }
}

/// The id in `shards` of `key`, assigning `next` if it is new (stored as `own(key)`).
fn intern<K, Q>(
    shards: &[RwLock<FxHashMap<K, u32>>],
    key: &Q,
    own: impl FnOnce(&Q) -> K,
    next: &AtomicU32,
) -> u32
where
    K: std::borrow::Borrow<Q> + std::hash::Hash + Eq,
    Q: std::hash::Hash + Eq + ?Sized,
{
    // The shard's map hashes the key the same way: it picks the first bucket by the hash's low
    // bits and tags the entry with its top seven. A shard picked by the low bits gave all its
    // keys the same first bucket modulo 64, crowding the probes; the middle bits pick it.
    let shard = &shards[(FxBuildHasher.hash_one(key) >> 32) as usize % SHARDS];
    // The maps are only ever inserted into, so a map left by a panicking thread is still
    // consistent and the poison flag can be ignored.
    if let Some(&id) = shard
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .get(key)
    {
        return id;
    }
    let mut map = shard.write().unwrap_or_else(PoisonError::into_inner);
    *map.entry(own(key))
        .or_insert_with(|| next.fetch_add(1, Ordering::Relaxed))
}

impl Interner {
    /// The id of `term`, assigning the next free one if it is new.
    pub fn id(&self, term: &str) -> u32 {
        intern(&self.shards, term, |term: &str| term.into(), &self.next)
    }

    /// The id of the n-gram made of the n-gram (or word) `left` followed by the word `right`,
    /// assigning the next free one if it is new. Both must be ids from this interner.
    pub(crate) fn pair_id(&self, left: u32, right: u32) -> u32 {
        let key = (left, right);
        intern(&self.pairs, &key, |&key| key, &self.next)
    }

    /// Number of distinct terms.
    pub fn len(&self) -> usize {
        self.next.load(Ordering::Relaxed) as usize
    }

    /// True before the first term.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What each id stands for, to spell the terms out: one array of eight bytes per id, where
    /// a boxed string per id and arrays of optional strings and optional pairs took 44 bytes
    /// and a third of a million allocations for 20 Newsgroups' 1.4 million bigram ids. That
    /// memory was fresh, and on this project's virtual machine a fresh page costs a fault and
    /// the kernel zeroing it.
    pub(crate) fn into_spelling(self) -> Spelling {
        let mut parts = vec![(WORD, 0u32); self.len()];
        let mut words = Vec::new();
        for shard in self.shards {
            let map = shard.into_inner().unwrap_or_else(PoisonError::into_inner);
            for (term, id) in map {
                parts[id as usize] = (WORD, words.len() as u32);
                words.push(term);
            }
        }
        for shard in self.pairs {
            let map = shard.into_inner().unwrap_or_else(PoisonError::into_inner);
            for (key, id) in map {
                parts[id as usize] = key;
            }
        }
        Spelling { words, parts }
    }

    /// Every term, indexed by id, n-grams joined by
    /// [`NGRAM_SEPARATOR`](crate::analyze::ngrams::NGRAM_SEPARATOR).
    #[cfg(any(test, feature = "cluster"))]
    pub(crate) fn into_terms(self) -> TermList {
        let ids: Vec<u32> = (0..self.len() as u32).collect();
        self.into_spelling().list(&ids)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_dense_and_stable_across_threads() {
        let interner = Interner::default();
        let words: Vec<String> = (0..2000).map(|i| format!("w{}", i % 700)).collect();
        std::thread::scope(|s| {
            for chunk in words.chunks(500) {
                let interner = &interner;
                s.spawn(move || chunk.iter().for_each(|w| _ = interner.id(w)));
            }
        });
        assert_eq!(interner.len(), 700);
        let id = interner.id("w5");
        let terms = interner.into_terms();
        assert_eq!(&terms[id as usize], "w5");
        assert!(terms.iter().all(|t| t.starts_with('w')));
    }

    #[test]
    fn n_grams_are_spelled_from_their_parts() {
        let interner = Interner::default();
        let (a, b, c) = (interner.id("a"), interner.id("b"), interner.id("c"));
        let ab = interner.pair_id(a, b);
        let abc = interner.pair_id(ab, c);
        assert_eq!(interner.pair_id(a, b), ab);
        let ba = interner.pair_id(b, a);
        assert_eq!(interner.len(), 6);
        let terms = interner.into_terms();
        assert_eq!(&terms[ab as usize], "a b");
        assert_eq!(&terms[abc as usize], "a b c");
        assert_eq!(&terms[ba as usize], "b a");
    }
}
