//! Merging models trained on disjoint shards of a corpus with the same analysis and settings:
//! map-reduce without a cluster, and the reduce step of cluster mode.
//!
//! Naive Bayes merges exactly: its model is sums, so the merged counts, vocabulary (the union of
//! the terms in byte order, as fitting sorts them), document frequencies and classes (the union
//! in byte order, as training names them) are those of training on the union. That holds only
//! when every shard kept every term and weighed each document without looking at the others:
//!
//! - no pruning (min-df 1, no max-df, no max-features): a term below min-df in every shard may
//!   pass it in the union, and its counts were never kept;
//! - multinomial and complement NB need integer weights (`--tf count` or `binary`, `--idf none`,
//!   `--norm none`): idf changes with the corpus, and the sums of fractional weights depend on
//!   the order they were added in, so they would differ in the last bits;
//! - Bernoulli NB counts presence, which no weighting changes, except plain idf (a term in every
//!   document of a shard weighs 0 there).
//!
//! Anything else is refused with the reason, rather than merged approximately.
//!
//! SVMs are averaged, each weighted by its share of the documents (see `LinearSvm::averaged`):
//! an approximation of training on the union, documented as such.
//!
//! Which kinds merge, and each kind's merging, are the kinds module's (`kinds/merging.rs`); this
//! module merges the rest of the models: vocabularies, classes and provenance.

use rayon::prelude::*;

use super::{Classifier, Model, NbKind, TrainingInfo};
use crate::error::{Error, Result};
use crate::vectorize::{
    DfBound, FittedVectorizer, Idf, Keys, Norm, TermList, Tf, VectorizerConfig,
};

/// A model to merge and the name (a file, or a cluster process) its errors are reported under.
#[derive(Debug, Clone)]
pub struct Part {
    /// Where the model came from.
    pub name: String,
    /// The model.
    pub model: Model,
}

/// Merges models trained on disjoint shards (see the module documentation for what is exact).
/// The result's provenance lists every part's corpora, and is written now.
pub fn merge(parts: &[Part]) -> Result<Model> {
    let [first, rest @ ..] = parts else {
        return Err(Error::Config("merging needs at least one model".into()));
    };
    for part in rest {
        same_settings(first, part)?;
    }
    first.model.classifier.check_mergeable(&first.name)?;
    if first.model.classifier.merges_exactly().is_some() {
        let union_docs =
            (parts.iter()).fold(0u32, |n, p| n.saturating_add(p.model.vectorizer.n_docs()));
        parts
            .iter()
            .try_for_each(|part| exactly_mergeable(part, union_docs))?;
    }
    let (vectorizer, columns) = merged_vectorizer(parts)?;
    let labels = merged_labels(parts)?;
    let classes: Vec<Vec<usize>> = parts
        .iter()
        .map(|p| classes_in(&p.model.labels, &labels))
        .collect();
    let features = vectorizer.n_features();
    let mut classifier = Classifier::merged(parts, &columns, &classes, &labels, features)?;
    classifier.set_space(vectorizer.space());
    Ok(Model {
        vectorizer,
        info: merged_info(parts, &labels, &classes),
        labels,
        classifier,
    })
}

/// Refuses two models whose analysis, weighting, pruning, kind or parameters differ.
fn same_settings(first: &Part, other: &Part) -> Result<()> {
    let (a, b) = (&first.model, &other.model);
    let differ = |what: &str| {
        Err(Error::Config(format!(
            "{} and {} differ in {what}; only models trained with the same settings merge",
            first.name, other.name
        )))
    };
    // The variant too: a multi-label or selected-feature model has a kind like the others.
    let variant = std::mem::discriminant;
    if a.classifier.kind() != b.classifier.kind()
        || variant(&a.classifier) != variant(&b.classifier)
    {
        return Err(Error::Config(format!(
            "{} is a {} model and {} a {} model; only models of one kind merge",
            first.name,
            a.classifier.name(),
            other.name,
            b.classifier.name()
        )));
    }
    if a.vectorizer.analyzer() != b.vectorizer.analyzer() {
        return differ("analysis");
    }
    if a.vectorizer.config() != b.vectorizer.config() {
        return differ("pruning or weighting");
    }
    match a.classifier.merge_conflict(&b.classifier) {
        Some(what) => differ(what),
        None => Ok(()),
    }
}

/// Refuses a naive Bayes part whose counts do not add up to those of the union (see the module
/// documentation); `union_docs` is the documents of all parts.
fn exactly_mergeable(part: &Part, union_docs: u32) -> Result<()> {
    let vectorizer = &part.model.vectorizer;
    let Some(kind) = part.model.classifier.merges_exactly() else {
        return Ok(());
    };
    let config = vectorizer.config();
    let prunes = |n: u32| config.min_df.min_count(n) > 1 || config.max_df.max_count(n) < n;
    let reason = if prunes(vectorizer.n_docs()) || prunes(union_docs) {
        Err(NOT_PRUNED)
    } else {
        exact_settings(kind, config)
    };
    reason.map_err(|why| {
        Error::Config(format!(
            "{}: naive Bayes merges exactly only {why}",
            part.name
        ))
    })
}

const NOT_PRUNED: &str =
    "without pruning (train the shards with --min-df 1, no --max-df or --max-features)";

