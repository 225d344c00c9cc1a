//! A fitted vectorizer: the vocabulary with its document frequencies, analysis and weighting;
//! how it is saved; and the vocabulary file of `bowline vectorize`.

use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::config::unweighted;
use super::{
    Counted, HashedCounter, Hashing, LazyGrams, RowCounter, SparseRow, TermList, VectorizerConfig,
    Weighting,
};
use crate::analyze::{AnalyzerConfig, Terms};
use crate::error::{Error, Result};
use crate::packed::{self, sections, Table};

/// What is saved of a fitted vectorizer. Idf is stored only in model files of format 6 or
/// later, used in place; elsewhere it is computed again on load. A model file of an older
/// format lacks the fields added since (the model format's table of fields says which), and
/// they read as their defaults: not hashed, n-grams weighed like words.
#[derive(Debug, Clone, Deserialize)]
struct StoredVectorizer {
    analyzer: AnalyzerConfig,
    config: VectorizerConfig,
    n_docs: u32,
    terms: TermList,
    #[serde(with = "packed::seq")]
    df: Table<u32>,
    #[serde(default, deserialize_with = "packed::derived::option")]
    idf: Option<Table<f64>>,
    #[serde(default)]
    hashing: Option<Hashing>,
    #[serde(default = "unweighted")]
    ngram_weight: f64,
}

/// [`StoredVectorizer`] borrowed, to save a vectorizer without copying it.
#[derive(Serialize)]
struct StoredRef<'a> {
    analyzer: &'a AnalyzerConfig,
    config: &'a VectorizerConfig,
    n_docs: u32,
    terms: &'a TermList,
    #[serde(with = "packed::seq")]
    df: &'a Table<u32>,
    #[serde(skip_serializing_if = "left_out")]
    idf: Kept<&'a Table<f64>>,
    #[serde(skip_serializing_if = "left_out")]
    hashing: Kept<Option<Hashing>>,
    #[serde(skip_serializing_if = "left_out")]
    ngram_weight: Kept<f64>,
}

/// A field of [`StoredRef`] that a model file always holds and anything else only sometimes:
/// a vocabulary file (`vectorize --vocab`) never holds idf, and holds the hashing and the
/// n-gram weight only when they are not the default, so that it reads as before.
struct Kept<T> {
    value: T,
    kept: bool,
}

impl<T: Serialize> Serialize for Kept<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

fn left_out<T>(field: &Kept<T>) -> bool {
    !field.kept
}

/// A vocabulary with document frequencies and the analysis and weighting that produced it.
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "StoredVectorizer")]
pub struct FittedVectorizer {
    pub(super) analyzer: AnalyzerConfig,
    pub(super) config: VectorizerConfig,
    pub(super) n_docs: u32,
    pub(super) terms: TermList,
    pub(super) df: Table<u32>,
    pub(super) idf: Table<f64>,
    /// The terms as chains of word ids, for transforms with n-grams; derived.
    pub(super) grams: LazyGrams,
}

/// Two vectorizers are equal when their saved parts are; idf is derived.
impl PartialEq for FittedVectorizer {
    fn eq(&self, other: &Self) -> bool {
        self.analyzer == other.analyzer
            && self.config == other.config
            && self.n_docs == other.n_docs
            && self.terms == other.terms
            && self.df == other.df
    }
}

impl TryFrom<StoredVectorizer> for FittedVectorizer {
    type Error = String;

    fn try_from(stored: StoredVectorizer) -> Result<Self, String> {
        let mut s = stored;
        s.config.hashing = s.hashing;
        s.config.ngram_weight = s.ngram_weight;
        match s.idf {
            Some(idf) => {
                FittedVectorizer::in_file(s.analyzer, s.config, s.terms, s.df, idf, s.n_docs)
            }
            None => FittedVectorizer::from_parts(
                s.analyzer,
                s.config,
                s.terms,
                s.df.into_vec(),
                s.n_docs,
            ),
        }
        .map_err(|e| e.to_string())
    }
}

