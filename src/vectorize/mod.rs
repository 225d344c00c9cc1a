//! Vectorizing: analyzed documents → sparse CSR matrices.
//!
//! [`Fitter`] learns the vocabulary and document frequencies from a stream of training documents
//! and returns a [`FittedVectorizer`] with the training matrix. The fitted vectorizer turns new
//! documents into rows over the same columns; terms it has not seen are counted as
//! out-of-vocabulary and never added. It carries the [`AnalyzerConfig`], so it is saved and loaded
//! (serde) as one unit with the analysis that produced its features.
//!
//! Column ids are `u32` and follow the terms' byte order, so a vocabulary is identical whatever
//! the input order or thread count.

mod config;
mod corpus_fit;
mod counting;
mod gram_index;
mod growing;
mod interner;
mod subset;
pub mod svmlight;
mod term_list;
mod vocabulary;
pub mod weighting;

use std::ops::Range;
use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use config::{DfBound, VectorizerConfig};
pub use corpus_fit::{CountedCorpus, FittedCorpus};
pub(crate) use counting::DocumentCounter;
pub use counting::{Counted, RowCounter};
use gram_index::LazyGrams;
pub use growing::GrowingVocabulary;
pub use interner::Interner;
pub use subset::{
    count_part, count_rows, counting_config, fit_part, weigh_part, weigh_rows, FittedPart,
};
pub use term_list::TermList;
pub use weighting::{Idf, Norm, Tf, Weighting};

use crate::analyze::{AnalyzerConfig, Terms};
use crate::error::{Error, Result};

/// A CSR matrix with `u32` column ids: one row per document.
pub type Matrix = sprs::CsMatI<f64, u32, usize>;

/// One document's row: sorted column ids and their values.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SparseRow {
    /// Column ids, strictly increasing.
    pub indices: Vec<u32>,
    /// Values, one per column id.
    pub values: Vec<f64>,
}

/// Accumulates rows into CSR arrays.
#[derive(Debug)]
pub struct MatrixBuilder {
    indptr: Vec<usize>,
    indices: Vec<u32>,
    data: Vec<f64>,
}

impl Default for MatrixBuilder {
    fn default() -> Self {
        MatrixBuilder {
            indptr: vec![0],
            indices: Vec::new(),
            data: Vec::new(),
        }
    }
}

impl MatrixBuilder {
    /// Appends one row.
    pub fn push(&mut self, row: &SparseRow) {
        self.indices.extend_from_slice(&row.indices);
        self.data.extend_from_slice(&row.values);
        self.indptr.push(self.indices.len());
    }

    /// The matrix, with `columns` columns.
    pub fn finish(self, columns: usize) -> Result<Matrix> {
        let rows = self.indptr.len() - 1;
        Matrix::try_new((rows, columns), self.indptr, self.indices, self.data)
            .map_err(|(_, _, _, err)| Error::Config(format!("inconsistent sparse matrix: {err}")))
    }
}

/// The training documents' counts over provisional ids, collected in input order, with each
/// id's document frequency and total count.
///
/// Each document's row is kept as the counting worker built it instead of being copied into one
/// growing array: that array's growth (and the copies each doubling made) touched fresh memory
/// on the collecting thread, which on this project's virtual machine costs a page fault and the
/// kernel zeroing the page. Keeping the rows made `vectorize` on 20 Newsgroups 0.365 s instead of
/// 0.395 and multinomial NB training 0.280 s instead of 0.305 (medians of alternating runs).
#[derive(Debug, Default)]
pub struct CountRows {
    rows: Vec<SparseRow>,
    lengths: Vec<u32>,
    df: Vec<u32>,
    total: Vec<u64>,
}

impl CountRows {
    /// Appends one document's counts.
    pub fn push(&mut self, counted: Counted) {
        let row = counted.row;
        if let Some(&max) = row.indices.last() {
            if max as usize >= self.df.len() {
                self.df.resize(max as usize + 1, 0);
                self.total.resize(max as usize + 1, 0);
            }
        }
        for (&id, &count) in row.indices.iter().zip(&row.values) {
            self.df[id as usize] += 1;
            self.total[id as usize] += count as u64;
        }
        self.rows.push(row);
        self.lengths.push(counted.length);
    }

    /// Documents so far.
    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    /// True before the first document.
    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }
}

