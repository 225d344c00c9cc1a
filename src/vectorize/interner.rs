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
//! because [`super::VocabularyBuilder::finish`] renumbers the final vocabulary in term order.

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{PoisonError, RwLock};

use rustc_hash::{FxBuildHasher, FxHashMap};

use super::TermList;
use crate::analyze::ngrams::NGRAM_SEPARATOR;

/// Shards cut lock contention: two workers rarely want the same shard at once.
const SHARDS: usize = 64;

/// A concurrent term → id map; words and n-grams share one id space.
#[derive(Debug)]
pub struct Interner {
    shards: Vec<RwLock<FxHashMap<Box<str>, u32>>>,
    /// `(left << 32) | right` → id of the n-gram that joins `left` and `right`.
    pairs: Vec<RwLock<FxHashMap<u64, u32>>>,
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
    let shard = &shards[FxBuildHasher.hash_one(key) as usize % SHARDS];
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
        let key = u64::from(left) << 32 | u64::from(right);
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

    /// The terms, indexed by id: those `wanted` spelled out (n-grams joined by
    /// [`NGRAM_SEPARATOR`]), the others left empty.
    ///
    /// The terms go into one [`TermList`] buffer sized in advance, and what each id stands for
    /// into one array of eight bytes per id: 16 bytes per id in all, where a boxed string per id
    /// and arrays of optional strings and optional pairs took 44 and a third of a million
    /// allocations for 20 Newsgroups' 1.4 million bigram ids. That memory was fresh, and on this
    /// project's virtual machine a fresh page costs a fault and the kernel zeroing it: building
    /// the SVM's vocabulary took 118 ms instead of 159 (medians of 6 alternating runs).
    pub(crate) fn into_terms(self, wanted: impl Fn(u32) -> bool) -> TermList {
        let len = self.len();
        let mut parts = vec![(WORD, 0u32); len];
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
                parts[id as usize] = ((key >> 32) as u32, key as u32);
            }
        }
        let spelled = (0..len as u32).filter(|&id| wanted(id)).count();
        // Room for the spelled terms at about a bigram's length, so that the text is seldom
        // outgrown and copied while it fills; longer n-grams only cost a regrowth.
        let mean_word = words.iter().map(|w| w.len()).sum::<usize>() / words.len().max(1);
        let spell = Spelling { words, parts };
        let mut terms = TermList::with_capacity(len, spelled * (2 * mean_word + 1));
        let mut text = String::new();
        for id in 0..len as u32 {
            text.clear();
            if wanted(id) {
                spell.write(id, &mut text);
            }
            terms.push(&text);
        }
        terms
    }
}

/// The left part that marks a word in [`Spelling::parts`]: no n-gram has it, since ids are below
/// the number of terms, which is below `u32::MAX`.
const WORD: u32 = u32::MAX;

/// What each id stands for: an n-gram's two parts, or [`WORD`] and the word's place in `words`.
struct Spelling {
    words: Vec<Box<str>>,
    parts: Vec<(u32, u32)>,
}

impl Spelling {
    /// Appends the text of term `id`. An n-gram's left part is a shorter n-gram or a word, so
    /// the recursion is as deep as the n-gram is long.
    fn write(&self, id: u32, out: &mut String) {
        match self.parts[id as usize] {
            (WORD, word) => out.push_str(&self.words[word as usize]),
            (left, right) => {
                self.write(left, out);
                out.push(NGRAM_SEPARATOR);
                self.write(right, out);
            }
        }
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
        let terms = interner.into_terms(|_| true);
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
        let terms = interner.into_terms(|id| id != ba);
        assert_eq!(&terms[ab as usize], "a b");
        assert_eq!(&terms[abc as usize], "a b c");
        assert_eq!(&terms[ba as usize], "");
    }
}
