//! A vocabulary that grows one document at a time, for learning from a stream: a term gets the
//! next id when first seen, and document frequencies and the idf follow every document. It turns
//! into a sorted [`FittedVectorizer`] whenever the model is saved. With hashed terms, it is the
//! hashed columns that get the next id when first reached, so that the arrays follow the columns
//! that occur rather than 2^bits.

use rustc_hash::FxHashMap;

use super::{
    ColumnIds, Counted, FittedVectorizer, HashedCounter, Keys, RowCounter, Tf, VectorizerConfig,
};
use crate::analyze::{AnalyzerConfig, Terms};
use crate::error::{Error, Result};

/// Counts below this have their tf factor tabulated: larger counts are rare in a document.
const TABLED_COUNTS: usize = 256;
/// Document frequencies up to this have their idf tabulated, so that a table costs at most
/// this many logarithms however many documents the vocabulary has seen.
const TABLED_DFS: u32 = 1 << 16;

/// A vocabulary's weighting factors at one moment: what [`GrowingVocabulary::weigh`] computes,
/// by count (`tf`) and by document frequency (`idf`), for the small ones.
pub(crate) struct WeighTable {
    tf: Vec<f64>,
    idf: Vec<f64>,
}

/// Terms in order of first appearance, with their document frequencies.
#[derive(Debug)]
pub(crate) struct GrowingVocabulary {
    analyzer: AnalyzerConfig,
    config: VectorizerConfig,
    ids: FxHashMap<Box<str>, u32>,
    terms: Vec<Box<str>>,
    df: Vec<u32>,
    n_docs: u32,
    counter: RowCounter,
    hashed: HashedCounter,
    /// For hashed terms, the id of each hashed column reached.
    columns: ColumnIds,
    /// The ids of the first `sorted.len()` terms in the order of their text, as the last
    /// [`build_fitted`](GrowingVocabulary::build_fitted) sorted them: the next sorts only the terms
    /// new since and merges them in, which a model saved after every few documents (a
    /// labelling session, `learn`'s checkpoints) would otherwise pay for in full each time.
    sorted: Vec<u32>,
}

impl GrowingVocabulary {
    /// An empty vocabulary; `config` is validated here.
    pub(crate) fn new(analyzer: AnalyzerConfig, config: VectorizerConfig) -> Result<Self> {
        config.validate()?;
        Ok(GrowingVocabulary {
            analyzer,
            config,
            ids: FxHashMap::default(),
            terms: Vec::new(),
            df: Vec::new(),
            n_docs: 0,
            counter: RowCounter::default(),
            hashed: HashedCounter::default(),
            columns: ColumnIds::default(),
            sorted: Vec::new(),
        })
    }

    /// Continues from a fitted vectorizer: its columns keep their ids.
    pub(crate) fn from_fitted(fitted: &FittedVectorizer) -> Result<Self> {
        let mut vocabulary = Self::new(fitted.analyzer.clone(), fitted.config.clone())?;
        // A hashed vectorizer has no terms: its columns take the ids they have there.
        vocabulary.columns = ColumnIds::from_columns(fitted.hashed_columns());
        for (id, term) in fitted.terms.iter().enumerate() {
            vocabulary.ids.insert(term.into(), id as u32);
            vocabulary.terms.push(term.into());
        }
        vocabulary.df = fitted.df.to_vec();
        vocabulary.n_docs = fitted.n_docs;
        Ok(vocabulary)
    }

    /// The analysis documents must go through before [`GrowingVocabulary::learn`].
    pub(crate) fn analyzer(&self) -> &AnalyzerConfig {
        &self.analyzer
    }

    /// Number of terms; for hashed terms, of the columns some document reached.
    pub(crate) fn len(&self) -> usize {
        match self.config.hashing {
            Some(_) => self.df.iter().filter(|&&d| d > 0).count(),
            None => self.terms.len(),
        }
    }

    /// Number of columns a learned row's ids lie below: the terms, or the hashed columns
    /// reached.
    pub(crate) fn columns(&self) -> usize {
        match self.config.hashing {
            Some(_) => self.columns.columns().len(),
            None => self.terms.len(),
        }
    }

    /// Weighs a document as the vocabulary stands, leaving it unchanged: terms not seen before
    /// are out of vocabulary, as when a saved model classifies.
    pub(crate) fn transform(&mut self, terms: &Terms, counted: &mut Counted) {
        match self.config.hashing {
            Some(hashing) => {
                let (df, ids) = (&self.df, &self.columns);
                let kept = |column| ids.get(column).filter(|&id| df[id as usize] > 0);
                self.hashed.count(hashing, terms, kept, counted);
            }
            None => {
                let ids = &self.ids;
                self.counter.count(terms, |t| ids.get(t).copied(), counted);
            }
        }
        self.weigh(counted);
    }

    /// The id of `term` when the vocabulary holds it unhashed; `None` for an unknown term and
    /// for a hashed vocabulary, whose columns are not kept per term.
    pub(crate) fn term_id(&self, term: &str) -> Option<u32> {
        match self.config.hashing {
            Some(_) => None,
            None => self.ids.get(term).copied(),
        }
    }

    /// Whether terms are hashed into columns.
    pub(crate) fn is_hashed(&self) -> bool {
        self.config.hashing.is_some()
    }

    /// Learns a document: new terms join, document frequencies and the document count grow,
    /// then the document is weighted with the updated idf.
    pub(crate) fn learn(&mut self, terms: &Terms, counted: &mut Counted) -> Result<()> {
        match self.config.hashing {
            Some(hashing) => {
                let ids = &mut self.columns;
                self.hashed
                    .count(hashing, terms, |column| Some(ids.id(column)), counted);
                self.df.resize(ids.columns().len(), 0);
            }
            None => self.intern(terms, counted),
        }
        for &id in &counted.row.indices {
            self.df[id as usize] += 1;
        }
        self.n_docs = self
            .n_docs
            .checked_add(1)
            .ok_or_else(|| Error::Config("more than 4 billion documents".into()))?;
        self.weigh(counted);
        Ok(())
    }

