//! [`VectorizerConfig`]: vocabulary pruning and weighting, validated in one place.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::hashing::Hashing;
use super::weighting::Weighting;
use crate::error::{Error, Result};

/// A document-frequency bound: an absolute number of documents, or a fraction of the corpus.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DfBound {
    /// At least 1 document.
    Count(u32),
    /// A fraction in (0, 1].
    Fraction(f64),
}

impl DfBound {
    /// The smallest document count admitted by this bound used as a minimum, out of `n_docs`:
    /// a fraction admits `df >= fraction * n_docs`, as in scikit-learn.
    pub(crate) fn min_count(self, n_docs: u32) -> u32 {
        match self {
            DfBound::Count(count) => count,
            DfBound::Fraction(fraction) => (fraction * f64::from(n_docs)).ceil() as u32,
        }
    }

    /// The largest document count admitted by this bound used as a maximum, out of `n_docs`:
    /// a fraction admits `df <= fraction * n_docs`.
    pub(crate) fn max_count(self, n_docs: u32) -> u32 {
        match self {
            DfBound::Count(count) => count,
            DfBound::Fraction(fraction) => (fraction * f64::from(n_docs)).floor() as u32,
        }
    }
}

impl FromStr for DfBound {
    type Err = String;

    /// `5` is a count, `0.5` or `1.0` a fraction, as in scikit-learn.
    fn from_str(text: &str) -> Result<Self, String> {
        if let Ok(count) = text.parse::<u32>() {
            return Ok(DfBound::Count(count));
        }
        text.parse::<f64>()
            .map(DfBound::Fraction)
            .map_err(|_| format!("'{text}' is neither a document count nor a fraction"))
    }
}

/// Vocabulary pruning and weighting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VectorizerConfig {
    /// Drop terms in fewer documents than this; default 1 (keep all).
    pub min_df: DfBound,
    /// Drop terms in more documents than this; default 1.0 (keep all).
    pub max_df: DfBound,
    /// Keep only the most frequent terms (by total count); default unlimited.
    pub max_features: Option<usize>,
    /// How counts become values.
    pub weighting: Weighting,
    /// Terms hashed to a fixed number of columns instead of a vocabulary; default none. A
    /// fitted vectorizer stores it apart from the rest of this configuration (see
    /// [`FittedVectorizer`](super::FittedVectorizer)), so it is not serialized here.
    #[serde(skip)]
    pub hashing: Option<Hashing>,
    /// Factor on the value of every word n-gram of two or more words, applied with its idf
    /// before rows are normalized; default 1. Below 1, word pairs count for less than the words
    /// they join, which helped the SVM on long documents (see
    /// [`Kind::default_vectorizer`](crate::model::Kind::default_vectorizer)). Hashed columns mix
    /// words and n-grams, so it must be 1 with hashing. Stored apart, like `hashing`.
    #[serde(skip, default = "unweighted")]
    pub ngram_weight: f64,
}

/// The n-gram weight that weighs n-grams like words: the default, and what files written before
/// the weight existed hold.
pub(super) fn unweighted() -> f64 {
    1.0
}

impl Default for VectorizerConfig {
    fn default() -> Self {
        VectorizerConfig {
            min_df: DfBound::Count(1),
            max_df: DfBound::Fraction(1.0),
            max_features: None,
            weighting: Weighting::default(),
            hashing: None,
            ngram_weight: unweighted(),
        }
    }
}

impl VectorizerConfig {
    /// The factor on the idf of `term`: [`VectorizerConfig::ngram_weight`] for a word n-gram,
    /// 1 for a word or a character n-gram. Words never contain white space, so a word n-gram
    /// is the one term with a space between two other characters; a character n-gram has
    /// spaces only at its ends, where `char_wb` pads the word.
    pub(crate) fn idf_factor(&self, term: &str) -> f64 {
        // A growing vocabulary asks for every term of every document; at weight 1 (naive
        // Bayes' streams) no term needs looking at.
        if self.ngram_weight == 1.0 {
            return 1.0;
        }
        let inner = term.strip_prefix(' ').unwrap_or(term);
        let inner = inner.strip_suffix(' ').unwrap_or(inner);
        if inner.contains(crate::analyze::ngrams::NGRAM_SEPARATOR) {
            self.ngram_weight
        } else {
            1.0
        }
    }

