//! Ranking the terms of a labelled corpus by how they relate to its classes.

use serde::Serialize;

use super::{Labelled, Reading};
use crate::analyze::Analyzer;
use crate::error::{Error, Result};
use crate::flow::Source;
use crate::select::{Presence, RankBy};

/// What to rank by, and how much to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RankOptions {
    /// The score.
    pub by: RankBy,
    /// List the top terms of each class (χ² and mutual information only).
    pub per_class: bool,
    /// How many terms to list (per class with `per_class`).
    pub top: usize,
    /// Leave out terms found in fewer documents than this.
    pub min_df: u32,
}

/// A ranked term.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ranked {
    /// The term.
    pub term: String,
    /// Its score.
    pub score: f64,
    /// The documents it is found in.
    pub df: u32,
}

/// The top terms overall, or of one class.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Listing {
    /// The class, or `None` for the overall ranking.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// The terms, best first.
    pub features: Vec<Ranked>,
}

/// Reads the labelled documents of `source`, analyzed with `analyzer`, and ranks their terms:
/// one listing overall, or one per class.
pub(crate) fn rank_terms(
    source: Source,
    analyzer: &Analyzer,
    reading: &mut Reading,
    options: RankOptions,
) -> Result<Vec<Listing>> {
    if options.per_class && !matches!(options.by, RankBy::Chi2 | RankBy::Mi) {
        return Err(Error::Config("--per-class needs --by chi2 or mi".into()));
    }
    let labelled = Labelled::read(source, "ranking", analyzer, None, reading)?;
    let corpus = &labelled.corpus;
    let all: Vec<usize> = (0..labelled.classes.len()).collect();
    let classes = corpus.classes.len();
    let presence = Presence::count(&corpus.matrix, &labelled.classes, &all, classes);
    let terms = corpus.vectorizer.terms();
    let list = |class: Option<usize>| Listing {
        class: class.map(|c| corpus.classes[c].clone()),
        features: presence
            .top(options.by, class, options.top, options.min_df)
            .into_iter()
            .map(|(j, score)| Ranked {
                term: terms[j].to_string(),
                score,
                df: presence.df(j),
            })
            .collect(),
    };
    Ok(if options.per_class {
        (0..classes).map(|c| list(Some(c))).collect()
    } else {
        vec![list(None)]
    })
}