/// Learns a vocabulary from training documents.
///
/// Documents can be added one at a time with [`Fitter::add`], or counted in parallel: the pipeline
/// stage from [`crate::flow::fit_stage`] on [`Fitter::parts`]'s interner, and the results pushed in input order
/// on [`Fitter::parts`]'s rows.
#[derive(Debug)]
pub struct Fitter {
    config: VectorizerConfig,
    interner: Interner,
    rows: CountRows,
    counter: RowCounter,
}

impl Fitter {
    /// A fitter; `config` is validated here.
    pub fn new(config: VectorizerConfig) -> Result<Self> {
        config.validate()?;
        Ok(Fitter {
            config,
            interner: Interner::default(),
            rows: CountRows::default(),
            counter: RowCounter::default(),
        })
    }

    /// Adds one training document.
    pub fn add(&mut self, terms: &Terms) {
        let mut counted = Counted::default();
        let interner = &self.interner;
        self.counter
            .count(terms, |t| Some(interner.id(t)), &mut counted);
        self.rows.push(counted);
    }

    /// The shared interner for counting stages, and the rows to push their results on.
    pub fn parts(&mut self) -> (&Interner, &mut CountRows) {
        (&self.interner, &mut self.rows)
    }

    /// Documents added so far.
    pub fn documents(&self) -> usize {
        self.rows.len()
    }

    /// Prunes the vocabulary and builds the weighted training matrix.
    pub fn finish(self, analyzer: AnalyzerConfig) -> Result<(FittedVectorizer, Matrix)> {
        let (vectorizer, rows) = self.finish_rows(analyzer)?;
        let matrix = rows.weighed_by(&vectorizer).to_matrix()?;
        Ok((vectorizer, matrix))
    }

    /// Prunes the vocabulary and returns it with the training rows, still counts over
    /// provisional ids: for a caller that visits the weighted rows once, as `vectorize` writes
    /// them, without building the matrix.
    pub fn finish_rows(self, analyzer: AnalyzerConfig) -> Result<(FittedVectorizer, TrainingRows)> {
        let CountRows {
            rows,
            lengths,
            df,
            total,
        } = self.rows;
        let n_docs = u32::try_from(lengths.len())
            .map_err(|_| Error::Config("more than 4 billion documents".into()))?;
        let wanted = vocabulary::within_df_bounds(&df, &self.config, n_docs);
        let terms = self.interner.into_terms(|id| wanted(&id));
        let (terms, df, remap) = vocabulary::prune(&terms, &df, &total, &self.config, n_docs);
        let vectorizer = FittedVectorizer::new(analyzer, self.config, terms, df, n_docs)?;
        let rows = TrainingRows {
            rows,
            lengths,
            remap,
        };
        Ok((vectorizer, rows))
    }
}

/// The training documents' counts over provisional ids, with the map from those ids to the
/// fitted vocabulary's columns.
#[derive(Debug)]
pub struct TrainingRows {
    rows: Vec<SparseRow>,
    lengths: Vec<u32>,
    remap: Vec<u32>,
}

impl TrainingRows {
    /// The rows over the fitted columns, weighed by `vectorizer` as they are visited.
    pub fn weighed_by<'a>(&'a self, vectorizer: &'a FittedVectorizer) -> WeighedRows<'a> {
        WeighedRows {
            rows: self,
            vectorizer,
        }
    }
}

/// Training rows renumbered and weighed on demand; see [`TrainingRows::weighed_by`].
pub struct WeighedRows<'a> {
    rows: &'a TrainingRows,
    vectorizer: &'a FittedVectorizer,
}

impl WeighedRows<'_> {
    /// The weighted training matrix, built in parallel.
    pub fn to_matrix(&self) -> Result<Matrix> {
        let TrainingRows {
            rows,
            lengths,
            remap,
        } = self.rows;
        fill_renumbered(
            rows.len(),
            self.vectorizer.terms.len(),
            remap,
            |i| (&rows[i].indices, &rows[i].values),
            |i, row| self.vectorizer.weigh(row, lengths[i]),
        )
    }
}

impl RowSource for WeighedRows<'_> {
    fn rows(&self) -> usize {
        self.rows.rows.len()
    }

    fn entries(&self, range: Range<usize>) -> usize {
        self.rows.rows[range].iter().map(|r| r.indices.len()).sum()
    }

    fn visit(&self, range: Range<usize>, mut each: impl FnMut(usize, &[u32], &[f64])) {
        let TrainingRows {
            rows,
            lengths,
            remap,
        } = self.rows;
        let row = |i: usize| (&rows[i].indices[..], &rows[i].values[..]);
        let weigh = |i: usize, row: &mut SparseRow| self.vectorizer.weigh(row, lengths[i]);
        for_each_renumbered(range, remap, row, weigh, |i, row| {
            each(i, &row.indices, &row.values);
        });
    }
}

