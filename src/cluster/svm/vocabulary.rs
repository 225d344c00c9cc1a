//! The SVM's first phase: each worker counts its documents' terms, worker 0 adds the counts up
//! and fits the vocabulary exactly as one process fitting every document would, and every worker
//! receives it.

use serde::{Deserialize, Serialize};

use crate::analyze::AnalyzerConfig;
use crate::error::{Error, Result};
use crate::vectorize::{fit_counts, FittedCorpus, FittedVectorizer, TermList, VectorizerConfig};

/// What a worker sends of its documents: every term it saw (in byte order) with its document
/// frequency and total count, its documents, and the labels they carry.
#[derive(Debug, Serialize, Deserialize)]
pub struct ShardCounts {
    terms: TermList,
    df: Vec<u32>,
    total: Vec<u64>,
    documents: u32,
    /// The class folders, or else the distinct labels of the worker's documents.
    classes: Vec<String>,
}

impl ShardCounts {
    /// The counts of a worker's documents, read with raw counts over every term.
    pub fn of(counted: &FittedCorpus) -> Self {
        let vectorizer = &counted.vectorizer;
        let mut total = vec![0u64; vectorizer.terms().len()];
        let matrix = &counted.matrix;
        for (&j, &count) in matrix.indices().iter().zip(matrix.data()) {
            total[j as usize] += count as u64;
        }
        ShardCounts {
            terms: vectorizer.terms().clone(),
            df: vectorizer.df().to_vec(),
            total,
            documents: counted.labels.len() as u32,
            classes: counted.classes.clone(),
        }
    }

    /// Every term the worker saw, in byte order.
    pub fn terms(&self) -> &TermList {
        &self.terms
    }
}

/// Each of `terms`' position in `vocabulary` (both in byte order), `u32::MAX` where absent.
pub fn columns_in(terms: &TermList, vocabulary: &TermList) -> Vec<u32> {
    let column = |term: &str| {
        vocabulary
            .binary_search(term)
            .map_or(u32::MAX, |i| i as u32)
    };
    terms.iter().map(column).collect()
}

/// The vocabulary every worker receives: the fitted terms with their document frequencies over
/// every document, and the classes.
#[derive(Debug, Serialize, Deserialize)]
pub struct Vocabulary {
    terms: TermList,
    df: Vec<u32>,
    documents: u32,
    /// The class names, as one process reading the corpus names them.
    pub classes: Vec<String>,
}

impl Vocabulary {
    /// Adds up the workers' counts and fits `config` on them, as one process would on every
    /// document: document frequencies and totals are integer sums, so the vocabulary, its
    /// pruning and its idf are exactly one process's. `what` names the corpus in errors.
    pub fn fit(
        shards: &[ShardCounts],
        analysis: &AnalyzerConfig,
        config: &VectorizerConfig,
        what: &std::path::Path,
    ) -> Result<Self> {
        let (terms, df, total) = added_up(shards);
        let documents = shards.iter().map(|s| s.documents).sum();
        let mut classes: Vec<String> = shards.iter().flat_map(|s| s.classes.clone()).collect();
        classes.sort_unstable();
        classes.dedup();
        if classes.len() < 2 {
            return Err(Error::input(what, "training needs at least two classes"));
        }
        let part = fit_counts(analysis.clone(), &terms, &df, &total, config, documents)?;
        let vectorizer = part.vectorizer;
        Ok(Vocabulary {
            terms: vectorizer.terms().clone(),
            df: vectorizer.df().to_vec(),
            documents,
            classes,
        })
    }

    /// The fitted terms, in byte order: the columns.
    pub fn terms(&self) -> &TermList {
        &self.terms
    }

    /// The number of columns.
    pub fn features(&self) -> usize {
        self.terms.len()
    }

    /// The fitted vectorizer, with `analysis` and `config` as every process was given them.
    pub fn vectorizer(
        self,
        analysis: &AnalyzerConfig,
        config: &VectorizerConfig,
    ) -> Result<FittedVectorizer> {
        let (terms, df, documents) = (self.terms, self.df, self.documents);
        FittedVectorizer::from_parts(analysis.clone(), config.clone(), terms, df, documents)
    }
}

/// The union of the workers' terms in byte order, with their document frequencies and totals
/// added up.
fn added_up(shards: &[ShardCounts]) -> (TermList, Vec<u32>, Vec<u64>) {
    let mut all: Vec<(&str, u32, u64)> = shards
        .iter()
        .flat_map(|s| {
            let counts = s.df.iter().zip(&s.total);
            s.terms.iter().zip(counts).map(|(t, (&d, &n))| (t, d, n))
        })
        .collect();
    all.sort_unstable_by(|a, b| a.0.cmp(b.0));
    let (mut terms, mut df, mut total) = (Vec::<&str>::new(), Vec::new(), Vec::new());
    for (term, d, n) in all {
        if terms.last() == Some(&term) {
            let last = df.len() - 1;
            df[last] += d;
            total[last] += n;
        } else {
            terms.push(term);
            df.push(d);
            total.push(n);
        }
    }
    (terms.into_iter().collect(), df, total)
}
