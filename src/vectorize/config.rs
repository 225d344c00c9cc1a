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
    pub fn min_count(self, n_docs: u32) -> u32 {
        match self {
            DfBound::Count(count) => count,
            DfBound::Fraction(fraction) => (fraction * f64::from(n_docs)).ceil() as u32,
        }
    }

    /// The largest document count admitted by this bound used as a maximum, out of `n_docs`:
    /// a fraction admits `df <= fraction * n_docs`.
    pub fn max_count(self, n_docs: u32) -> u32 {
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
}

impl Default for VectorizerConfig {
    fn default() -> Self {
        VectorizerConfig {
            min_df: DfBound::Count(1),
            max_df: DfBound::Fraction(1.0),
            max_features: None,
            weighting: Weighting::default(),
            hashing: None,
        }
    }
}

impl VectorizerConfig {
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
        if let Some(hashing) = self.hashing {
            hashing.validate()?;
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
