//! Vocabulary pruning and term weighting.

use clap::Args;

use crate::cli::choice::choice;
use bowline::vectorize::{DfBound, Hashing, Idf, Norm, Tf, VectorizerConfig, Weighting};
use bowline::Result;

/// Vocabulary pruning and weighting flags. Unset flags take [`VectorizerConfig`]'s defaults.
#[derive(Debug, Clone, Default, Args)]
pub struct WeightingArgs {
    /// Term frequency: count, binary, frequency (count / length), sublinear (1 + ln count)
    /// [default: sublinear].
    #[arg(long, value_parser = choice::<Tf>())]
    pub tf: Option<Tf>,
    /// Inverse document frequency: none, plain ln(N/df), smooth ln((1+N)/(1+df))+1
    /// [default: smooth].
    #[arg(long, value_parser = choice::<Idf>())]
    pub idf: Option<Idf>,
    /// Row normalization [default: l2].
    #[arg(long, value_parser = choice::<Norm>())]
    pub norm: Option<Norm>,
    /// Drop terms in fewer documents: a count (5) or a fraction of documents (0.01)
    /// [default: 1; for bnb, 2].
    #[arg(long, value_name = "DF")]
    pub min_df: Option<DfBound>,
    /// Drop terms in more documents: a count or a fraction (0.5) [default: 1.0].
    #[arg(long, value_name = "DF")]
    pub max_df: Option<DfBound>,
    /// Factor in (0, 1] on every word n-gram of two or more words, applied with its idf, so
    /// that word pairs count for less than words; 1 with --hash-bits [default: 0.5 for svm, 1
    /// for the others].
    #[arg(long, value_name = "W")]
    pub ngram_weight: Option<f64>,
}

/// The weighting flags plus a limit on the vocabulary's size. (`select` has its own
/// `--max-features`, the number of features to select, so it takes [`WeightingArgs`] alone.)
#[derive(Debug, Clone, Default, Args)]
pub struct VocabularyArgs {
    #[command(flatten)]
    pub weighting: WeightingArgs,
    /// Keep only the N most frequent terms [default: all].
    #[arg(long, value_name = "N")]
    pub max_features: Option<usize>,
    /// Hash terms into 2^B columns (B from 4 to 28) instead of learning a vocabulary, as
    /// scikit-learn's HashingVectorizer: memory for the features is fixed whatever the corpus.
    /// The SVM (and `vectorize`) keep the hash's sign, naive Bayes and k-NN count +1. min-df and
    /// max-df apply to columns; --max-features cannot be given [default: a vocabulary].
    #[arg(long, value_name = "B")]
    pub hash_bits: Option<u32>,
}

impl VocabularyArgs {
    /// True when any of these flags was given.
    pub fn any_set(&self) -> bool {
        self.weighting.any_set() || self.max_features.is_some() || self.hash_bits.is_some()
    }

    /// The vectorizer configuration, validated, with unset flags taken from the library defaults.
    pub fn config(&self) -> Result<VectorizerConfig> {
        self.config_over(&VectorizerConfig::default())
    }

    /// The vectorizer configuration, validated, with unset flags taken from `defaults`.
    pub fn config_over(&self, defaults: &VectorizerConfig) -> Result<VectorizerConfig> {
        // Signed until the kind decides (`Builder::vectorizer`); the same bits as `defaults`
        // (an existing model's) keep its sign, so that repeating them changes nothing.
        let hashing = match (self.hash_bits, defaults.hashing) {
            (Some(bits), Some(kept)) if kept.bits() == bits => Some(kept),
            (Some(bits), _) => Some(Hashing::new(bits, true)?),
            (None, kept) => kept,
        };
        let weighting = self.weighting.config_over(defaults)?;
        // Hashed columns mix words and n-grams, so hashing weighs them alike unless a weight
        // was given, which `validate` then refuses.
        let ngram_weight = match (hashing, self.weighting.ngram_weight) {
            (Some(_), None) => 1.0,
            _ => weighting.ngram_weight,
        };
        let config = VectorizerConfig {
            max_features: self.max_features.or(defaults.max_features),
            hashing,
            ngram_weight,
            ..weighting
        };
        config.validate()?;
        Ok(config)
    }
}

impl WeightingArgs {
    /// True when any of these flags was given.
    pub fn any_set(&self) -> bool {
        self.tf.is_some()
            || self.idf.is_some()
            || self.norm.is_some()
            || self.min_df.is_some()
            || self.max_df.is_some()
            || self.ngram_weight.is_some()
    }

    /// The vectorizer configuration, validated, with unset flags taken from `defaults` (and the
    /// vocabulary size limit from `defaults` alone).
    pub fn config_over(&self, defaults: &VectorizerConfig) -> Result<VectorizerConfig> {
        let weighting = Weighting {
            tf: self.tf.unwrap_or(defaults.weighting.tf),
            idf: self.idf.unwrap_or(defaults.weighting.idf),
            norm: self.norm.unwrap_or(defaults.weighting.norm),
        };
        let config = VectorizerConfig {
            min_df: self.min_df.unwrap_or(defaults.min_df),
            max_df: self.max_df.unwrap_or(defaults.max_df),
            max_features: defaults.max_features,
            weighting,
            hashing: defaults.hashing,
            ngram_weight: self.ngram_weight.unwrap_or(defaults.ngram_weight),
        };
        config.validate()?;
        Ok(config)
    }
}