    /// Counts a document's terms, giving the new ones the next ids.
    fn intern(&mut self, terms: &Terms, counted: &mut Counted) {
        let (ids, words) = (&mut self.ids, &mut self.terms);
        self.counter.count(
            terms,
            |t| {
                let next = words.len() as u32;
                let id = *ids.entry(t.into()).or_insert(next);
                if id == next {
                    words.push(t.into());
                }
                Some(id)
            },
            counted,
        );
        self.df.resize(self.terms.len(), 0);
    }

    /// The weighting of the vocabulary as it stands, tabulated for [`weigh_tabled`]: the tf
    /// factor of each small count and the idf of each small document frequency.
    ///
    /// [`weigh_tabled`]: GrowingVocabulary::weigh_tabled
    pub(crate) fn weigh_table(&self) -> WeighTable {
        let (weighting, n) = (self.config.weighting, self.n_docs.max(1));
        let tf = match weighting.tf {
            // This factor depends on the document's length as well as the count.
            Tf::Frequency => Vec::new(),
            _ => (0..TABLED_COUNTS)
                .map(|c| weighting.tf(c as f64, 1))
                .collect(),
        };
        let idf = (0..=n.min(TABLED_DFS))
            .map(|df| weighting.idf(df.max(1), n))
            .collect();
        WeighTable { tf, idf }
    }

    /// Weighs a row as [`weigh`](GrowingVocabulary::weigh) does, to the bit, taking the
    /// factors it can from `table`, which must be this vocabulary's as it stands: scoring many
    /// documents between two labels then takes no logarithm per term.
    pub(crate) fn weigh_tabled(&self, counted: &mut Counted, table: &WeighTable) {
        let (weighting, n) = (self.config.weighting, self.n_docs.max(1));
        let doc_len = counted.length;
        let (indices, values) = (&counted.row.indices, &mut counted.row.values);
        let tf_of = |count: f64| {
            let tabled = (count.fract() == 0.0).then(|| table.tf.get(count as usize));
            match tabled.flatten() {
                Some(&tf) => tf,
                None => weighting.tf(count, doc_len),
            }
        };
        weighting.weigh_with(values, tf_of, |k| {
            let j = indices[k] as usize;
            let factor = self.terms.get(j).map_or(1.0, |t| self.config.idf_factor(t));
            let df = self.df[j].max(1);
            let idf = table.idf.get(df as usize).copied();
            idf.unwrap_or_else(|| weighting.idf(df, n)) * factor
        });
    }

    /// Brings `sorted` up to every term: the new ones sorted, then merged with the old.
    fn sort_terms(&mut self) {
        let terms = &self.terms;
        let by_text = |a: &u32, b: &u32| terms[*a as usize].cmp(&terms[*b as usize]);
        let mut new: Vec<u32> = (self.sorted.len() as u32..terms.len() as u32).collect();
        new.sort_unstable_by(by_text);
        let old = std::mem::take(&mut self.sorted);
        let mut merged = Vec::with_capacity(terms.len());
        let (mut i, mut k) = (0, 0);
        while i < old.len() && k < new.len() {
            if by_text(&new[k], &old[i]).is_lt() {
                merged.push(new[k]);
                k += 1;
            } else {
                merged.push(old[i]);
                i += 1;
            }
        }
        merged.extend_from_slice(&old[i..]);
        merged.extend_from_slice(&new[k..]);
        self.sorted = merged;
    }

    /// Weighs a row of counts in this vocabulary's ids (in increasing order), as
    /// [`transform`](GrowingVocabulary::transform) and [`learn`](GrowingVocabulary::learn)
    /// weigh the rows they count.
    pub(crate) fn weigh(&self, counted: &mut Counted) {
        let (weighting, n) = (self.config.weighting, self.n_docs.max(1));
        let (indices, values) = (&counted.row.indices, &mut counted.row.values);
        weighting.weigh_by(values, counted.length, |k| {
            let j = indices[k] as usize;
            let factor = self.terms.get(j).map_or(1.0, |t| self.config.idf_factor(t));
            weighting.idf(self.df[j].max(1), n) * factor
        });
    }

    /// The vocabulary as a fitted vectorizer (terms, or hashed columns, sorted), and each id's
    /// column in it.
    pub(crate) fn build_fitted(&mut self) -> Result<(FittedVectorizer, Vec<u32>)> {
        let (order, keys) = match self.config.hashing {
            Some(_) => {
                let hashed = self.columns.columns();
                let mut order: Vec<u32> = (0..self.columns() as u32).collect();
                order.sort_unstable_by_key(|&id| hashed[id as usize]);
                let keys = Keys::Hashed(order.iter().map(|&id| hashed[id as usize]).collect());
                (order, keys)
            }
            None => {
                self.sort_terms();
                let terms = &self.terms;
                let keys = Keys::Terms(self.sorted.iter().map(|&id| &terms[id as usize]).collect());
                (self.sorted.clone(), keys)
            }
        };
        let mut columns = vec![0u32; order.len()];
        for (column, &id) in order.iter().enumerate() {
            columns[id as usize] = column as u32;
        }
        let df = order.iter().map(|&id| self.df[id as usize]).collect();
        let fitted = FittedVectorizer::from_keys(
            self.analyzer.clone(),
            self.config.clone(),
            keys,
            df,
            self.n_docs,
        )?;
        Ok((fitted, columns))
    }
}