/// Rows that several threads can visit a range at a time: a matrix, or training counts weighed
/// as they are visited ([`WeighedRows`]).
pub trait RowSource: Sync {
    /// Number of rows.
    fn rows(&self) -> usize;

    /// At least the number of entries in rows `range`, to size a buffer for them.
    fn entries(&self, range: Range<usize>) -> usize;

    /// Calls `each` with the index, columns and values of every row in `range`, in order.
    fn visit(&self, range: Range<usize>, each: impl FnMut(usize, &[u32], &[f64]));
}

impl RowSource for Matrix {
    fn rows(&self) -> usize {
        Matrix::rows(self)
    }

    fn entries(&self, range: Range<usize>) -> usize {
        self.indptr().outer_inds_slice(range.start, range.end).len()
    }

    fn visit(&self, range: Range<usize>, mut each: impl FnMut(usize, &[u32], &[f64])) {
        for i in range {
            let (indices, values) = matrix_row(self, i);
            each(i, indices, values);
        }
    }
}

/// The entries of consecutive rows, written into a matrix's arrays sized in advance.
pub struct RowSlots<'a> {
    indices: &'a mut [u32],
    data: &'a mut [f64],
}

impl RowSlots<'_> {
    /// Writes the next row, which must have the length announced for it.
    pub fn push(&mut self, row: &SparseRow) {
        let n = row.indices.len();
        let (head, tail) = std::mem::take(&mut self.indices).split_at_mut(n);
        head.copy_from_slice(&row.indices);
        self.indices = tail;
        let (head, tail) = std::mem::take(&mut self.data).split_at_mut(n);
        head.copy_from_slice(&row.values);
        self.data = tail;
    }
}

/// Builds a matrix of `rows` rows and `columns` columns in parallel, straight into its final
/// arrays: `length(i)` says how many entries row `i` will have, then `fill` writes each chunk of
/// rows ([`row_chunks`]) in order. Building a matrix per chunk and joining them copied every
/// entry once more into fresh memory, and on this project's virtual machine a fresh page costs a
/// fault and the kernel zeroing it: the chunks' growth and the join were a third of the page
/// clearing in a profile of `vectorize`; without them `vectorize` took 1.5% less CPU and
/// multinomial NB training 3.5% (medians of 20 alternating runs), and the SVM solver's renumbered
/// copy is now written in parallel (its training 9% faster).
pub fn fill_rows(
    rows: usize,
    columns: usize,
    length: impl Fn(usize) -> usize + Sync,
    fill: impl Fn(std::ops::Range<usize>, &mut RowSlots) + Sync,
) -> Result<Matrix> {
    let lengths: Vec<usize> = (0..rows).into_par_iter().map(&length).collect();
    let mut indptr = Vec::with_capacity(rows + 1);
    indptr.push(0);
    for n in lengths {
        indptr.push(indptr[indptr.len() - 1] + n);
    }
    let nnz = indptr[rows];
    let (mut indices, mut data) = (vec![0u32; nnz], vec![0.0f64; nnz]);
    let mut work = Vec::new();
    let (mut rest_indices, mut rest_data) = (&mut indices[..], &mut data[..]);
    for range in row_chunks(rows) {
        let n = indptr[range.end] - indptr[range.start];
        let (chunk_indices, tail_indices) = rest_indices.split_at_mut(n);
        let (chunk_data, tail_data) = rest_data.split_at_mut(n);
        (rest_indices, rest_data) = (tail_indices, tail_data);
        let slots = RowSlots {
            indices: chunk_indices,
            data: chunk_data,
        };
        work.push((range, slots));
    }
    work.into_par_iter()
        .for_each(|(range, mut slots)| fill(range, &mut slots));
    MatrixBuilder {
        indptr,
        indices,
        data,
    }
    .finish(columns)
}

