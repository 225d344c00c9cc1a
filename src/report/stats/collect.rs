//! Reading a corpus into [`CorpusStats`]: workers reduce documents, the caller merges them.

use std::cmp::Ordering as Order;
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};

use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap};

use super::distinctive::log_odds_z;
use super::fit::{heaps, lengths, quantile, zipf};
use super::{
    ClassStats, CorpusStats, DistinctiveTerm, NgramCount, TermCount, Totals, LISTED_TERMS,
};
use crate::analyze::ngrams::NGRAM_SEPARATOR;
use crate::analyze::{Analyzer, AnalyzerConfig, AnalyzerWorker, Terms, WordMemo};
use crate::corpus::{load_pending, Entries, Entry, ReadCounts};
use crate::error::Result;
use crate::pipeline::{PipelineConfig, Stage};

#[cfg(feature = "cluster")]
mod observations;
#[cfg(feature = "cluster")]
pub(crate) use observations::{observe, Observation};

/// The class name of documents without a label.
const UNLABELED: &str = "(unlabeled)";

/// One document reduced by a worker. Terms are numbered by the worker that read them (each
/// worker numbers the terms it meets in its own order) and sent as string once, in the first
/// document where the worker met them; the caller maps each worker's numbers to its own. A
/// worker's documents reach the caller in the order the worker read them, so a term's string
/// always arrives before its number is used.
#[derive(Debug, Default)]
struct Observed {
    /// The entry's place in the input, when the input is read in several places (cluster mode).
    #[cfg(feature = "cluster")]
    position: u64,
    entry: Entry,
    worker: usize,
    tokens: u64,
    kept: u64,
    /// Words and terms this worker met for the first time in this document, in number order.
    new_words: Terms,
    new_terms: Terms,
    /// The document's distinct terms (the worker's numbers) with their counts.
    terms: Vec<(u32, u64)>,
    ngrams: Terms,
    ngram_counts: Vec<u64>,
    text_hash: u128,
}

/// A worker's numbering of words and terms.
#[derive(Default)]
struct Numbering {
    memo: WordMemo<Option<u32>>,
    words: FxHashMap<Box<str>, ()>,
    terms: FxHashMap<Box<str>, u32>,
    ids: Vec<u32>,
}

impl Numbering {
    /// Reduces one loaded document.
    fn observe(&mut self, worker: &mut AnalyzerWorker, ngrams: &mut Terms, item: &mut Observed) {
        let Numbering {
            memo,
            words,
            terms,
            ids,
        } = self;
        let (mut tokens, mut kept) = (0u64, 0u64);
        ids.clear();
        let text = &item.entry.doc.text;
        let resolve = |stages: Option<(&str, &str)>| {
            let (word, term) = stages?;
            if !words.contains_key(word) {
                words.insert(word.into(), ());
                item.new_words.push(word);
            }
            let next = terms.len() as u32;
            let id = *terms.entry(term.into()).or_insert(next);
            if id == next {
                item.new_terms.push(term);
            }
            Some(id)
        };
        worker.for_each_word(text, memo, resolve, |id| {
            tokens += 1;
            if let Some(id) = id {
                kept += 1;
                ids.push(id);
            }
        });
        ids.sort_unstable();
        for &id in ids.iter() {
            match item.terms.last_mut() {
                Some((last, count)) if *last == id => *count += 1,
                _ => item.terms.push((id, 1)),
            }
        }
        (item.tokens, item.kept) = (tokens, kept);
        if worker.makes_ngrams() {
            worker.analyze(text, ngrams);
            distinct(ngrams, &mut item.ngrams, &mut item.ngram_counts);
        }
        item.text_hash = text_hash(text);
        item.entry.doc.text = String::new();
    }
}

/// Reads `entries` through the pipeline into `collector`; `note` sees every entry in input order
/// (for warnings). Files are loaded by the workers, documents longer than `max_doc_bytes`
/// truncated.
pub fn collect(
    collector: &mut Collector,
    entries: Entries,
    analyzer: &Analyzer,
    pipeline: &PipelineConfig,
    max_doc_bytes: u64,
    mut note: impl FnMut(&Entry),
) -> Result<()> {
    let source = entries.map(|entry| Observed {
        entry,
        ..Observed::default()
    });
    let first_worker = collector.workers.len();
    reduce(
        source,
        first_worker,
        analyzer,
        pipeline,
        max_doc_bytes,
        |item| {
            note(&item.entry);
            collector.add(item);
        },
    )
}