    /// Checks every parameter; the only place they are checked.
    pub fn validate(&self) -> Result<()> {
        for (name, bound) in [("min-df", self.min_df), ("max-df", self.max_df)] {
            let ok = match bound {
                DfBound::Count(count) => count >= 1,
                DfBound::Fraction(f) => f > 0.0 && f <= 1.0,
            };
            if !ok {
                return Err(Error::Config(format!(
                    "--{name} must be a count >= 1 or a fraction in (0, 1]"
                )));
            }
        }
        let empty = match (self.min_df, self.max_df) {
            (DfBound::Count(min), DfBound::Count(max)) => min > max,
            (DfBound::Fraction(min), DfBound::Fraction(max)) => min > max,
            _ => false,
        };
        if empty {
            return Err(Error::Config(
                "--min-df is above --max-df: no term could be kept".into(),
            ));
        }
        if self.max_features == Some(0) {
            return Err(Error::Config("--max-features must be at least 1".into()));
        }
        if !(self.ngram_weight > 0.0 && self.ngram_weight <= 1.0) {
            return Err(Error::Config(format!(
                "--ngram-weight must be in (0, 1], got {}",
                self.ngram_weight
            )));
        }
        if let Some(hashing) = self.hashing {
            hashing.validate()?;
            if self.ngram_weight != 1.0 {
                return Err(Error::Config(
                    "--ngram-weight cannot be used with --hash-bits: a hashed column mixes words \
                     and n-grams"
                        .into(),
                ));
            }
            // Hashing keeps no vocabulary to rank terms in; min-df and max-df still apply, to
            // columns (see `Fitter::finish_rows`).
            if self.max_features.is_some() {
                return Err(Error::Config(
                    "--max-features cannot be used with --hash-bits: hashed terms have no \
                     vocabulary to keep the most frequent of"
                        .into(),
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_word_ngrams_take_the_ngram_weight_which_hashing_refuses() {
        let config = VectorizerConfig {
            ngram_weight: 0.7,
            ..VectorizerConfig::default()
        };
        assert_eq!(config.idf_factor("new york"), 0.7);
        assert_eq!(config.idf_factor("new york city"), 0.7);
        for term in ["york", " ab", "ab ", " a ", "ab"] {
            assert_eq!(config.idf_factor(term), 1.0, "{term:?}");
        }
        assert!(config.validate().is_ok());
        for weight in [0.0, -1.0, 1.5, f64::NAN, f64::INFINITY] {
            let bad = VectorizerConfig {
                ngram_weight: weight,
                ..VectorizerConfig::default()
            };
            assert!(bad.validate().is_err(), "{weight}");
        }
        let hashed = VectorizerConfig {
            hashing: Some(Hashing::new(10, true).unwrap()),
            ..config
        };
        let refused = hashed.validate().unwrap_err().to_string();
        assert!(refused.contains("--hash-bits"), "{refused}");
    }

    #[test]
    fn bounds_parse_like_scikit_learn() {
        assert_eq!("5".parse::<DfBound>(), Ok(DfBound::Count(5)));
        assert_eq!("0.5".parse::<DfBound>(), Ok(DfBound::Fraction(0.5)));
        assert!("x".parse::<DfBound>().is_err());
        assert_eq!(DfBound::Fraction(0.5).min_count(9), 5);
        assert_eq!(DfBound::Fraction(0.5).max_count(9), 4);
        let bad = VectorizerConfig {
            max_df: DfBound::Fraction(1.5),
            ..VectorizerConfig::default()
        };
        assert!(bad.validate().is_err());
    }
}
