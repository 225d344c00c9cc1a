//! Learning a vocabulary from training documents: their counts over provisional ids, then the
//! pruned vocabulary and the training rows.

use std::ops::Range;

use super::{
    fill_renumbered, for_each_renumbered, vocabulary, ColumnIds, Counted, DfBound,
    FittedVectorizer, HashedCounter, Hashing, Interner, Keys, Matrix, RowCounter, RowSource,
    SparseRow, VectorizerConfig,
};
use crate::analyze::{AnalyzerConfig, Terms};
use crate::error::{Error, Result};

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
    pub(super) rows: Vec<SparseRow>,
    pub(super) lengths: Vec<u32>,
    pub(super) df: Vec<u32>,
    pub(super) total: Vec<u64>,
    /// For hashed terms, the provisional id of each hashed column: a row counted over hashed
    /// columns is kept over these ids, so that the frequencies grow with the columns that occur.
    pub(super) hashed: Option<ColumnIds>,
}

impl CountRows {
    /// Rows counted over hashed columns, which [`CountRows::push`] turns into provisional ids.
    fn hashed() -> Self {
        CountRows {
            hashed: Some(ColumnIds::default()),
            ..CountRows::default()
        }
    }

    /// Appends one document's counts.
    pub fn push(&mut self, mut counted: Counted) {
        if let Some(ids) = &mut self.hashed {
            for index in &mut counted.row.indices {
                *index = ids.id(*index);
            }
        }
        self.add(&counted.row.indices, &counted.row.values);
        self.lengths.push(counted.length);
        self.rows.push(counted.row);
    }

    /// Adds one document to the document frequencies and totals without keeping its row: a
    /// first pass over a corpus whose rows are not to be held (see
    /// `crate::flow::survey_corpus`).
    pub fn count(&mut self, counted: &Counted) {
        let row = &counted.row;
        match &mut self.hashed {
            Some(ids) => {
                let own: Vec<u32> = row.indices.iter().map(|&c| ids.id(c)).collect();
                self.add(&own, &row.values);
            }
            None => self.add(&row.indices, &row.values),
        }
        self.lengths.push(counted.length);
    }

    /// Adds a row over provisional ids, in any order, to the frequencies and totals.
    fn add(&mut self, ids: &[u32], values: &[f64]) {
        if let Some(&max) = ids.iter().max() {
            if max as usize >= self.df.len() {
                self.df.resize(max as usize + 1, 0);
                self.total.resize(max as usize + 1, 0);
            }
        }
        for (&id, &count) in ids.iter().zip(values) {
            self.df[id as usize] += 1;
            self.total[id as usize] += count as u64;
        }
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
/// stages of [`crate::flow::fit_stages`] on [`Fitter::parts`]'s interner, and the results pushed
/// in input order on [`Fitter::parts`]'s rows.
#[derive(Debug)]
pub struct Fitter {
    pub(super) config: VectorizerConfig,
    pub(super) interner: Interner,
    pub(super) rows: CountRows,
    pub(super) counter: RowCounter,
}

impl Fitter {
    /// A fitter; `config` is validated here.
    pub fn new(config: VectorizerConfig) -> Result<Self> {
        config.validate()?;
        let rows = match config.hashing {
            Some(_) => CountRows::hashed(),
            None => CountRows::default(),
        };
        Ok(Fitter {
            config,
            interner: Interner::default(),
            rows,
            counter: RowCounter::default(),
        })
    }

    /// Adds one training document.
    pub fn add(&mut self, terms: &Terms) {
        let mut counted = Counted::default();
        match self.config.hashing {
            Some(hashing) => {
                HashedCounter::default().count(hashing, terms, Some, &mut counted);
            }
            None => {
                let interner = &self.interner;
                self.counter
                    .count(terms, |t| Some(interner.id(t)), &mut counted);
            }
        }
        self.rows.push(counted);
    }

    /// How terms are hashed, when they are: then counting stages hash each term to its column
    /// instead of going through [`Fitter::parts`]'s interner.
    pub fn hashing(&self) -> Option<Hashing> {
        self.config.hashing
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
            hashed,
        } = self.rows;
        let n_docs = u32::try_from(lengths.len())
            .map_err(|_| Error::Config("more than 4 billion documents".into()))?;
        let seen = df.iter().filter(|&&d| d > 0).count();
        let (keys, df, remap) = match &hashed {
            Some(ids) => {
                let (columns, df, remap) =
                    vocabulary::prune_hashed(ids.columns(), &df, &self.config, n_docs);
                (Keys::Hashed(columns.into()), df, remap)
            }
            None => {
                let spelling = self.interner.into_spelling();
                let (terms, df, remap) =
                    vocabulary::prune(&spelling, &df, &total, &self.config, n_docs);
                (Keys::Terms(terms), df, remap)
            }
        };
        let kept = df.iter().filter(|&&d| d > 0).count();
        if kept == 0 && seen > 0 {
            let bound = |b: DfBound| match b {
                DfBound::Count(n) => n.to_string(),
                DfBound::Fraction(f) => f.to_string(),
            };
            return Err(Error::Config(format!(
                "--min-df {} and --max-df {} leave none of the {seen} terms of {n_docs} \
                 documents",
                bound(self.config.min_df),
                bound(self.config.max_df)
            )));
        }
        let vectorizer = FittedVectorizer::from_keys(analyzer, self.config, keys, df, n_docs)?;
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
    pub(super) rows: Vec<SparseRow>,
    pub(super) lengths: Vec<u32>,
    pub(super) remap: Vec<u32>,
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

/// Training rows renumbered and weighed on demand; see [`TrainingRows::weighed_by`]. As a
/// [`RowSource`] they are visited over the columns the vectorizer is known by outside (see
/// [`FittedVectorizer::outer_column`]): hashed columns for hashed terms.
pub struct WeighedRows<'a> {
    pub(super) rows: &'a TrainingRows,
    pub(super) vectorizer: &'a FittedVectorizer,
}

impl WeighedRows<'_> {
    /// The weighted training matrix, built in parallel.
    pub(crate) fn to_matrix(&self) -> Result<Matrix> {
        let TrainingRows {
            rows,
            lengths,
            remap,
        } = self.rows;
        fill_renumbered(
            rows.len(),
            self.vectorizer.n_features(),
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
        // A hashed row is written over the hashed columns, which keep the columns' order.
        let hashed = self.vectorizer.hashed_columns();
        let mut outer = Vec::new();
        for_each_renumbered(range, remap, row, weigh, |i, row| {
            if hashed.is_empty() {
                return each(i, &row.indices, &row.values);
            }
            outer.clear();
            outer.extend(row.indices.iter().map(|&j| hashed[j as usize]));
            each(i, &outer, &row.values);
        });
    }
}