/// Reduces the documents of `source` on the pipeline's workers (numbered from `first_worker`)
/// and hands each to `sink` in input order.
fn reduce(
    source: impl Iterator<Item = Observed> + Send,
    first_worker: usize,
    analyzer: &Analyzer,
    pipeline: &PipelineConfig,
    max_doc_bytes: u64,
    mut sink: impl FnMut(Observed),
) -> Result<()> {
    let workers = AtomicUsize::new(first_worker);
    let stage = Stage::new("observe", || {
        let number = workers.fetch_add(1, Ordering::Relaxed);
        let mut worker = analyzer.worker();
        let mut numbering = Numbering::default();
        let mut ngrams = Terms::new();
        Box::new(move |batch: &mut Vec<Observed>| {
            let mut units = 0;
            for item in batch.iter_mut() {
                load_pending(&mut item.entry, max_doc_bytes);
                item.worker = number;
                if item.entry.is_document() {
                    numbering.observe(&mut worker, &mut ngrams, item);
                    units += item.tokens;
                }
            }
            Ok(units)
        })
    });
    crate::pipeline::run(pipeline, source, vec![stage], |batch| {
        batch.into_iter().for_each(&mut sink);
        Ok(())
    })?;
    Ok(())
}

/// `terms`' distinct values in byte order into `out`, with their counts.
fn distinct(terms: &Terms, out: &mut Terms, counts: &mut Vec<u64>) {
    let mut sorted: Vec<&str> = terms.iter().collect();
    sorted.sort_unstable();
    out.clear();
    counts.clear();
    for (i, term) in sorted.iter().enumerate() {
        if i > 0 && sorted[i - 1] == *term {
            if let Some(count) = counts.last_mut() {
                *count += 1;
            }
        } else {
            out.push(term);
            counts.push(1);
        }
    }
}

/// 128 bits of two independent SipHash passes: collisions among a corpus's documents are
/// practically impossible, so equal hashes stand for equal texts.
fn text_hash(text: &str) -> u128 {
    let mut first = DefaultHasher::new();
    text.hash(&mut first);
    let mut second = DefaultHasher::new();
    (0xB0_u8, text).hash(&mut second);
    (u128::from(first.finish()) << 64) | u128::from(second.finish())
}

/// Adds `text` to a set of distinct strings unless it is there already.
fn insert_distinct(set: &mut HashTable<Box<str>>, text: &str) {
    let hash = FxBuildHasher.hash_one(text);
    if set.find(hash, |s| **s == *text).is_none() {
        set.insert_unique(hash, text.into(), |s| FxBuildHasher.hash_one(&**s));
    }
}

/// Per-class accumulators.
#[derive(Debug, Default)]
struct ClassAcc {
    lengths: Vec<u64>,
    tokens: u64,
    kept: u64,
    counts: Vec<u64>,
    documents_with: Vec<u64>,
}

/// The merged figures so far; [`Collector::finish`] turns them into a report.
#[derive(Debug)]
pub struct Collector {
    analysis: AnalyzerConfig,
    read: ReadCounts,
    class_ids: HashMap<String, usize>,
    classes: Vec<ClassAcc>,
    tokens: u64,
    kept: u64,
    words: HashTable<Box<str>>,
    names: Vec<Box<str>>,
    index: HashTable<u32>,
    /// Per worker, its term numbers' ids here.
    workers: Vec<Vec<u32>>,
    /// Terms counted so far (ids are given as workers announce terms, which can be ahead of
    /// the documents merged).
    seen: u64,
    counts: Vec<u64>,
    documents_with: Vec<u64>,
    growth: Vec<(u64, u64)>,
    ngrams: BTreeMap<u32, (u64, HashTable<Box<str>>)>,
    texts: HashMap<u128, Vec<usize>, FxBuildHasher>,
    within: u64,
    across: u64,
}

