//! The counting stages: after analysis, terms become the ids of a fit's interner or the columns
//! of a fitted vectorizer.

use super::{analysis_stages, read_stage, Analyzed};
use crate::analyze::{Analyzer, Terms};
use crate::pipeline::Stage;
use crate::vectorize::{
    DocumentCounter, FittedVectorizer, HashedCounter, Hashing, Interner, RowCounter,
};

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
pub(crate) fn fit_stage(interner: &Interner) -> Stage<'_, Analyzed> {
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
/// and hashing of every bigram's text. Otherwise the analysis stages are followed by the
/// counting stage.
pub fn fit_stages<'a>(
    analyzer: &'a Analyzer,
    interner: &'a Interner,
    max_doc_bytes: u64,
    fused: bool,
) -> Vec<Stage<'a, Analyzed>> {
    let fused_stage = || fused_fit_stage(analyzer, interner);
    let counting = || fit_stage(interner);
    counting_stages(analyzer, max_doc_bytes, fused, fused_stage, counting)
}

/// The stages of a fit whose terms are hashed: reading and analysis, then each term's text
/// hashed to its column. There is no interner to share, so nothing grows with the vocabulary.
pub(crate) fn hashed_fit_stages(
    analyzer: &Analyzer,
    hashing: Hashing,
    max_doc_bytes: u64,
    fused: bool,
) -> Vec<Stage<'_, Analyzed>> {
    let mut stages = analysis_stages(analyzer, max_doc_bytes, fused);
    stages.push(Stage::new("hash", move || {
        let mut counter = HashedCounter::default();
        Box::new(move |batch: &mut Vec<Analyzed>| {
            let mut tokens = 0;
            for item in batch.iter_mut().filter(|i| i.entry.is_document()) {
                counter.count(hashing, &item.terms, Some, &mut item.counted);
                tokens += u64::from(item.counted.length);
                release(item);
            }
            Ok(tokens)
        })
    }));
    stages
}

/// Reading and analysis followed by a counting stage; or, in the fused layout of an analysis
/// whose terms are all words and word n-grams (which can be counted by their words' ids),
/// reading followed by `fused_stage`, which analyzes and counts in one.
fn counting_stages<'a>(
    analyzer: &'a Analyzer,
    max_doc_bytes: u64,
    fused: bool,
    fused_stage: impl FnOnce() -> Stage<'a, Analyzed>,
    counting: impl FnOnce() -> Stage<'a, Analyzed>,
) -> Vec<Stage<'a, Analyzed>> {
    if fused && analyzer.config().words_only() {
        return vec![read_stage(max_doc_bytes), fused_stage()];
    }
    let mut stages = analysis_stages(analyzer, max_doc_bytes, fused);
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
/// a token straight to an id (see
/// [`AnalyzerWorker::analyze_grams`](crate::analyze::AnalyzerWorker::analyze_grams)); the
/// staged layout counts the terms by their text.
pub fn transform_stages<'a>(
    analyzer: &'a Analyzer,
    vectorizer: &'a FittedVectorizer,
    max_doc_bytes: u64,
    fused: bool,
) -> Vec<Stage<'a, Analyzed>> {
    if vectorizer.hashing().is_some() {
        let mut stages = analysis_stages(analyzer, max_doc_bytes, fused);
        stages.push(transform_stage(vectorizer));
        return stages;
    }
    let fused_stage = || fused_transform_stage(analyzer, vectorizer);
    let counting = || transform_stage(vectorizer);
    counting_stages(analyzer, max_doc_bytes, fused, fused_stage, counting)
}

fn fused_transform_stage<'a>(
    analyzer: &'a Analyzer,
    vectorizer: &'a FittedVectorizer,
) -> Stage<'a, Analyzed> {
    Stage::new("analyze+count", move || {
        let mut counting = DocumentCounter::for_corpus(analyzer);
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

/// The transform's counting stage: terms → fitted columns, then weighting, all on the workers.
///
/// For hashed terms the document's terms are kept (its text is not): a hashed model has no
/// vocabulary to name a column by, so an explanation names it by the document's own terms that
/// fell in it.
pub(crate) fn transform_stage(vectorizer: &FittedVectorizer) -> Stage<'_, Analyzed> {
    let hashed = vectorizer.hashing().is_some();
    Stage::new("count", move || {
        let mut counter = RowCounter::default();
        Box::new(move |batch: &mut Vec<Analyzed>| {
            let mut tokens = 0;
            for item in batch.iter_mut().filter(|i| i.entry.is_document()) {
                vectorizer.transform_with(&mut counter, &item.terms, &mut item.counted);
                tokens += u64::from(item.counted.length);
                match hashed {
                    true => item.entry.doc.text = String::new(),
                    false => release(item),
                }
            }
            Ok(tokens)
        })
    })
}