/// Builds, in parallel, the matrix whose row `i` is `row(i)` with its columns mapped through
/// `remap` and the dropped ones left out ([`renumber`]), then handed to `finish(i, row)`, which
/// may change its values (to weigh them, say) but not its columns.
pub fn fill_renumbered<'a>(
    rows: usize,
    columns: usize,
    remap: &[u32],
    row: impl Fn(usize) -> (&'a [u32], &'a [f64]) + Sync,
    finish: impl Fn(usize, &mut SparseRow) + Sync,
) -> Result<Matrix> {
    let kept = |i: usize| kept_columns(row(i).0, remap);
    fill_rows(rows, columns, kept, |range, out| {
        for_each_renumbered(range, remap, &row, &finish, |_, renumbered| {
            out.push(renumbered);
        });
    })
}

/// Calls `each(i, row)` for every `i` in `range`, in order, with `row(i)` renumbered through
/// `remap` ([`renumber`]) and then handed to `finish(i, row)`; the one loop behind
/// [`fill_renumbered`], [`WeighedRows`] and the SVM solver's copy of its rows.
pub(crate) fn for_each_renumbered<'a>(
    range: Range<usize>,
    remap: &[u32],
    row: impl Fn(usize) -> (&'a [u32], &'a [f64]),
    finish: impl Fn(usize, &mut SparseRow),
    mut each: impl FnMut(usize, &SparseRow),
) {
    let (mut renumbered, mut keys) = (SparseRow::default(), Vec::new());
    for i in range {
        let (indices, values) = row(i);
        renumber(indices, values, remap, &mut keys, &mut renumbered);
        finish(i, &mut renumbered);
        each(i, &renumbered);
    }
}

/// Rows per unit of parallel work: large enough to amortize scheduling, small enough to balance.
const ROW_CHUNK: usize = 512;

/// `0..rows` cut into chunks of [`ROW_CHUNK`].
pub(crate) fn row_chunks(rows: usize) -> Vec<std::ops::Range<usize>> {
    (0..rows)
        .step_by(ROW_CHUNK)
        .map(|start| start..(start + ROW_CHUNK).min(rows))
        .collect()
}

/// Row `i` of `x` as column ids and values.
pub fn matrix_row(x: &Matrix, i: usize) -> (&[u32], &[f64]) {
    let span = x.indptr().outer_inds_sz(i);
    (&x.indices()[span.clone()], &x.data()[span])
}

/// How many of a row's columns `ids` [`renumber`] keeps through `remap`.
fn kept_columns(ids: &[u32], remap: &[u32]) -> usize {
    ids.iter()
        .filter(|&&id| remap[id as usize] != u32::MAX)
        .count()
}

/// Maps a row's columns through `remap` (old column → new, `u32::MAX` for a dropped one),
/// dropping those and sorting by new column; `keys` is scratch space reused between rows.
///
/// Each kept entry is sorted as one `u64`, its new column above its position in the row, and its
/// value fetched by that position afterwards: on rows shaped like 20 Newsgroups' (11,314 rows of
/// up to 228 random columns out of 123,000), renumbering took 13 ms on one thread instead of 23
/// when (column, value) pairs were sorted by column.
pub fn renumber(
    ids: &[u32],
    counts: &[f64],
    remap: &[u32],
    keys: &mut Vec<u64>,
    row: &mut SparseRow,
) {
    keys.clear();
    keys.extend(
        ids.iter()
            .enumerate()
            .map(|(at, &id)| (remap[id as usize], at))
            .filter(|&(id, _)| id != u32::MAX)
            .map(|(id, at)| u64::from(id) << 32 | at as u64),
    );
    keys.sort_unstable();
    row.indices.clear();
    row.values.clear();
    for &key in keys.iter() {
        row.indices.push((key >> 32) as u32);
        row.values.push(counts[key as u32 as usize]);
    }
}

/// What is saved of a fitted vectorizer; the lookup index and idf are rebuilt on load.
#[derive(Debug, Clone, Deserialize)]
struct StoredVectorizer {
    analyzer: AnalyzerConfig,
    config: VectorizerConfig,
    n_docs: u32,
    terms: TermList,
    df: Vec<u32>,
}

/// [`StoredVectorizer`] borrowed, to save a vectorizer without copying it.
#[derive(Serialize)]
struct StoredRef<'a> {
    analyzer: &'a AnalyzerConfig,
    config: &'a VectorizerConfig,
    n_docs: u32,
    terms: &'a TermList,
    df: &'a [u32],
}