impl Collector {
    /// An empty collector for documents analyzed with `analysis`.
    pub fn new(analysis: AnalyzerConfig) -> Self {
        Collector {
            analysis,
            read: ReadCounts::default(),
            class_ids: HashMap::new(),
            classes: Vec::new(),
            tokens: 0,
            kept: 0,
            words: HashTable::new(),
            names: Vec::new(),
            index: HashTable::new(),
            workers: Vec::new(),
            seen: 0,
            counts: Vec::new(),
            documents_with: Vec::new(),
            growth: Vec::new(),
            ngrams: BTreeMap::new(),
            texts: HashMap::default(),
            within: 0,
            across: 0,
        }
    }

    /// Counts inputs skipped before they became entries (as a corpus index remembers them).
    pub(crate) fn add_skipped(&mut self, binary: u64, failed: u64) {
        self.read.binary += binary;
        self.read.failed += failed;
    }

    fn add(&mut self, item: Observed) {
        self.read.add(&item.entry);
        if !item.entry.is_document() {
            return;
        }
        let label = item.entry.doc.label.as_deref().unwrap_or(UNLABELED);
        let class = self.class_id(label);
        let acc = &mut self.classes[class];
        acc.lengths.push(item.tokens);
        acc.tokens += item.tokens;
        acc.kept += item.kept;
        self.tokens += item.tokens;
        self.kept += item.kept;
        for word in item.new_words.iter() {
            insert_distinct(&mut self.words, word);
        }
        if self.workers.len() <= item.worker {
            self.workers.resize(item.worker + 1, Vec::new());
        }
        for term in item.new_terms.iter() {
            let id = self.intern(term) as u32;
            self.workers[item.worker].push(id);
        }
        for &(local, count) in &item.terms {
            let id = self.workers[item.worker][local as usize] as usize;
            self.count(class, id, count);
        }
        self.growth.push((self.kept, self.seen));
        for (ngram, &count) in item.ngrams.iter().zip(&item.ngram_counts) {
            self.add_ngram(ngram, count);
        }
        if item.entry.bytes > 0 {
            self.note_text(item.text_hash, class);
        }
    }

    fn class_id(&mut self, label: &str) -> usize {
        if let Some(&id) = self.class_ids.get(label) {
            return id;
        }
        self.classes.push(ClassAcc::default());
        self.class_ids
            .insert(label.to_string(), self.classes.len() - 1);
        self.classes.len() - 1
    }

    fn intern(&mut self, term: &str) -> usize {
        let hash = FxBuildHasher.hash_one(term);
        let names = &self.names;
        if let Some(&id) = self.index.find(hash, |&id| &*names[id as usize] == term) {
            return id as usize;
        }
        let id = self.names.len() as u32;
        self.names.push(term.into());
        let (names, hasher) = (&self.names, FxBuildHasher);
        self.index
            .insert_unique(hash, id, |&id| hasher.hash_one(&*names[id as usize]));
        self.counts.push(0);
        self.documents_with.push(0);
        id as usize
    }

    fn count(&mut self, class: usize, id: usize, count: u64) {
        self.seen += u64::from(self.counts[id] == 0);
        self.counts[id] += count;
        self.documents_with[id] += 1;
        let acc = &mut self.classes[class];
        if acc.counts.len() <= id {
            acc.counts.resize(self.names.len(), 0);
            acc.documents_with.resize(self.names.len(), 0);
        }
        acc.counts[id] += count;
        acc.documents_with[id] += 1;
    }

    fn add_ngram(&mut self, ngram: &str, count: u64) {
        let n = ngram.matches(NGRAM_SEPARATOR).count() as u32 + 1;
        let (tokens, seen) = self.ngrams.entry(n).or_default();
        *tokens += count;
        insert_distinct(seen, ngram);
    }

    /// Counts a document as a duplicate when an earlier one had the same text: within its class
    /// when one of those was of its class, across classes otherwise. Empty documents are counted
    /// as empty, not as duplicates of each other.
    fn note_text(&mut self, hash: u128, class: usize) {
        let earlier = self.texts.entry(hash).or_default();
        if !earlier.is_empty() {
            if earlier.contains(&class) {
                self.within += 1;
            } else {
                self.across += 1;
            }
        }
        earlier.push(class);
    }

