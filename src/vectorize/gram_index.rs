//! [`GramIndex`]: a fitted vocabulary's n-grams as chains of word ids, so that transforming a
//! document with n-grams never spells an n-gram out.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use super::TermList;
use crate::analyze::ngrams::NGRAM_SEPARATOR;

/// The id of a word or n-gram the vocabulary cannot hold: it is in no term.
pub const UNKNOWN: u32 = u32::MAX;

/// [`NGRAM_SEPARATOR`] as a byte; it is ASCII.
const SEPARATOR: u8 = NGRAM_SEPARATOR as u8;

/// Every term of a vocabulary as a gram id, built as fitting builds them (see
/// [`crate::analyze::AnalyzerWorker::analyze_grams`]): a word has an id, and the n-gram
/// `w1 .. wn` has the id of the pair (id of `w1 .. wn-1`, id of `wn`). A term's gram id is its
/// column. Words and shorter n-grams that are not terms themselves but begin or end a longer
/// term get ids past the columns, so that the chain can go on; anything else is [`UNKNOWN`].
#[derive(Debug)]
pub struct GramIndex {
    words: FxHashMap<Box<str>, u32>,
    pairs: FxHashMap<u64, u32>,
    columns: u32,
}

impl GramIndex {
    /// Indexes `terms`, whose n-grams have at most `ngram_max` words.
    pub fn new(terms: &TermList, ngram_max: usize) -> Self {
        let size = |term: &str| term.bytes().filter(|&b| b == SEPARATOR).count() + 1;
        let words = terms.iter().filter(|term| size(term) == 1).count();
        let mut index = GramIndex {
            words: FxHashMap::with_capacity_and_hasher(words, Default::default()),
            pairs: FxHashMap::with_capacity_and_hasher(terms.len() - words, Default::default()),
            columns: terms.len() as u32,
        };
        let mut next = index.columns;
        let words = terms.iter().enumerate().filter(|(_, term)| size(term) == 1);
        for (column, word) in words {
            index.words.insert(word.into(), column as u32);
        }
        // Shorter n-grams first, so that a prefix that is a term itself has its column by the
        // time a longer term needs it, and each term's last pair is new.
        for n in 2..=ngram_max {
            // The terms are sorted, so n-grams with the same prefix come together; the last
            // prefix's id saves looking its words up again.
            let mut last_prefix = ("", UNKNOWN);
            let grams = terms.iter().enumerate().filter(|(_, term)| size(term) == n);
            for (column, term) in grams {
                let Some((prefix, word)) = term.rsplit_once(NGRAM_SEPARATOR) else {
                    continue;
                };
                if prefix != last_prefix.0 {
                    last_prefix = (prefix, index.chain(prefix, &mut next));
                }
                let word = index.word_or_new(word, &mut next);
                index
                    .pairs
                    .insert(pair_key(last_prefix.1, word), column as u32);
            }
        }
        index
    }

    /// The id of the n-gram `words`, giving ids past the columns to its missing parts.
    fn chain(&mut self, words: &str, next: &mut u32) -> u32 {
        let mut words = words.split(NGRAM_SEPARATOR);
        let first = words.next().unwrap_or_default();
        let mut gram = self.word_or_new(first, next);
        for word in words {
            let word = self.word_or_new(word, next);
            gram = *self
                .pairs
                .entry(pair_key(gram, word))
                .or_insert_with(|| fresh(next));
        }
        gram
    }

    fn word_or_new(&mut self, word: &str, next: &mut u32) -> u32 {
        match self.words.get(word) {
            Some(&id) => id,
            None => *self.words.entry(word.into()).or_insert(fresh(next)),
        }
    }

    /// The gram id of a word, or [`UNKNOWN`].
    pub fn word(&self, word: &str) -> u32 {
        self.words.get(word).copied().unwrap_or(UNKNOWN)
    }

    /// The gram id of the n-gram `prefix` followed by `word`, or [`UNKNOWN`].
    pub fn pair(&self, prefix: u32, word: u32) -> u32 {
        if prefix == UNKNOWN || word == UNKNOWN {
            return UNKNOWN;
        }
        self.pairs
            .get(&pair_key(prefix, word))
            .copied()
            .unwrap_or(UNKNOWN)
    }

    /// The column of a gram id, if it is a term.
    pub fn column(&self, gram: u32) -> Option<u32> {
        (gram < self.columns).then_some(gram)
    }
}

/// The next id past the columns.
fn fresh(next: &mut u32) -> u32 {
    *next += 1;
    *next - 1
}

fn pair_key(prefix: u32, word: u32) -> u64 {
    (u64::from(prefix) << 32) | u64::from(word)
}

/// A [`GramIndex`] built once a vocabulary has been searched by text [`SEARCHES_PER_TERM`] times
/// as often as it has terms.
///
/// Building costs about 430 ns a term (its work is random access into tables of millions of
/// entries), and each search it spares saved about 150 ns on 20 Newsgroups, so it pays after
/// three searches a term; waiting for that many before building, as one rents skis until their
/// price is spent, never costs more than twice the best choice made knowing the future. Evaluating
/// the default SVM model (326,000 terms) on 20 Newsgroups test builds it a third of the way in;
/// the complement NB model (1.26 million terms) would need more documents than the test set has.
#[derive(Debug, Default)]
pub struct LazyGrams {
    /// Boxed: most vectorizers never build it, and each holder would carry its size.
    index: OnceLock<Box<GramIndex>>,
    searched: AtomicUsize,
}

impl LazyGrams {
    /// The index, if built.
    pub fn get(&self) -> Option<&GramIndex> {
        self.index.get().map(|index| &**index)
    }

    /// Builds the index now, if it is not built yet.
    pub fn build(&self, terms: &TermList, ngram_max: usize) -> &GramIndex {
        self.index
            .get_or_init(|| Box::new(GramIndex::new(terms, ngram_max)))
    }

    /// Notes `count` searches of `terms` by text; builds the index once they add up to
    /// [`SEARCHES_PER_TERM`] times the number of terms.
    pub fn note_searches(&self, count: usize, terms: &TermList, ngram_max: usize) {
        let before = self.searched.fetch_add(count, Ordering::Relaxed);
        if before + count >= terms.len().saturating_mul(SEARCHES_PER_TERM) {
            self.build(terms, ngram_max);
        }
    }
}

/// Searches by text a term before the index is built; see [`LazyGrams`].
const SEARCHES_PER_TERM: usize = 3;

/// The index is derived from the terms, so a clone starts without it.
impl Clone for LazyGrams {
    fn clone(&self) -> Self {
        LazyGrams::default()
    }
}

#[cfg(test)]
mod tests;
