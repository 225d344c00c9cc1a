//! Counting a document's terms into a sparse row; [`crate::flow`] runs it as pipeline stages.

use super::gram_index::UNKNOWN;
use super::{FittedVectorizer, SparseRow};
use crate::analyze::{Analyzer, AnalyzerWorker, Terms};

/// A document's term counts, or weights once weighed, with what the weighting needs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Counted {
    /// Column ids and counts (fit) or weights (transform).
    pub row: SparseRow,
    /// Number of terms the analyzer produced, in the vocabulary or not.
    pub length: u32,
    /// Terms not in the vocabulary (transform only).
    pub oov: u64,
}

/// Counts ids into a dense scratch array, so counting a document costs no hashing beyond the id
/// lookups themselves.
#[derive(Debug, Default)]
pub struct RowCounter {
    counts: Vec<u32>,
    touched: Vec<u32>,
}

impl RowCounter {
    /// Counts the terms of one document, with `id_of` giving each term's column (or `None` for an
    /// unknown term). Fills `counted` with the row in column order, values being counts.
    pub fn count(
        &mut self,
        terms: &Terms,
        mut id_of: impl FnMut(&str) -> Option<u32>,
        counted: &mut Counted,
    ) {
        counted.oov = 0;
        for term in terms.iter() {
            match id_of(term) {
                Some(id) => self.bump(id),
                None => counted.oov += 1,
            }
        }
        let length = u32::try_from(terms.len()).unwrap_or(u32::MAX);
        self.finish_row(length, counted);
    }

    /// Moves the ids counted since the last row into `counted`, in id order, and resets.
    pub(crate) fn finish_row(&mut self, length: u32, counted: &mut Counted) {
        counted.length = length;
        let row = &mut counted.row;
        row.indices.clear();
        row.values.clear();
        self.touched.sort_unstable();
        // Exact capacities: a fit keeps every training row until the vocabulary is known.
        row.indices.reserve_exact(self.touched.len());
        row.values.reserve_exact(self.touched.len());
        for &id in &self.touched {
            row.indices.push(id);
            row.values
                .push(f64::from(std::mem::take(&mut self.counts[id as usize])));
        }
        self.touched.clear();
    }

    pub(crate) fn bump(&mut self, id: u32) {
        let slot = id as usize;
        if slot >= self.counts.len() {
            self.counts.resize(slot + 1, 0);
        }
        if self.counts[slot] == 0 {
            self.touched.push(id);
        }
        self.counts[slot] += 1;
    }
}

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