/// Whether naive Bayes of `kind` trained with `config` on shards adds up to the model of their
/// union, whatever their sizes (a fractional min-df or max-df is checked again on the merged
/// counts); if not, the reason, which reads after "merges exactly only".
pub(crate) fn exact_settings(
    kind: NbKind,
    config: &VectorizerConfig,
) -> std::result::Result<(), &'static str> {
    let keeps_all = matches!(config.min_df, DfBound::Count(0 | 1) | DfBound::Fraction(_))
        && matches!(config.max_df, DfBound::Fraction(f) if f >= 1.0)
        && config.max_features.is_none();
    if !keeps_all {
        return Err(NOT_PRUNED);
    }
    if kind.counts_presence() {
        if config.weighting.idf == Idf::Plain {
            return Err("without plain idf, which weighs a term in every document 0");
        }
        return Ok(());
    }
    if !integer_weights(config) {
        return Err(
            "with integer weights: train the shards with --tf count --idf none --norm none",
        );
    }
    Ok(())
}

/// Whether every weighted value is a whole number, so sums are exact in any order.
fn integer_weights(config: &VectorizerConfig) -> bool {
    let w = &config.weighting;
    matches!(w.tf, Tf::Count | Tf::Binary) && w.idf == Idf::None && w.norm == Norm::None
}

/// The union of the parts' vocabularies in byte order, their document frequencies added, and
/// each part's columns in it. One sort of all the terms rather than a union per part: merging
/// four 20 Newsgroups shards (0.4 million terms each) took 3.2 s one union at a time, 1.2 s so.
fn merged_vectorizer(parts: &[Part]) -> Result<(FittedVectorizer, Vec<Vec<u32>>)> {
    let vectorizers: Vec<&FittedVectorizer> = parts.iter().map(|p| &p.model.vectorizer).collect();
    if vectorizers
        .iter()
        .any(|v| v.hashing() != vectorizers[0].hashing())
    {
        return Err(Error::Config(
            "the models hash terms differently (or some do not): they cannot be merged".into(),
        ));
    }
    let (keys, columns) = match vectorizers[0].hashing() {
        Some(_) => hashed_union(&vectorizers),
        None => {
            let mut terms: Vec<&str> = vectorizers.iter().flat_map(|v| v.terms().iter()).collect();
            terms.par_sort_unstable();
            terms.dedup();
            let union: TermList = terms.into_iter().collect();
            let columns = vectorizers.iter().map(|v| columns_in(v, &union)).collect();
            (Keys::Terms(union), columns)
        }
    };
    let mut df = vec![0u32; keys.len()];
    for (vectorizer, columns) in vectorizers.iter().zip(&columns) {
        for (&column, &d) in columns.iter().zip(vectorizer.df()) {
            df[column as usize] += d;
        }
    }
    let n_docs = vectorizers
        .iter()
        .try_fold(0u32, |n, v| n.checked_add(v.n_docs()));
    let n_docs =
        n_docs.ok_or_else(|| Error::Config("the merged model has too many documents".into()))?;
    let first = vectorizers[0];
    let merged = FittedVectorizer::from_keys(
        first.analyzer().clone(),
        first.config().clone(),
        keys,
        df,
        n_docs,
    )?;
    Ok((merged, columns))
}

/// The union of hashed models' columns, ascending, and each model's columns in it.
fn hashed_union(vectorizers: &[&FittedVectorizer]) -> (Keys, Vec<Vec<u32>>) {
    let mut union: Vec<u32> = (vectorizers.iter())
        .flat_map(|v| v.hashed_columns().iter().copied())
        .collect();
    union.sort_unstable();
    union.dedup();
    let index = |column: &u32| union.binary_search(column).map_or(u32::MAX, |c| c as u32);
    let columns = (vectorizers.iter())
        .map(|v| v.hashed_columns().iter().map(index).collect())
        .collect();
    (Keys::Hashed(union.into()), columns)
}

/// The column in `union` of each of `part`'s terms, every one of which is there.
fn columns_in(part: &FittedVectorizer, union: &TermList) -> Vec<u32> {
    let terms = part.terms();
    (0..terms.len())
        .into_par_iter()
        .map(|j| {
            union
                .binary_search(&terms[j])
                .map_or(u32::MAX, |c| c as u32)
        })
        .collect()
}

/// The merged class of each of `part`'s classes.
fn classes_in(part: &[String], merged: &[String]) -> Vec<usize> {
    let class = |label: &String| merged.iter().position(|l| l == label).unwrap_or(usize::MAX);
    part.iter().map(class).collect()
}

/// The parts' classes: their common list, or else the union in byte order, which is how training
/// names the classes of a corpus. A part whose classes are not in byte order (an update added
/// one at the end) merges only with parts of the same classes.
fn merged_labels(parts: &[Part]) -> Result<Vec<String>> {
    let first = &parts[0];
    if parts.iter().all(|p| p.model.labels == first.model.labels) {
        return Ok(first.model.labels.clone());
    }
    let sorted = |p: &&Part| p.model.labels.windows(2).all(|w| w[0] < w[1]);
    if let Some(unsorted) = parts.iter().find(|p| !sorted(p)) {
        return Err(Error::Config(format!(
            "{} and {} have different classes, and those of {} are not in byte order (an update \
             added one), so their order in the union is unknown",
            first.name, unsorted.name, unsorted.name
        )));
    }
    let mut labels: Vec<String> = parts
        .iter()
        .flat_map(|p| p.model.labels.iter().cloned())
        .collect();
    labels.sort_unstable();
    labels.dedup();
    Ok(labels)
}

/// Provenance: every part's corpora in order, documents per class added.
fn merged_info(parts: &[Part], labels: &[String], classes: &[Vec<usize>]) -> TrainingInfo {
    let corpora = parts
        .iter()
        .flat_map(|p| p.model.info.corpora.iter().cloned())
        .collect();
    let mut docs_per_class = vec![0u64; labels.len()];
    for (part, classes) in parts.iter().zip(classes) {
        for (&c, &n) in classes.iter().zip(&part.model.info.docs_per_class) {
            docs_per_class[c] += n;
        }
    }
    TrainingInfo::now(corpora, docs_per_class)
}