impl Serialize for FittedVectorizer {
    fn serialize<S: serde::Serializer>(&self, mut serializer: S) -> Result<S::Ok, S::Error> {
        let in_file = sections::writing(&mut serializer).is_some();
        let (hashing, ngram_weight) = (self.config.hashing, self.config.ngram_weight);
        StoredRef {
            analyzer: &self.analyzer,
            config: &self.config,
            n_docs: self.n_docs,
            terms: &self.terms,
            df: &self.df,
            idf: Kept {
                value: &self.idf,
                kept: in_file,
            },
            hashing: Kept {
                value: hashing,
                kept: in_file || hashing.is_some(),
            },
            ngram_weight: Kept {
                value: ngram_weight,
                kept: in_file || ngram_weight != unweighted(),
            },
        }
        .serialize(serializer)
    }
}

impl FittedVectorizer {
    /// Checks the parts for consistency and builds the lookup index and idf.
    pub(crate) fn from_parts(
        analyzer: AnalyzerConfig,
        config: VectorizerConfig,
        terms: TermList,
        df: Vec<u32>,
        n_docs: u32,
    ) -> Result<Self> {
        analyzer.validate()?;
        config.validate()?;
        let broken = |message: &str| Err(Error::Config(format!("vectorizer: {message}")));
        let features = features_of(&config, &terms);
        if features != df.len() || features > u32::MAX as usize {
            return broken("terms and document frequencies differ in number");
        }
        if !terms.is_sorted_and_unique() {
            return broken("terms are not sorted and unique");
        }
        // A hashed column no training document reached, or one pruned, has frequency 0.
        let least = u32::from(config.hashing.is_none());
        if df.iter().any(|&d| d < least || d > n_docs) {
            return broken("a document frequency is outside 1..=documents");
        }
        let mut idf: Vec<f64> = df
            .par_iter()
            .map(|&d| config.weighting.idf(d, n_docs))
            .collect();
        // Hashing, which weighs n-grams 1, keeps no terms to go by.
        if config.ngram_weight != 1.0 {
            for (value, term) in idf.iter_mut().zip(terms.iter()) {
                *value *= config.idf_factor(term);
            }
        }
        Ok(FittedVectorizer {
            analyzer,
            config,
            n_docs,
            terms,
            df: df.into(),
            idf: idf.into(),
            grams: LazyGrams::default(),
        })
    }

    /// A vectorizer from a model file of format 6, whose idf is stored. Only what indexing
    /// relies on is checked: sorting and the range of each document frequency would take a
    /// pass over every term, as much as the rest of loading; a damaged file's terms are found
    /// wrongly at worst, never outside the arrays.
    fn in_file(
        analyzer: AnalyzerConfig,
        config: VectorizerConfig,
        terms: TermList,
        df: Table<u32>,
        idf: Table<f64>,
        n_docs: u32,
    ) -> Result<Self> {
        analyzer.validate()?;
        config.validate()?;
        let features = features_of(&config, &terms);
        if features != df.len() || idf.len() != df.len() || features > u32::MAX as usize {
            let message = "terms, document frequencies and idf differ in number";
            return Err(Error::Config(format!("vectorizer: {message}")));
        }
        Ok(FittedVectorizer {
            analyzer,
            config,
            n_docs,
            terms,
            df,
            idf,
            grams: LazyGrams::default(),
        })
    }

    /// The analysis configuration documents must go through before `FittedVectorizer::transform`.
    pub fn analyzer(&self) -> &AnalyzerConfig {
        &self.analyzer
    }

    /// The pruning and weighting configuration.
    pub fn config(&self) -> &VectorizerConfig {
        &self.config
    }

    /// The terms, in column order; none when terms are hashed.
    pub fn terms(&self) -> &TermList {
        &self.terms
    }

