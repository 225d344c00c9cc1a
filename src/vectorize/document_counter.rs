//! Analyzing a document and counting its terms against a fitted vocabulary, in one pass.
//!
//! It is kept apart from `counting.rs`, which it builds on, because it needs the fitted
//! vectorizer, while `counting.rs` lies below it (feature hashing counts into a [`Counted`]
//! too): when both were one file, the files of `vectorize` used each other in a circle.

use super::gram_index::UNKNOWN;
use super::{Counted, FittedVectorizer, RowCounter};
use crate::analyze::{Analyzer, AnalyzerWorker, Terms};

/// The size from which a document with n-grams is counted through the vocabulary's
/// [`GramIndex`](super::gram_index::GramIndex), built for it if need be. Counted by text, its
/// terms are all spelled out at once: classifying a 16 MiB line of short words peaked at 265 MiB
/// that way, and at 73 MiB counted as chains of word ids (`benches/long_line.sh`).
const LONG_TEXT: usize = 1 << 20;

/// One worker's state for analyzing documents and counting them against a fitted vocabulary.
pub(crate) struct DocumentCounter<'a> {
    worker: AnalyzerWorker<'a>,
    counter: RowCounter,
    terms: Terms,
}

impl<'a> DocumentCounter<'a> {
    /// A counter with its own analysis worker.
    pub(crate) fn new(analyzer: &'a Analyzer) -> Self {
        DocumentCounter {
            worker: analyzer.worker(),
            counter: RowCounter::default(),
            terms: Terms::new(),
        }
    }

    /// Counts the terms of `text` into `counted` by the fastest way the vocabulary allows, or for
    /// a text of [`LONG_TEXT`] bytes or more, the way that holds least.
    ///
    /// Without n-grams, the worker's memo maps each token to its column. With n-grams, once the
    /// vocabulary's [`GramIndex`](super::gram_index::GramIndex) is built, the memo maps each
    /// token to a word id and the n-grams are found as chains of ids, as fitting forms them,
    /// without their text; until then (a model classifying a few documents never repays
    /// building it) the terms are counted by text. Character n-grams are always counted by text.
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
        if words_only && ngram_max > 1 && text.len() >= LONG_TEXT {
            vectorizer.grams.build(&vectorizer.terms, ngram_max);
        }
        if !words_only || (ngram_max > 1 && vectorizer.grams.get().is_none()) {
            self.worker.analyze(text, &mut self.terms);
            if words_only {
                let (terms, searched) = (&vectorizer.terms, self.terms.len());
                vectorizer.grams.note_searches(searched, terms, ngram_max);
            }
            self.counter
                .count(&self.terms, |t| vectorizer.column(t), counted);
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
}