    /// The report.
    pub fn finish(self) -> CorpusStats {
        let mut all_lengths: Vec<u64> = Vec::with_capacity(self.read.documents as usize);
        let mut classes = BTreeMap::new();
        for (name, &id) in &self.class_ids {
            let acc = &self.classes[id];
            all_lengths.extend_from_slice(&acc.lengths);
            classes.insert(name.clone(), self.class_stats(acc));
        }
        all_lengths.sort_unstable();
        let mut descending = self.counts.clone();
        descending.sort_unstable_by(|a, b| b.cmp(a));
        CorpusStats {
            totals: self.totals(),
            classes,
            lengths: lengths(&all_lengths),
            zipf: zipf(&descending),
            heaps: heaps(&self.growth),
            top_terms: self.top_terms(&self.counts, &self.documents_with),
            ngrams: self
                .ngrams
                .iter()
                .map(|(&n, (tokens, seen))| NgramCount {
                    n,
                    tokens: *tokens,
                    distinct: seen.len() as u64,
                })
                .collect(),
            analysis: self.analysis,
        }
    }

    fn totals(&self) -> Totals {
        let read = &self.read;
        let distinct_terms = self.seen;
        Totals {
            documents: read.documents,
            bytes: read.bytes,
            classes: self.class_ids.len() as u64,
            tokens: self.tokens,
            tokens_after_stop_words: self.kept,
            distinct_words: self.words.len() as u64,
            distinct_terms,
            type_token_ratio: distinct_terms as f64 / self.kept.max(1) as f64,
            hapax_legomena: self.counts.iter().filter(|&&c| c == 1).count() as u64,
            empty: read.empty,
            non_utf8: read.windows_1252,
            binary_skipped: read.binary,
            truncated: read.truncated,
            unreadable: read.failed,
            duplicates_within_class: self.within,
            duplicates_across_classes: self.across,
        }
    }

    fn class_stats(&self, acc: &ClassAcc) -> ClassStats {
        let mut sorted = acc.lengths.clone();
        sorted.sort_unstable();
        let documents = sorted.len() as u64;
        let distinctive = acc
            .counts
            .iter()
            .enumerate()
            .filter(|&(_, &y)| y > 0)
            .map(|(id, &y)| (log_odds_z(y, acc.kept, self.counts[id], self.kept), id))
            // A term more typical of the rest of the corpus is not distinctive of the class.
            .filter(|&(z, _)| z > 0.0);
        ClassStats {
            documents,
            share: documents as f64 / self.read.documents.max(1) as f64,
            tokens: acc.tokens,
            mean_length: acc.tokens as f64 / documents.max(1) as f64,
            median_length: quantile(&sorted, 0.5),
            top_terms: self.top_terms(&acc.counts, &acc.documents_with),
            distinctive_terms: self
                .top(distinctive)
                .into_iter()
                .map(|(z, id)| DistinctiveTerm {
                    term: self.names[id].to_string(),
                    z,
                    count: acc.counts[id],
                })
                .collect(),
        }
    }

    fn top_terms(&self, counts: &[u64], documents_with: &[u64]) -> Vec<TermCount> {
        let ranked = counts
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c > 0)
            .map(|(id, &c)| (c as f64, id));
        self.top(ranked)
            .into_iter()
            .map(|(_, id)| TermCount {
                term: self.names[id].to_string(),
                count: counts[id],
                documents: documents_with[id],
            })
            .collect()
    }

    /// The [`LISTED_TERMS`] highest keys, ties by term in byte order.
    fn top(&self, ranked: impl Iterator<Item = (f64, usize)>) -> Vec<(f64, usize)> {
        let names = &self.names;
        let order = |a: &(f64, usize), b: &(f64, usize)| {
            b.0.partial_cmp(&a.0)
                .unwrap_or(Order::Equal)
                .then_with(|| names[a.1].cmp(&names[b.1]))
        };
        let mut all: Vec<(f64, usize)> = ranked.collect();
        if all.len() > LISTED_TERMS {
            all.select_nth_unstable_by(LISTED_TERMS - 1, order);
            all.truncate(LISTED_TERMS);
        }
        all.sort_unstable_by(order);
        all
    }
}