    /// How terms are hashed to columns, when they are (`--hash-bits`).
    pub fn hashing(&self) -> Option<Hashing> {
        self.config.hashing
    }

    /// The number of columns: the terms, or 2^bits when terms are hashed.
    pub fn n_features(&self) -> usize {
        features_of(&self.config, &self.terms)
    }

    /// Document frequencies, in column order.
    pub(crate) fn df(&self) -> &[u32] {
        &self.df
    }

    /// Training documents the frequencies were counted on.
    pub(crate) fn n_docs(&self) -> u32 {
        self.n_docs
    }

    /// Idf factors, in column order.
    pub fn idf(&self) -> &[f64] {
        &self.idf
    }

    /// This vocabulary with another weighting, its idf computed again: for a corpus counted
    /// raw and weighed later.
    pub(crate) fn with_weighting(self, weighting: Weighting) -> Result<Self> {
        let config = VectorizerConfig {
            weighting,
            ..self.config
        };
        let df = self.df.into_vec();
        FittedVectorizer::from_parts(self.analyzer, config, self.terms, df, self.n_docs)
    }

    /// This vocabulary grown by `other`'s, as when a model learns from more documents: the union
    /// of the terms in byte order, document frequencies and document counts added. Analysis and
    /// weighting stay this vectorizer's. A term new to this vocabulary joins only if it meets
    /// `min_df` within `other`, so an update prunes its new terms as training did; the maximum
    /// bounds are not applied again. Returns the merged vectorizer and, for this one's and
    /// `other`'s columns, their columns in the merged one (`u32::MAX` for a term left out).
    pub fn extend(
        &self,
        other: &FittedVectorizer,
    ) -> Result<(FittedVectorizer, Vec<u32>, Vec<u32>)> {
        let min_df = self.config.min_df.min_count(other.n_docs);
        if self.hashing().is_some() {
            return self.extend_hashed(other, min_df);
        }
        let known = |term: &str| self.terms.binary_search(term).is_ok();
        let admitted = other
            .terms
            .iter()
            .zip(&other.df)
            .filter(|&(term, &df)| df >= min_df || known(term))
            .map(|(term, _)| term);
        let mut terms: Vec<&str> = self.terms.iter().chain(admitted).collect();
        terms.sort_unstable();
        terms.dedup();
        let column = |term: &str| terms.binary_search(&term).map_or(u32::MAX, |i| i as u32);
        let ours: Vec<u32> = self.terms.iter().map(column).collect();
        let theirs: Vec<u32> = other.terms.iter().map(column).collect();
        let mut df = vec![0u32; terms.len()];
        for (&new, &d) in ours
            .iter()
            .zip(&self.df)
            .chain(theirs.iter().zip(&other.df))
            .filter(|&(&new, _)| new != u32::MAX)
        {
            df[new as usize] += d;
        }
        let merged = FittedVectorizer::from_parts(
            self.analyzer.clone(),
            self.config.clone(),
            terms.into_iter().collect(),
            df,
            self.n_docs.saturating_add(other.n_docs),
        )?;
        Ok((merged, ours, theirs))
    }

    /// [`FittedVectorizer::extend`] for hashed terms: the columns stay where they are, and a
    /// column no document of this vectorizer reached joins if it meets `min_df` in `other`.
    fn extend_hashed(
        &self,
        other: &FittedVectorizer,
        min_df: u32,
    ) -> Result<(FittedVectorizer, Vec<u32>, Vec<u32>)> {
        if other.hashing().map(Hashing::bits) != self.hashing().map(Hashing::bits) {
            return Err(Error::Config(
                "the new documents are not hashed into the same columns as the model's".into(),
            ));
        }
        let admitted = |(&ours, &theirs): (&u32, &u32)| ours > 0 || theirs >= min_df;
        let pairs = || self.df.iter().zip(other.df.iter());
        let df = pairs()
            .map(|pair| if admitted(pair) { pair.0 + pair.1 } else { 0 })
            .collect();
        let ours = (0..self.df.len() as u32).collect();
        let theirs = pairs()
            .enumerate()
            .map(|(column, pair)| {
                if admitted(pair) {
                    column as u32
                } else {
                    u32::MAX
                }
            })
            .collect();
        let merged = FittedVectorizer::from_parts(
            self.analyzer.clone(),
            self.config.clone(),
            TermList::default(),
            df,
            self.n_docs.saturating_add(other.n_docs),
        )?;
        Ok((merged, ours, theirs))
    }

