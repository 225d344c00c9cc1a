//! A pool's documents counted once, by term, so that rescoring them after each label looks no
//! term up by its text: each pool term keeps its id in the model's vocabulary, filled in when a
//! label first brings the term in.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::analyze::Terms;
use crate::classifier::OnlineLearner;
use crate::vectorize::Counted;

/// The pool's documents as counts of the pool's own term ids, and each pool term's id in the
/// model's vocabulary.
pub(crate) struct CountedPool {
    /// Each pool term's pool id.
    ids: FxHashMap<Box<str>, u32>,
    /// Where each document's counts start in `counts`, and where the last one ends.
    starts: Vec<usize>,
    /// Per document, (pool term id, occurrences), one for each of its distinct terms.
    counts: Vec<(u32, u32)>,
    /// Each document's number of terms, known to the model or not.
    lengths: Vec<u32>,
    /// Each pool term's id in the model's vocabulary, [`UNKNOWN`] while the model does not
    /// know it: half the size of an `Option<u32>`, and the table is read at random for every
    /// term of every rescored document.
    vocabulary: Vec<u32>,
}

/// The vocabulary id of a pool term that the model does not know.
const UNKNOWN: u32 = u32::MAX;

/// What scoring one document at a time needs, kept between documents.
#[derive(Default)]
pub(crate) struct Scratch {
    /// A document's (vocabulary id, occurrences), being sorted.
    pairs: Vec<(u32, u32)>,
    /// Its row.
    pub(crate) counted: Counted,
    /// Its class probabilities.
    pub(crate) probabilities: Vec<f64>,
}

/// Documents a core counts at a time while the pool is read.
const CHUNK: usize = 1024;

/// A chunk of the pool's documents counted by the chunk's own term ids.
struct Chunk<'a> {
    /// Each of the chunk's terms, by its id in the chunk.
    terms: Vec<&'a str>,
    /// Per document, its (chunk term id, occurrences).
    documents: Vec<Vec<(u32, u32)>>,
    lengths: Vec<u32>,
}

impl<'a> Chunk<'a> {
    fn count(pool: &'a [Terms]) -> Chunk<'a> {
        let mut ids: FxHashMap<&'a str, u32> = FxHashMap::default();
        let mut chunk = Chunk {
            terms: Vec::new(),
            documents: Vec::with_capacity(pool.len()),
            lengths: Vec::with_capacity(pool.len()),
        };
        let mut occurrences = Vec::new();
        for terms in pool {
            occurrences.clear();
            for term in terms.iter() {
                let next = chunk.terms.len() as u32;
                let id = *ids.entry(term).or_insert(next);
                if id == next {
                    chunk.terms.push(term);
                }
                occurrences.push(id);
            }
            occurrences.sort_unstable();
            let runs = occurrences.chunk_by(|a, b| a == b);
            let counts = runs.map(|run| (run[0], u32::try_from(run.len()).unwrap_or(u32::MAX)));
            chunk.documents.push(counts.collect());
            chunk
                .lengths
                .push(u32::try_from(terms.len()).unwrap_or(u32::MAX));
        }
        chunk
    }
}

impl CountedPool {
    /// Counts every document of `pool`, a chunk on each core at a time; no term is known to the
    /// model yet.
    pub(crate) fn new(pool: &[Terms]) -> CountedPool {
        let chunks: Vec<Chunk> = pool.par_chunks(CHUNK).map(Chunk::count).collect();
        let mut counted = CountedPool {
            ids: FxHashMap::default(),
            starts: Vec::with_capacity(pool.len() + 1),
            counts: Vec::new(),
            lengths: Vec::with_capacity(pool.len()),
            vocabulary: Vec::new(),
        };
        counted.starts.push(0);
        for chunk in chunks {
            let ids: Vec<u32> = chunk.terms.iter().map(|t| counted.intern(t)).collect();
            for document in chunk.documents {
                let counts = document.iter().map(|&(term, n)| (ids[term as usize], n));
                counted.counts.extend(counts);
                counted.starts.push(counted.counts.len());
            }
            counted.lengths.extend(chunk.lengths);
        }
        counted.vocabulary = vec![UNKNOWN; counted.ids.len()];
        counted
    }

    fn intern(&mut self, term: &str) -> u32 {
        if let Some(&id) = self.ids.get(term) {
            return id;
        }
        let id = self.ids.len() as u32;
        self.ids.insert(term.into(), id);
        id
    }

    /// Takes every pool term's vocabulary id from `learner`, for a model that starts over.
    pub(crate) fn refresh(&mut self, learner: &OnlineLearner) {
        for (term, &id) in &self.ids {
            self.vocabulary[id as usize] = learner.term_id(term).unwrap_or(UNKNOWN);
        }
    }

    /// Notes the vocabulary ids of the pool terms among `terms`, which `learner` has just
    /// learned: a vocabulary gives a term its id when it first learns it, and never changes it.
    pub(crate) fn learned(&mut self, terms: &Terms, learner: &OnlineLearner) {
        for term in terms.iter() {
            if let Some(&id) = self.ids.get(term) {
                let known = &mut self.vocabulary[id as usize];
                if *known == UNKNOWN {
                    *known = learner.term_id(term).unwrap_or(UNKNOWN);
                }
            }
        }
    }

    /// Fills `scratch.counted` with document `i`'s counts of the terms the model knows, by
    /// vocabulary id in increasing order, and its length: the row the vocabulary would count
    /// from its terms.
    pub(crate) fn count(&self, i: usize, scratch: &mut Scratch) {
        let (pairs, vocabulary) = (&mut scratch.pairs, &self.vocabulary);
        pairs.clear();
        pairs.extend(
            (self.counts[self.starts[i]..self.starts[i + 1]].iter())
                .map(|&(term, n)| (vocabulary[term as usize], n))
                .filter(|&(id, _)| id != UNKNOWN),
        );
        pairs.sort_unstable_by_key(|&(id, _)| id);
        let counted = &mut scratch.counted;
        let row = &mut counted.row;
        row.indices.clear();
        row.values.clear();
        let mut known = 0u64;
        for &(id, n) in pairs.iter() {
            row.indices.push(id);
            row.values.push(f64::from(n));
            known += u64::from(n);
        }
        counted.length = self.lengths[i];
        counted.oov = u64::from(counted.length).saturating_sub(known);
    }
}
