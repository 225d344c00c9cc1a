//! Analyzing a document and counting its terms against a fitted vocabulary, in one pass.
//!
//! It is kept apart from `counting.rs`, which it builds on, because it needs the fitted
//! vectorizer, while `counting.rs` lies below it (feature hashing counts into a [`Counted`]
//! too): when both were one file, the files of `vectorize` used each other in a circle.

use super::gram_index::{TERMS_PER_SEARCH, UNKNOWN};
use super::{Counted, FittedVectorizer, RowCounter};
use crate::analyze::{Analyzer, AnalyzerWorker, Terms};

/// The size from which a document with n-grams is counted through the vocabulary's
/// [`GramIndex`](super::gram_index::GramIndex), built for it if need be. Counted by text, its
/// terms are all spelled out at once: classifying a 16 MiB line of short words peaked at 265 MiB
/// that way, and at 73 MiB counted as chains of word ids (`benches/long_line.sh`).
const LONG_TEXT: usize = 1 << 20;

/// [`DocumentCounter::for_corpus`]'s rule: as the terms' hash table of
/// [`TermList::find`](super::TermList::find) is built, after a few binary searches. On 20
/// Newsgroups test, building the default SVM model's index after a search for every four terms,
/// as documents coming one at a time do, would leave a quarter of a million terms to binary
/// searches, about 0.25 s of CPU in an evaluation that now takes about 1.5 s.
const CORPUS_TERMS_PER_SEARCH: usize = 64;

/// One worker's state for analyzing documents and counting them against a fitted vocabulary.
pub(crate) struct DocumentCounter<'a> {
    worker: AnalyzerWorker<'a>,
    counter: RowCounter,
    terms: Terms,
    /// Terms of the vocabulary for each search by text made before its gram index is built.
    terms_per_search: usize,
}

impl<'a> DocumentCounter<'a> {
    /// A counter with its own analysis worker, for documents that come one at a time, as long
    /// as they keep coming: the vocabulary's gram index is built for the document whose terms
    /// would bring the searches by text to about as many as building costs (see
    /// [`TERMS_PER_SEARCH`]), and that document is counted through it.
    pub(crate) fn new(analyzer: &'a Analyzer) -> Self {
        DocumentCounter::with_rule(analyzer, TERMS_PER_SEARCH)
    }

    /// A counter for the documents of a corpus, which are counted by the thousand: the gram
    /// index is built as soon as the vocabulary would be searched by text once for every
    /// [`CORPUS_TERMS_PER_SEARCH`] terms, since a corpus of more than a few documents repays it.
    pub(crate) fn for_corpus(analyzer: &'a Analyzer) -> Self {
        DocumentCounter::with_rule(analyzer, CORPUS_TERMS_PER_SEARCH)
    }

    fn with_rule(analyzer: &'a Analyzer, terms_per_search: usize) -> Self {
        DocumentCounter {
            worker: analyzer.worker(),
            counter: RowCounter::default(),
            terms: Terms::new(),
            terms_per_search,
        }
    }

    /// Counts the terms of `text` into `counted` by the fastest way the vocabulary allows, or for
    /// a text of [`LONG_TEXT`] bytes or more, the way that holds least.
    ///
    /// Without n-grams, the worker's memo maps each token to its column. With n-grams, once the
    /// vocabulary's [`GramIndex`](super::gram_index::GramIndex) is built, the memo maps each
    /// token to a word id and the n-grams are found as chains of ids, as fitting forms them,
    /// without their text; until then (a model classifying a few documents never repays
    /// building it) the terms are spelled out and each found by a binary search, or, for the
    /// document that builds the index, through it. Character n-grams are always counted by
    /// text.
    pub(crate) fn count(
        &mut self,
        vectorizer: &FittedVectorizer,
        text: &str,
        counted: &mut Counted,
    ) {
        if let Some(hashing) = vectorizer.hashing() {
            // A hashed term's column comes from its text, so every term is spelled out.
            self.worker.analyze(text, &mut self.terms);
            vectorizer.count_hashed(hashing, &self.terms, counted);
            return;
        }
        let ngram_max = vectorizer.analyzer.ngram_max;
        let words_only = vectorizer.analyzer.words_only();
        if !words_only {
            self.worker.analyze(text, &mut self.terms);
            self.counter
                .count(&self.terms, |t| vectorizer.column(t), counted);
            return;
        }
        let terms = &vectorizer.terms;
        if ngram_max > 1 && text.len() >= LONG_TEXT {
            vectorizer.grams.build(terms, ngram_max);
        }
        if ngram_max > 1 && vectorizer.grams.get().is_none() {
            self.count_by_text(vectorizer, text, counted);
            return;
        }
        let (mut oov, counter) = (0, &mut self.counter);
        let mut each = |id| match id {
            UNKNOWN => oov += 1,
            id => counter.bump(id),
        };
        let length = match vectorizer.grams.get() {
            Some(grams) => {
                let word = |word: &str| grams.word(word);
                let pair = |prefix, word| grams.pair(prefix, word);
                let column = |gram| grams.column(gram).unwrap_or(UNKNOWN);
                self.worker
                    .analyze_grams(text, word, pair, |gram| each(column(gram)))
            }
            None => {
                let column = |term: &str| vectorizer.column(term).unwrap_or(UNKNOWN);
                self.worker
                    .analyze_grams(text, column, |_, _| UNKNOWN, each)
            }
        };
        self.counter.finish_row(length, counted);
        counted.oov = oov;
    }

    /// Counts the terms of `text`, spelled out, before the vocabulary's gram index is built:
    /// through the index, built first, if this document's terms would bring the searches by
    /// text to the counter's rule, else each by a binary search. (Not by the terms' hash table,
    /// which costs as much to build as the index and would never be used once the index is.)
    fn count_by_text(&mut self, vectorizer: &FittedVectorizer, text: &str, counted: &mut Counted) {
        self.worker.analyze(text, &mut self.terms);
        let (terms, ngram_max) = (&vectorizer.terms, vectorizer.analyzer.ngram_max);
        let (searches, rule) = (self.terms.len(), self.terms_per_search);
        match (vectorizer.grams).instead_of_searches(searches, rule, terms, ngram_max) {
            Some(grams) => self.counter.count(&self.terms, |t| grams.find(t), counted),
            None => {
                let column = |t: &str| terms.binary_search(t).ok().map(|j| j as u32);
                self.counter.count(&self.terms, column, counted);
            }
        }
    }
}