/// A vocabulary with document frequencies and the analysis and weighting that produced it.
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "StoredVectorizer")]
pub struct FittedVectorizer {
    analyzer: AnalyzerConfig,
    config: VectorizerConfig,
    n_docs: u32,
    terms: TermList,
    df: Vec<u32>,
    idf: Vec<f64>,
    /// The terms as chains of word ids, for transforms with n-grams; derived.
    grams: LazyGrams,
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
        let s = stored;
        FittedVectorizer::new(s.analyzer, s.config, s.terms, s.df, s.n_docs)
            .map_err(|e| e.to_string())
    }
}

impl Serialize for FittedVectorizer {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        StoredRef {
            analyzer: &self.analyzer,
            config: &self.config,
            n_docs: self.n_docs,
            terms: &self.terms,
            df: &self.df,
        }
        .serialize(serializer)
    }
}

impl FittedVectorizer {
    /// Checks the parts for consistency and builds the lookup index and idf.
    fn new(
        analyzer: AnalyzerConfig,
        config: VectorizerConfig,
        terms: TermList,
        df: Vec<u32>,
        n_docs: u32,
    ) -> Result<Self> {
        analyzer.validate()?;
        config.validate()?;
        let broken = |message: &str| Err(Error::Config(format!("vectorizer: {message}")));
        if terms.len() != df.len() || terms.len() > u32::MAX as usize {
            return broken("terms and document frequencies differ in number");
        }
        if !terms.is_sorted_and_unique() {
            return broken("terms are not sorted and unique");
        }
        if df.iter().any(|&d| d == 0 || d > n_docs) {
            return broken("a document frequency is outside 1..=documents");
        }
        let idf = df
            .par_iter()
            .map(|&d| config.weighting.idf(d, n_docs))
            .collect();
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

    /// The analysis configuration documents must go through before [`FittedVectorizer::transform`].
    pub fn analyzer(&self) -> &AnalyzerConfig {
        &self.analyzer
    }

    /// The pruning and weighting configuration.
    pub fn config(&self) -> &VectorizerConfig {
        &self.config
    }

    /// The terms, in column order.
    pub fn terms(&self) -> &TermList {
        &self.terms
    }

    /// Document frequencies, in column order.
    pub fn df(&self) -> &[u32] {
        &self.df
    }

    /// Training documents the frequencies were counted on.
    pub fn n_docs(&self) -> u32 {
        self.n_docs
    }

    /// Idf factors, in column order.
    pub fn idf(&self) -> &[f64] {
        &self.idf
    }

    /// This vocabulary with another weighting, its idf computed again: for a corpus counted
    /// raw and weighed later.
    pub fn with_weighting(self, weighting: Weighting) -> Result<Self> {
        let config = VectorizerConfig {
            weighting,
            ..self.config
        };
        FittedVectorizer::new(self.analyzer, config, self.terms, self.df, self.n_docs)
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
        let merged = FittedVectorizer::new(
            self.analyzer.clone(),
            self.config.clone(),
            terms.into_iter().collect(),
            df,
            self.n_docs.saturating_add(other.n_docs),
        )?;
        Ok((merged, ours, theirs))
    }

    /// The column of `term`, if it is in the vocabulary.
    pub fn column(&self, term: &str) -> Option<u32> {
        self.terms.find(term)
    }

    /// Weighs a row of counts in place; `length` is the document's length in terms.
    pub fn weigh(&self, row: &mut SparseRow, length: u32) {
        self.config
            .weighting
            .weigh(&row.indices, &mut row.values, length, &self.idf);
    }

    /// Turns one analyzed document into a weighted row, reusing `counter`'s and `counted`'s
    /// buffers; terms not in the vocabulary are counted in `counted.oov`.
    pub fn transform_with(&self, counter: &mut RowCounter, terms: &Terms, counted: &mut Counted) {
        counter.count(terms, |t| self.column(t), counted);
        self.weigh(&mut counted.row, counted.length);
    }

    /// Turns one analyzed document into a weighted row.
    pub fn transform(&self, terms: &Terms) -> Counted {
        let mut counted = Counted::default();
        self.transform_with(&mut RowCounter::default(), terms, &mut counted);
        counted
    }
}

/// The file `bowline vectorize --vocab` writes: the fitted vectorizer and the class names, whose
/// positions are the integer labels of the svmlight rows.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VocabularyFile {
    /// Class names; the label written for a document is its class's position here.
    pub labels: Vec<String>,
    /// The fitted vectorizer; svmlight column `j + 1` is `vectorizer.terms()[j]`.
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

#[cfg(test)]
mod tests;
