//! Fitting on part of a corpus: cross-validation folds and train/dev splits must learn their
//! vocabulary, pruning and idf from their training rows alone, or the held-out rows leak into
//! the model. The corpus is analyzed and counted once over every term ([`counting_config`]);
//! each part is then fitted and weighed from those counts.

use super::{
    fill_renumbered, matrix_row, vocabulary, FittedCorpus, FittedVectorizer, Idf, Keys, Matrix,
    Norm, SparseRow, TermList, Tf, VectorizerConfig, Weighting,
};
use crate::analyze::AnalyzerConfig;
use crate::error::Result;

/// Raw counts over every term: how a corpus is read before its parts are fitted.
pub(crate) fn counting_config() -> VectorizerConfig {
    VectorizerConfig {
        weighting: Weighting {
            tf: Tf::Count,
            idf: Idf::None,
            norm: Norm::None,
        },
        ..VectorizerConfig::default()
    }
}

/// A vectorizer fitted on some rows of a counted corpus.
#[derive(Debug)]
pub(crate) struct FittedPart {
    /// Vocabulary, document frequencies and idf of the rows it was fitted on.
    pub vectorizer: FittedVectorizer,
    /// For each column of the counted corpus, its column here (`u32::MAX` when pruned).
    pub remap: Vec<u32>,
}

/// Fits `config` on rows `rows` of `counted` (a corpus read with [`counting_config`]).
pub(crate) fn fit_part(
    counted: &FittedCorpus,
    rows: &[usize],
    config: &VectorizerConfig,
) -> Result<FittedPart> {
    let columns = counted.vectorizer.n_features();
    let (mut df, mut total) = (vec![0u32; columns], vec![0u64; columns]);
    for &i in rows {
        let (indices, counts) = matrix_row(&counted.matrix, i);
        for (&j, &count) in indices.iter().zip(counts) {
            df[j as usize] += 1;
            total[j as usize] += count.abs() as u64;
        }
    }
    let n_docs = rows.len() as u32;
    let analyzer = counted.vectorizer.analyzer().clone();
    if config.hashing.is_some() {
        let columns = counted.vectorizer.hashed_columns();
        let (columns, df, remap) = vocabulary::prune_hashed(columns, &df, config, n_docs);
        let keys = Keys::Hashed(columns.into());
        let vectorizer = FittedVectorizer::from_keys(analyzer, config.clone(), keys, df, n_docs)?;
        return Ok(FittedPart { vectorizer, remap });
    }
    let terms = counted.vectorizer.terms();
    fit_counts(analyzer, terms, &df, &total, config, n_docs)
}

/// Fits `config` on `terms` (in byte order) with their document frequencies and total counts
/// over `n_docs` documents, as a fit on those documents would: for counts added up elsewhere,
/// as a cluster's workers add theirs. Terms are not hashed.
pub(crate) fn fit_counts(
    analyzer: AnalyzerConfig,
    terms: &TermList,
    df: &[u32],
    total: &[u64],
    config: &VectorizerConfig,
    n_docs: u32,
) -> Result<FittedPart> {
    let (terms, df, remap) = vocabulary::prune(terms, df, total, config, n_docs);
    let vectorizer = FittedVectorizer::from_parts(analyzer, config.clone(), terms, df, n_docs)?;
    Ok(FittedPart { vectorizer, remap })
}

/// Rows `rows` of `counted`, moved to `part`'s columns and weighted as it weighs.
pub(crate) fn weigh_part(
    counted: &FittedCorpus,
    part: &FittedPart,
    rows: &[usize],
) -> Result<Matrix> {
    weigh_rows(&counted.matrix, &part.vectorizer, &part.remap, rows)
}

/// Rows `rows` of `counted`, moved to `part`'s columns and left as raw counts: for a
/// classifier that weighs its training rows itself.
pub(crate) fn count_part(
    counted: &FittedCorpus,
    part: &FittedPart,
    rows: &[usize],
) -> Result<Matrix> {
    let columns = part.vectorizer.n_features();
    count_rows(&counted.matrix, &part.remap, rows, columns)
}

/// Rows `rows` of a matrix of raw counts over every term (read with [`counting_config`]), moved
/// to other columns by `remap` (`u32::MAX` drops a column) and weighted by `vectorizer`.
pub(crate) fn weigh_rows(
    counts: &Matrix,
    vectorizer: &FittedVectorizer,
    remap: &[u32],
    rows: &[usize],
) -> Result<Matrix> {
    let columns = vectorizer.n_features();
    move_rows(counts, remap, rows, columns, |row, length| {
        vectorizer.weigh(row, length);
    })
}

/// Like [`weigh_rows`] into `columns` columns, the counts left as they are.
pub(crate) fn count_rows(
    counts: &Matrix,
    remap: &[u32],
    rows: &[usize],
    columns: usize,
) -> Result<Matrix> {
    move_rows(counts, remap, rows, columns, |_, _| {})
}

/// Rows `rows` of `counts` moved by `remap` into `columns` columns, each passed to `weigh` with
/// its document's length before it is kept.
fn move_rows(
    counts: &Matrix,
    remap: &[u32],
    rows: &[usize],
    columns: usize,
    weigh: impl Fn(&mut SparseRow, u32) + Sync,
) -> Result<Matrix> {
    let row = |k: usize| matrix_row(counts, rows[k]);
    fill_renumbered(rows.len(), columns, remap, row, |k, renumbered| {
        // Nothing was pruned while counting, so the counts add up to the document's length,
        // dropped columns included (less, with signed hashing, the occurrences that cancelled).
        let length = row(k).1.iter().map(|c| c.abs()).sum::<f64>() as u32;
        weigh(renumbered, length);
    })
}
