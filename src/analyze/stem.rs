//! Stage 4, stem: Snowball stemming (rust-stemmers), with a per-worker word → stem cache.

use rust_stemmers::{Algorithm, Stemmer};
use rustc_hash::FxHashMap;

use super::Terms;

/// The cache is cleared when it holds this many words, so memory stays flat on an endless stream
/// while a corpus's working vocabulary (tens of thousands of words) still fits.
const CACHE_CAPACITY: usize = 1 << 18;

/// A stemmer with a cache, so each distinct word is stemmed once per worker.
pub struct StemCache {
    stemmer: Stemmer,
    /// Word → position of its stem in `stems`; a position rather than the stem itself lets a hit
    /// return the stem after a single lookup.
    cache: FxHashMap<Box<str>, u32>,
    stems: Vec<Box<str>>,
}

impl StemCache {
    /// A stemmer for one Snowball algorithm.
    pub fn new(algorithm: Algorithm) -> Self {
        StemCache {
            stemmer: Stemmer::create(algorithm),
            cache: FxHashMap::default(),
            stems: Vec::new(),
        }
    }

    /// The stem of one word.
    pub(crate) fn stem_word(&mut self, word: &str) -> &str {
        if let Some(&slot) = self.cache.get(word) {
            return &self.stems[slot as usize];
        }
        if self.stems.len() >= CACHE_CAPACITY {
            self.cache.clear();
            self.stems.clear();
        }
        let slot = self.stems.len();
        self.stems.push(self.stemmer.stem(word).into());
        self.cache.insert(word.into(), slot as u32);
        &self.stems[slot]
    }

    /// The stem of one word, without looking at or filling the cache.
    pub(crate) fn stem_uncached(&self, word: &str) -> String {
        self.stemmer.stem(word).into_owned()
    }

    /// Replaces every term by its stem.
    pub fn stem(&mut self, terms: &mut Terms, scratch: &mut Terms) {
        scratch.clear();
        for term in terms.iter() {
            scratch.push(self.stem_word(term));
        }
        std::mem::swap(terms, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_and_russian_stems() {
        let mut english = StemCache::new(Algorithm::English);
        let mut terms: Terms = ["running", "runs", "easily", "café"].into_iter().collect();
        english.stem(&mut terms, &mut Terms::new());
        assert_eq!(
            terms.iter().collect::<Vec<_>>(),
            ["run", "run", "easili", "café"]
        );
        let mut russian = StemCache::new(Algorithm::Russian);
        assert_eq!(russian.stem_word("книгами"), "книг");
        // A cached word gives the same stem.
        assert_eq!(english.stem_word("running"), "run");
    }
}