    /// The column of `term`, if it is in the vocabulary; for hashed terms, its column if a
    /// training document reached it and it was not pruned.
    pub(crate) fn column(&self, term: &str) -> Option<u32> {
        match self.config.hashing {
            Some(hashing) => {
                let (column, _) = hashing.place(term);
                (self.df[column as usize] > 0).then_some(column)
            }
            None => self.terms.find(term),
        }
    }

    /// Weighs a row of counts in place; `length` is the document's length in terms.
    pub(crate) fn weigh(&self, row: &mut SparseRow, length: u32) {
        self.config
            .weighting
            .weigh(&row.indices, &mut row.values, length, &self.idf);
    }

    /// Turns one analyzed document into a weighted row, reusing `counter`'s and `counted`'s
    /// buffers; terms not in the vocabulary are counted in `counted.oov`.
    pub(crate) fn transform_with(
        &self,
        counter: &mut RowCounter,
        terms: &Terms,
        counted: &mut Counted,
    ) {
        match self.config.hashing {
            Some(hashing) => self.count_hashed(hashing, terms, counted),
            None => counter.count(terms, |t| self.column(t), counted),
        }
        self.weigh(&mut counted.row, counted.length);
    }

    /// Counts hashed terms; a column no training document reached is out of vocabulary, as an
    /// unknown term is.
    pub(super) fn count_hashed(&self, hashing: Hashing, terms: &Terms, counted: &mut Counted) {
        let kept = |column: u32| self.df[column as usize] > 0;
        HASHED.with_borrow_mut(|counter| counter.count(hashing, terms, kept, counted));
    }

    /// Turns one analyzed document into a weighted row.
    #[cfg(test)]
    pub(crate) fn transform(&self, terms: &Terms) -> Counted {
        let mut counted = Counted::default();
        self.transform_with(&mut RowCounter::default(), terms, &mut counted);
        counted
    }
}

thread_local! {
    /// Each thread's scratch for counting hashed terms, so that counting a document allocates
    /// nothing once the thread has counted one as long.
    static HASHED: std::cell::RefCell<HashedCounter> = std::cell::RefCell::default();
}

/// The number of columns of a vectorizer of these parts.
fn features_of(config: &VectorizerConfig, terms: &TermList) -> usize {
    config.hashing.map_or(terms.len(), Hashing::columns)
}

/// The file `bowline vectorize --vocab` writes: the fitted vectorizer and the class names, whose
/// positions are the integer labels of the svmlight rows.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VocabularyFile {
    /// Class names; the label written for a document is its class's position here.
    pub labels: Vec<String>,
    /// The fitted vectorizer; svmlight column `j + 1` is `vectorizer.terms()[j]`, or for hashed
    /// terms the column `j` they hash to.
    pub vectorizer: FittedVectorizer,
}

impl VocabularyFile {
    /// Saves as JSON, atomically: a crash never leaves a half-written file in place.
    pub fn save(&self, path: &Path) -> Result<()> {
        crate::io::write_atomically(path, |out| {
            serde_json::to_writer(out, self).map_err(std::io::Error::other)
        })
    }

    /// Loads a file saved by [`VocabularyFile::save`].
    pub fn load(path: &Path) -> Result<Self> {
        let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        serde_json::from_reader(std::io::BufReader::new(file)).map_err(|e| Error::Format {
            path: path.to_path_buf(),
            message: format!("not a bowline vocabulary file: {e}"),
        })
    }
}
