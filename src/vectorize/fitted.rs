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
use crate::analyze::{AnalyzerConfig, Terms, Tokenizer, TOKENIZER_FORMAT};
use crate::error::{Error, Result};
use crate::packed::{self, sections, Table};

/// What is saved of a fitted vectorizer. Idf is stored only in model files of format 6 or
/// later, used in place; elsewhere it is computed again on load. A model file of an older
/// format lacks the fields added since (the model format's table of fields says which), and
/// they read as their defaults: not hashed, n-grams weighed like words, no list of hashed
/// columns. A hashed vectorizer without that list (a model file before format 10, a vocabulary
/// file) has a document frequency for each of the 2^bits columns.
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
    #[serde(default, deserialize_with = "packed::derived::option")]
    columns: Option<Table<u32>>,
}

/// [`StoredVectorizer`] borrowed, to save a vectorizer without copying it.
#[derive(Serialize)]
struct StoredRef<'a> {
    analyzer: &'a AnalyzerConfig,
    /// The analysis's tokenizer where the analysis leaves it out, being the default, but the
    /// format written holds it (see [`TOKENIZER_FORMAT`]). Postcard frames no struct, so these
    /// bytes end the analysis as the reader of that format reads it.
    #[serde(skip_serializing_if = "left_out")]
    tokenizer: Kept<Tokenizer>,
    config: &'a VectorizerConfig,
    n_docs: u32,
    terms: &'a TermList,
    df: DfRef<'a>,
    #[serde(skip_serializing_if = "left_out")]
    idf: Kept<&'a Table<f64>>,
    #[serde(skip_serializing_if = "left_out")]
    hashing: Kept<Option<Hashing>>,
    #[serde(skip_serializing_if = "left_out")]
    ngram_weight: Kept<f64>,
    #[serde(skip_serializing_if = "left_out")]
    columns: Kept<&'a Table<u32>>,
}

/// A field of [`StoredRef`] that a model file always holds and anything else only sometimes:
/// a vocabulary file (`vectorize --vocab`) never holds idf, and holds the hashing and the
/// n-gram weight only when they are not the default, so that it reads as before. The list of
/// hashed columns is held by a model file of a hashed vectorizer alone: a model without
/// hashing is written byte for byte as before that list existed.
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

/// The document frequencies as [`StoredRef`] writes them: the table, or for hashed terms
/// outside a model file one for each of the `space` columns, 0 where none is kept, produced as
/// they are written rather than held.
enum DfRef<'a> {
    Table(&'a Table<u32>),
    Dense {
        columns: &'a [u32],
        df: &'a [u32],
        space: usize,
    },
}

impl Serialize for DfRef<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            DfRef::Table(table) => packed::seq::serialize(&table, serializer),
            DfRef::Dense { columns, df, space } => {
                let mut kept = columns.iter().zip(df).peekable();
                let dense = (0..space as u32).map(|column| match kept.peek() {
                    Some(&(&c, &d)) if c == column => {
                        kept.next();
                        d
                    }
                    _ => 0,
                });
                serializer.collect_seq(dense)
            }
        }
    }
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
    /// For hashed terms, the hashed column of each column, ascending: the columns that some
    /// training document reached and pruning kept. Empty otherwise.
    pub(super) columns: Table<u32>,
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
            && self.columns == other.columns
    }
}

impl TryFrom<StoredVectorizer> for FittedVectorizer {
    type Error = String;

    fn try_from(stored: StoredVectorizer) -> Result<Self, String> {
        let mut s = stored;
        s.config.hashing = s.hashing;
        s.config.ngram_weight = s.ngram_weight;
        let keys = match (s.hashing, s.columns) {
            (None, _) => Keys::Terms(s.terms),
            (Some(_), Some(columns)) => Keys::Hashed(columns),
            // Before the list of columns, a hashed vectorizer had every column.
            (Some(hashing), None) => Keys::Hashed((0..hashing.columns() as u32).collect()),
        };
        match s.idf {
            Some(idf) => FittedVectorizer::in_file(s.analyzer, s.config, keys, s.df, idf, s.n_docs),
            None => {
                FittedVectorizer::from_keys(s.analyzer, s.config, keys, s.df.into_vec(), s.n_docs)
            }
        }
        .map_err(|e| e.to_string())
    }
}

