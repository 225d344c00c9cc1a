//! Counting a document's terms into a sparse row, and the pipeline stages that do it.

use super::gram_index::UNKNOWN;
use super::{FittedVectorizer, Interner, SparseRow};
use crate::analyze::{read_stage, Analyzed, Analyzer, AnalyzerWorker, Terms};
use crate::pipeline::Stage;

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
    fn finish_row(&mut self, length: u32, counted: &mut Counted) {
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

    fn bump(&mut self, id: u32) {
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

/// Once counted, a document's text and terms are not needed any more; freeing them on the worker
/// keeps that cost off the collecting thread.
fn release(item: &mut Analyzed) {
    item.terms = Terms::new();
    item.entry.doc.text = String::new();
}

/// The fit's counting stage: terms → provisional ids through the shared interner.
///
/// Workers go straight to the interner. A per-worker term → id map in front of it was tried: with
/// bigrams it held a copy of most of the 1.26 million distinct terms of 20 Newsgroups per worker,
/// and `vectorize --ngrams 1..2 --min-df 2` was faster without it (2.8–3.0 s of CPU against
/// 3.2–3.4 s) and peaked 70–120 MiB lower.
pub fn fit_stage(interner: &Interner) -> Stage<'_, Analyzed> {
    Stage::new("count", move || {
        let mut counter = RowCounter::default();
        Box::new(move |batch: &mut Vec<Analyzed>| {
            let mut tokens = 0;
            for item in batch.iter_mut().filter(|i| i.entry.is_document()) {
                let id_of = |term: &str| Some(interner.id(term));
                counter.count(&item.terms, id_of, &mut item.counted);
                tokens += u64::from(item.counted.length);
                release(item);
            }
            Ok(tokens)
        })
    })
}

/// The stages of a fit: reading, analysis and counting into provisional ids.
///
/// In the fused layout, analysis and counting are one stage
/// ([`AnalyzerWorker::analyze_grams`](crate::analyze::AnalyzerWorker::analyze_grams)): a token
/// maps straight to its word's id and an n-gram to the id of a pair of ids, which on 20
/// Newsgroups saves a second hash lookup and a copy of every term, and with bigrams the joining
/// and hashing of every bigram's text. Otherwise the analysis stages are followed by
/// [`fit_stage`].
pub fn fit_stages<'a>(
    analyzer: &'a Analyzer,
    interner: &'a Interner,
    max_doc_bytes: u64,
    fused: bool,
) -> Vec<Stage<'a, Analyzed>> {
    let fused_stage = || fused_fit_stage(analyzer, interner);
    let counting = || fit_stage(interner);
    counting_stages(analyzer, max_doc_bytes, fused, fused, fused_stage, counting)
}

/// Reading and analysis followed by a counting stage; or, when `counts_in_analysis`, reading
/// followed by `fused_stage`, which analyzes and counts in one.
fn counting_stages<'a>(
    analyzer: &'a Analyzer,
    max_doc_bytes: u64,
    fused: bool,
    counts_in_analysis: bool,
    fused_stage: impl FnOnce() -> Stage<'a, Analyzed>,
    counting: impl FnOnce() -> Stage<'a, Analyzed>,
) -> Vec<Stage<'a, Analyzed>> {
    if counts_in_analysis {
        return vec![read_stage(max_doc_bytes), fused_stage()];
    }
    let mut stages = analyzer.stages(max_doc_bytes, fused);
    stages.push(counting());
    stages
}

fn fused_fit_stage<'a>(analyzer: &'a Analyzer, interner: &'a Interner) -> Stage<'a, Analyzed> {
    Stage::new("analyze+count", move || {
        let (mut worker, mut counter) = (analyzer.worker(), RowCounter::default());
        Box::new(move |batch: &mut Vec<Analyzed>| {
            let mut tokens = 0;
            for item in batch.iter_mut().filter(|i| i.entry.is_document()) {
                let text = &item.entry.doc.text;
                let id_of = |term: &str| interner.id(term);
                let pair_id = |left, right| interner.pair_id(left, right);
                let length = worker.analyze_grams(text, id_of, pair_id, |id| counter.bump(id));
                counter.finish_row(length, &mut item.counted);
                tokens += u64::from(length);
                release(item);
            }
            Ok(tokens)
        })
    })
}

/// The stages of a transform over a fitted vectorizer: reading, analysis, counting and weighting.
///
/// As in [`fit_stages`], the fused layout runs analysis and counting as one stage, whose memo maps
/// a token straight to an id (see `DocumentCounter`); the staged layout counts the terms.
/// text.
pub fn transform_stages<'a>(
    analyzer: &'a Analyzer,
    vectorizer: &'a FittedVectorizer,
    max_doc_bytes: u64,
    fused: bool,
) -> Vec<Stage<'a, Analyzed>> {
    let fused_stage = || fused_transform_stage(analyzer, vectorizer);
    let counting = || transform_stage(vectorizer);
    counting_stages(analyzer, max_doc_bytes, fused, fused, fused_stage, counting)
}

fn fused_transform_stage<'a>(
    analyzer: &'a Analyzer,
    vectorizer: &'a FittedVectorizer,
) -> Stage<'a, Analyzed> {
    Stage::new("analyze+count", move || {
        let mut counting = DocumentCounter {
            worker: analyzer.worker(),
            counter: RowCounter::default(),
            terms: Terms::new(),
        };
        Box::new(move |batch: &mut Vec<Analyzed>| {
            let mut tokens = 0;
            for item in batch.iter_mut().filter(|i| i.entry.is_document()) {
                counting.count(vectorizer, &item.entry.doc.text, &mut item.counted);
                vectorizer.weigh(&mut item.counted.row, item.counted.length);
                tokens += u64::from(item.counted.length);
                release(item);
            }
            Ok(tokens)
        })
    })
}

/// One worker's state for analyzing documents and counting them against a fitted vocabulary.
struct DocumentCounter<'a> {
    worker: AnalyzerWorker<'a>,
    counter: RowCounter,
    terms: Terms,
}

impl DocumentCounter<'_> {
    /// Counts the terms of `text` into `counted` by the fastest way the vocabulary allows.
    ///
    /// Without n-grams, the worker's memo maps each token to its column. With n-grams, once the
    /// vocabulary's [`GramIndex`](super::gram_index::GramIndex) is built, the memo maps each
    /// token to a word id and the n-grams are found as chains of ids, as fitting forms them,
    /// without their text; until then (a model classifying a few documents never repays
    /// building it) the terms are counted by text.
    fn count(&mut self, vectorizer: &FittedVectorizer, text: &str, counted: &mut Counted) {
        let ngram_max = vectorizer.analyzer.ngram_max;
        if ngram_max > 1 && vectorizer.grams.get().is_none() {
            self.worker.analyze(text, &mut self.terms);
            let (terms, searched) = (&vectorizer.terms, self.terms.len());
            vectorizer.grams.note_searches(searched, terms, ngram_max);
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

/// The transform's counting stage: terms → fitted columns, then weighting, all on the workers.
pub fn transform_stage(vectorizer: &FittedVectorizer) -> Stage<'_, Analyzed> {
    Stage::new("count", move || {
        let mut counter = RowCounter::default();
        Box::new(move |batch: &mut Vec<Analyzed>| {
            let mut tokens = 0;
            for item in batch.iter_mut().filter(|i| i.entry.is_document()) {
                vectorizer.transform_with(&mut counter, &item.terms, &mut item.counted);
                tokens += u64::from(item.counted.length);
                release(item);
            }
            Ok(tokens)
        })
    })
}
