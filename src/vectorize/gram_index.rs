//! [`GramIndex`]: a fitted vocabulary's n-grams as chains of word ids, so that transforming a
//! document with n-grams never spells an n-gram out.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use rayon::prelude::*;
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
///
/// Words are keyed by their bytes: a term of a damaged model file that is not valid text is
/// then a key no token's text equals, as it is when it reads as empty.
#[derive(Debug)]
pub struct GramIndex {
    words: FxHashMap<Box<[u8]>, u32>,
    pairs: FxHashMap<u64, u32>,
    columns: u32,
}

/// Bigrams whose keys one task of [`GramIndex::new`] computes: enough to spread over the
/// threads, few enough that each task's look-up of its first prefix is a small cost.
const BIGRAM_CHUNK: usize = 1 << 14;

impl GramIndex {
    /// Indexes `terms`, whose n-grams have at most `ngram_max` words.
    ///
    /// A bigram's key, the ids of its two words, takes two look-ups in the words' table; they
    /// are made on every thread at once, and only inserting the keys is sequential. Building
    /// the default SVM model's index (1.09 million terms, 20 Newsgroups) took 470 ms on one
    /// thread when each bigram was split as text and looked up while inserting.
    pub fn new(terms: &TermList, ngram_max: usize) -> Self {
        // A byte a term: sizes past 255 words count as 255, which no n-gram range reaches (at
        // most 8 words).
        let sizes: Vec<u8> = (0..terms.len())
            .into_par_iter()
            .map(|j| {
                let separators = terms.term_bytes(j).iter().filter(|&&b| b == SEPARATOR);
                (separators.count() + 1).min(255) as u8
            })
            .collect();
        let sizes = &sizes;
        let of_size = |n: usize| (0..terms.len()).filter(move |&j| usize::from(sizes[j]) == n);
        let words = of_size(1).count();
        let mut index = GramIndex {
            words: FxHashMap::with_capacity_and_hasher(words, Default::default()),
            pairs: FxHashMap::with_capacity_and_hasher(terms.len() - words, Default::default()),
            columns: terms.len() as u32,
        };
        let mut next = index.columns;
        for column in of_size(1) {
            index
                .words
                .insert(terms.term_bytes(column).into(), column as u32);
        }
        if ngram_max >= 2 {
            index.add_bigrams(terms, of_size(2).map(|j| j as u32).collect(), &mut next);
        }
        // Shorter n-grams first, so that a prefix that is a term itself has its column by the
        // time a longer term needs it, and each term's last pair is new.
        for n in 3..=ngram_max {
            // The terms are sorted, so n-grams with the same prefix come together; the last
            // prefix's id saves looking its words up again.
            let mut last_prefix: (&[u8], u32) = (&[], UNKNOWN);
            for column in of_size(n) {
                let Some((prefix, word)) = split_last(terms.term_bytes(column)) else {
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

    /// Indexes the bigrams at `columns` (ascending): their keys are found in parallel when
    /// both words are terms, as they always are at min-df 1; a bigram with a word that is no
    /// term gives that word an id past the columns, in order.
    fn add_bigrams(&mut self, terms: &TermList, columns: Vec<u32>, next: &mut u32) {
        let words = &self.words;
        let keys: Vec<Option<u64>> = columns
            .par_chunks(BIGRAM_CHUNK)
            .flat_map_iter(|chunk| {
                let mut last_prefix: (&[u8], Option<u32>) = (&[], None);
                chunk.iter().map(move |&column| {
                    let (prefix, word) = split_last(terms.term_bytes(column as usize))?;
                    if prefix != last_prefix.0 || last_prefix.1.is_none() {
                        last_prefix = (prefix, words.get(prefix).copied());
                    }
                    Some(pair_key(last_prefix.1?, *words.get(word)?))
                })
            })
            .collect();
        for (column, key) in columns.into_iter().zip(keys) {
            let key = match key {
                Some(key) => key,
                None => {
                    let Some((prefix, word)) = split_last(terms.term_bytes(column as usize)) else {
                        continue;
                    };
                    let prefix = self.word_or_new(prefix, next);
                    pair_key(prefix, self.word_or_new(word, next))
                }
            };
            self.pairs.insert(key, column);
        }
    }

    /// The id of the n-gram `words`, giving ids past the columns to its missing parts.
    fn chain(&mut self, words: &[u8], next: &mut u32) -> u32 {
        let mut words = words.split(|&b| b == SEPARATOR);
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

    fn word_or_new(&mut self, word: &[u8], next: &mut u32) -> u32 {
        match self.words.get(word) {
            Some(&id) => id,
            None => *self.words.entry(word.into()).or_insert(fresh(next)),
        }
    }

    /// The gram id of a word, or [`UNKNOWN`].
    pub fn word(&self, word: &str) -> u32 {
        self.words.get(word.as_bytes()).copied().unwrap_or(UNKNOWN)
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

    /// The column of the term spelled `term`, its words' ids chained as a transform chains
    /// them: for a document whose terms were spelled out before the index was built.
    pub fn find(&self, term: &str) -> Option<u32> {
        let mut ids = term.split(NGRAM_SEPARATOR).map(|word| self.word(word));
        let first = ids.next().unwrap_or(UNKNOWN);
        self.column(ids.fold(first, |prefix, word| self.pair(prefix, word)))
    }
}

/// An n-gram's bytes split before its last word: its prefix (the words before) and that word.
fn split_last(term: &[u8]) -> Option<(&[u8], &[u8])> {
    let at = term.iter().rposition(|&b| b == SEPARATOR)?;
    Some((&term[..at], &term[at + 1..]))
}

/// The next id past the columns.
fn fresh(next: &mut u32) -> u32 {
    *next += 1;
    *next - 1
}

fn pair_key(prefix: u32, word: u32) -> u64 {
    (u64::from(prefix) << 32) | u64::from(word)
}

/// A [`GramIndex`] built once a vocabulary has been searched by text often enough, as its
/// users decide (see [`TERMS_PER_SEARCH`]).
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

    /// The index for `count` look-ups of `terms` about to be made, built now if they would
    /// bring the searches by text to one for every `terms_per_search` terms: deciding before
    /// the look-ups, not after, spares a document whose look-ups alone repay the index from
    /// paying for both. `None` when they stay below: they are then noted as searches by text.
    pub fn instead_of_searches(
        &self,
        count: usize,
        terms_per_search: usize,
        terms: &TermList,
        ngram_max: usize,
    ) -> Option<&GramIndex> {
        let limit = terms.len() / terms_per_search.max(1);
        let below = |searched: usize| (searched + count < limit).then_some(searched + count);
        match (self.searched).fetch_update(Ordering::Relaxed, Ordering::Relaxed, below) {
            Ok(_) => None,
            Err(_) => Some(self.build(terms, ngram_max)),
        }
    }

    /// The searches by text noted.
    #[cfg(test)]
    pub(crate) fn searched(&self) -> usize {
        self.searched.load(Ordering::Relaxed)
    }
}

/// Terms for each search by text made before the index is built, for documents that come one
/// at a time.
///
/// Until the index is built, each term is a binary search, about 1 µs in a million terms;
/// building the default SVM model's index (1.09 million terms) costs about as much as a quarter
/// of a million of them (0.2-0.3 s of CPU on a loaded 2-core machine), so waiting for that many
/// searches before building, as one rents skis until their price is spent, never costs more
/// than twice the best choice made knowing the future.
pub const TERMS_PER_SEARCH: usize = 4;

/// The index is derived from the terms, so a clone starts without it.
impl Clone for LazyGrams {
    fn clone(&self) -> Self {
        LazyGrams::default()
    }
}

#[cfg(test)]
mod tests;