impl Serialize for FittedVectorizer {
    fn serialize<S: serde::Serializer>(&self, mut serializer: S) -> Result<S::Ok, S::Error> {
        let writer =
            sections::writing(&mut serializer).map(|w| (w.writes_every_field(), w.version()));
        let every_field = writer.map(|(every_field, _)| every_field);
        let in_file = every_field.is_some();
        let tokenizer = self.analyzer.tokenizer;
        let tokenizer_held = writer.is_some_and(|(_, version)| version >= TOKENIZER_FORMAT);
        let (hashing, ngram_weight) = (self.config.hashing, self.config.ngram_weight);
        // Elsewhere than in a model file, a hashed vectorizer is written as it was before the
        // list of columns: a document frequency for every column.
        let df = match hashing {
            Some(hashing) if !in_file => DfRef::Dense {
                columns: &self.columns,
                df: &self.df,
                space: hashing.columns(),
            },
            _ => DfRef::Table(&self.df),
        };
        StoredRef {
            analyzer: &self.analyzer,
            tokenizer: Kept {
                value: tokenizer,
                kept: tokenizer_held && tokenizer.is_unicode(),
            },
            config: &self.config,
            n_docs: self.n_docs,
            terms: &self.terms,
            df,
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
            columns: Kept {
                value: &self.columns,
                kept: in_file && (hashing.is_some() || every_field == Some(true)),
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
        FittedVectorizer::from_keys(analyzer, config, Keys::Terms(terms), df, n_docs)
    }

    /// [`FittedVectorizer::from_parts`] for terms or hashed columns.
    pub(crate) fn from_keys(
        analyzer: AnalyzerConfig,
        config: VectorizerConfig,
        keys: Keys,
        df: Vec<u32>,
        n_docs: u32,
    ) -> Result<Self> {
        analyzer.validate()?;
        config.validate()?;
        let broken = |message: &str| Err(Error::Config(format!("vectorizer: {message}")));
        let (terms, columns) = keys.checked(&config)?;
        let features = features_of(&config, &terms, &columns);
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
            columns,
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
        keys: Keys,
        df: Table<u32>,
        idf: Table<f64>,
        n_docs: u32,
    ) -> Result<Self> {
        analyzer.validate()?;
        config.validate()?;
        let (terms, columns) = keys.checked(&config)?;
        let features = features_of(&config, &terms, &columns);
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
            columns,
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

    /// The number of columns: the terms, or for hashed terms the hashed columns kept (those
    /// that some training document reached and pruning kept).
    pub fn n_features(&self) -> usize {
        features_of(&self.config, &self.terms, &self.columns)
    }

    /// The number of features the model's smoothing counts: [`FittedVectorizer::n_features`],
    /// or 2^bits for hashed terms, every column a term could fall in, as when each had an array
    /// entry.
    pub fn space(&self) -> usize {
        self.config
            .hashing
            .map_or(self.n_features(), Hashing::columns)
    }

    /// For hashed terms, the hashed column of each column, ascending; empty otherwise.
    pub fn hashed_columns(&self) -> &[u32] {
        &self.columns
    }

    /// The number column `column` is known by outside: itself, or for hashed terms the hashed
    /// column it holds.
    pub fn outer_column(&self, column: u32) -> u32 {
        match self.config.hashing {
            Some(_) => self.columns[column as usize],
            None => column,
        }
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
        let keys = match config.hashing {
            Some(_) => Keys::Hashed(self.columns),
            None => Keys::Terms(self.terms),
        };
        FittedVectorizer::from_keys(self.analyzer, config, keys, df, self.n_docs)
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
        let merge = merge_terms(self, other, min_df);
        let merged = FittedVectorizer::from_parts(
            self.analyzer.clone(),
            self.config.clone(),
            merge.terms,
            merge.df,
            self.n_docs.saturating_add(other.n_docs),
        )?;
        Ok((merged, merge.ours, merge.theirs))
    }

    /// [`FittedVectorizer::extend`] for hashed terms: the union of the hashed columns, in
    /// ascending order, where a column of `other` that this vectorizer lacks joins if it meets
    /// `min_df` in `other`.
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
        let known = |column: u32| self.columns.binary_search(&column).is_ok();
        let admitted = (other.columns.iter().zip(other.df.iter()))
            .filter(|&(&column, &df)| df >= min_df || known(column))
            .map(|(&column, _)| column);
        let mut columns: Vec<u32> = self.columns.iter().copied().chain(admitted).collect();
        columns.sort_unstable();
        columns.dedup();
        let index = |&column: &u32| {
            columns
                .binary_search(&column)
                .map_or(u32::MAX, |i| i as u32)
        };
        let ours: Vec<u32> = self.columns.iter().map(index).collect();
        let theirs: Vec<u32> = other.columns.iter().map(index).collect();
        let mut df = vec![0u32; columns.len()];
        for (&new, &d) in (ours.iter().zip(self.df.iter()))
            .chain(theirs.iter().zip(other.df.iter()))
            .filter(|&(&new, _)| new != u32::MAX)
        {
            df[new as usize] += d;
        }
        let merged = FittedVectorizer::from_keys(
            self.analyzer.clone(),
            self.config.clone(),
            Keys::Hashed(columns.into()),
            df,
            self.n_docs.saturating_add(other.n_docs),
        )?;
        Ok((merged, ours, theirs))
    }

    /// The column of `term`, if it is in the vocabulary; for hashed terms, its column if a
    /// training document reached it and it was not pruned.
    pub(crate) fn column(&self, term: &str) -> Option<u32> {
        match self.config.hashing {
            Some(hashing) => self.kept_column(hashing.place(term).0),
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
        let kept = |column: u32| self.kept_column(column);
        HASHED.with_borrow_mut(|counter| counter.count(hashing, terms, kept, counted));
    }

    /// The column that holds hashed column `hashed`, if one does and a training document
    /// reached it (a model file before format 10 has every column, most never reached).
    fn kept_column(&self, hashed: u32) -> Option<u32> {
        let column = self.columns.binary_search(&hashed).ok()?;
        (self.df[column] > 0).then_some(column as u32)
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
fn features_of(config: &VectorizerConfig, terms: &TermList, columns: &[u32]) -> usize {
    match config.hashing {
        Some(_) => columns.len(),
        None => terms.len(),
    }
}

/// What a vectorizer's columns stand for: its terms, or for hashed terms the hashed columns
/// that some training document reached, ascending.
#[derive(Debug)]
pub(crate) enum Keys {
    /// Terms, in byte order.
    Terms(TermList),
    /// Hashed columns, ascending.
    Hashed(Table<u32>),
}

impl Keys {
    /// The number of terms or hashed columns.
    pub(crate) fn len(&self) -> usize {
        match self {
            Keys::Terms(terms) => terms.len(),
            Keys::Hashed(columns) => columns.len(),
        }
    }

    /// The terms and the hashed columns, one of them empty, checked against `config`: hashed
    /// columns ascend and lie below 2^bits.
    fn checked(self, config: &VectorizerConfig) -> Result<(TermList, Table<u32>)> {
        let broken = |message: &str| Err(Error::Config(format!("vectorizer: {message}")));
        match (self, config.hashing) {
            (Keys::Terms(terms), None) => Ok((terms, Table::default())),
            (Keys::Hashed(columns), Some(hashing)) => {
                let ascending = columns.windows(2).all(|pair| pair[0] < pair[1]);
                let within = columns
                    .last()
                    .is_none_or(|&c| (c as usize) < hashing.columns());
                if !(ascending && within) {
                    return broken("hashed columns are not ascending within 2^bits");
                }
                Ok((TermList::default(), columns))
            }
            _ => broken("hashed columns without hashing, or hashing without them"),
        }
    }
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

/// The union of two vocabularies' terms, with their document frequencies added, and each one's
/// columns in it (`u32::MAX` for a term of `theirs` left out: new to `ours` and under
/// `min_df`).
struct MergedTerms {
    terms: TermList,
    df: Vec<u32>,
    ours: Vec<u32>,
    theirs: Vec<u32>,
}

impl MergedTerms {
    fn push(&mut self, term: &str, df: u32) {
        self.terms.push(term);
        self.df.push(df);
    }
}

/// Merges the terms of `ours` and `theirs` for [`FittedVectorizer::extend`]. Every
/// vectorizer's terms are sorted and unique (checked when it is built), so the union is one
/// merging pass with no search and no sort, which a served model's learns pay once each.
fn merge_terms(ours: &FittedVectorizer, theirs: &FittedVectorizer, min_df: u32) -> MergedTerms {
    use std::cmp::Ordering;
    let capacity = ours.terms.len() + theirs.terms.len();
    // The text's room is taken at once: grown by doubling, a large vocabulary's was copied and
    // its new pages zeroed again and again, at every update of a served model.
    let bytes = ours.terms.text_len() + theirs.terms.text_len();
    let mut merged = MergedTerms {
        terms: TermList::with_capacity(capacity, bytes),
        df: Vec::with_capacity(capacity),
        ours: Vec::with_capacity(ours.terms.len()),
        theirs: Vec::with_capacity(theirs.terms.len()),
    };
    let mut a = ours.terms.iter().zip(ours.df.iter().copied()).peekable();
    let mut b = theirs
        .terms
        .iter()
        .zip(theirs.df.iter().copied())
        .peekable();
    loop {
        let order = match (a.peek(), b.peek()) {
            (Some((x, _)), Some((y, _))) => x.cmp(y),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => return merged,
        };
        let column = merged.terms.len() as u32;
        match order {
            Ordering::Less => {
                if let Some((term, df)) = a.next() {
                    merged.ours.push(column);
                    merged.push(term, df);
                }
            }
            Ordering::Equal => {
                if let (Some((term, df)), Some((_, more))) = (a.next(), b.next()) {
                    merged.ours.push(column);
                    merged.theirs.push(column);
                    merged.push(term, df + more);
                }
            }
            Ordering::Greater => match b.next() {
                Some((term, df)) if df >= min_df => {
                    merged.theirs.push(column);
                    merged.push(term, df);
                }
                _ => merged.theirs.push(u32::MAX),
            },
        }
    }
}
