//! Weighting and vocabulary settings as given: tf, idf, norm, document-frequency bounds,
//! feature caps and hashing.

use crate::error::Result;
use crate::vectorize::{DfBound, Hashing, Idf, Norm, Tf, VectorizerConfig, Weighting};

/// Weighting settings as a user gives them; unset ones take the base's.
#[derive(Debug, Clone, Default)]
pub struct WeightingFlags {
    /// Term-frequency weighting.
    pub tf: Option<Tf>,
    /// Inverse-document-frequency weighting.
    pub idf: Option<Idf>,
    /// Row normalization.
    pub norm: Option<Norm>,
    /// Terms in fewer documents are dropped.
    pub min_df: Option<DfBound>,
    /// Terms in more documents are dropped.
    pub max_df: Option<DfBound>,
    /// The weight of an n-gram relative to a word.
    pub ngram_weight: Option<f64>,
}

/// Weighting settings and the vocabulary's: its size cap, or hashing in its place.
#[derive(Debug, Clone, Default)]
pub struct VocabularyFlags {
    /// The weighting settings.
    pub weighting: WeightingFlags,
    /// Keep only this many terms, the most frequent.
    pub max_features: Option<usize>,
    /// Hash terms to 2^B columns instead of keeping a vocabulary.
    pub hash_bits: Option<u32>,
}

impl From<WeightingFlags> for VocabularyFlags {
    /// The weighting settings, with the vocabulary's cap and hashing left to the base.
    fn from(weighting: WeightingFlags) -> Self {
        VocabularyFlags {
            weighting,
            ..VocabularyFlags::default()
        }
    }
}

impl VocabularyFlags {
    /// Whether any setting was given.
    pub fn any_set(&self) -> bool {
        self.weighting.any_set() || self.max_features.is_some() || self.hash_bits.is_some()
    }

    /// The validated configuration the settings make of [`VectorizerConfig`]'s defaults.
    pub fn config(&self) -> Result<VectorizerConfig> {
        self.config_over(&VectorizerConfig::default())
    }

    /// The validated configuration the settings make of `base`.
    pub fn config_over(&self, base: &VectorizerConfig) -> Result<VectorizerConfig> {
        // Signed until the kind decides (`Builder::vectorizer`); the same bits as `base` (an
        // existing model's) keep its sign, so that repeating them changes nothing.
        let hashing = match (self.hash_bits, base.hashing) {
            (Some(bits), Some(kept)) if kept.bits() == bits => Some(kept),
            (Some(bits), _) => Some(Hashing::new(bits, true)?),
            (None, kept) => kept,
        };
        let weighting = self.weighting.config_over(base)?;
        // Hashed columns mix words and n-grams, so hashing weighs them alike unless a weight
        // was given, which `validate` then refuses.
        let ngram_weight = match (hashing, self.weighting.ngram_weight) {
            (Some(_), None) => 1.0,
            _ => weighting.ngram_weight,
        };
        let config = VectorizerConfig {
            max_features: self.max_features.or(base.max_features),
            hashing,
            ngram_weight,
            ..weighting
        };
        config.validate()?;
        Ok(config)
    }
}

impl WeightingFlags {
    /// Whether any setting was given.
    pub fn any_set(&self) -> bool {
        self.tf.is_some()
            || self.idf.is_some()
            || self.norm.is_some()
            || self.min_df.is_some()
            || self.max_df.is_some()
            || self.ngram_weight.is_some()
    }

    /// The validated configuration the settings make of `base`, its vocabulary cap and
    /// hashing kept.
    pub fn config_over(&self, base: &VectorizerConfig) -> Result<VectorizerConfig> {
        let weighting = Weighting {
            tf: self.tf.unwrap_or(base.weighting.tf),
            idf: self.idf.unwrap_or(base.weighting.idf),
            norm: self.norm.unwrap_or(base.weighting.norm),
        };
        let config = VectorizerConfig {
            min_df: self.min_df.unwrap_or(base.min_df),
            max_df: self.max_df.unwrap_or(base.max_df),
            max_features: base.max_features,
            weighting,
            hashing: base.hashing,
            ngram_weight: self.ngram_weight.unwrap_or(base.ngram_weight),
        };
        config.validate()?;
        Ok(config)
    }
}
