//! Vocabulary pruning and term weighting.

use clap::Args;

use crate::cli::choice::choice;
use bowline::jobs::settings::{DfBound, Idf, Norm, Tf, VocabularyFlags, WeightingFlags};

/// Vocabulary pruning and weighting flags. Unset flags take the weighting they are
/// applied over: the defaults, a kind's or a model's.
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
    /// [default: 1].
    #[arg(long, value_name = "DF")]
    pub min_df: Option<DfBound>,
    /// Drop terms in more documents: a count or a fraction (0.5) [default: 1.0].
    #[arg(long, value_name = "DF")]
    pub max_df: Option<DfBound>,
    /// Factor in (0, 1] on every word n-gram of two or more words, applied with its idf, so
    /// that word pairs count for less than words; 1 with --hash-bits [default: 0.7 for svm, 1
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
    /// scikit-learn's HashingVectorizer: no vocabulary is kept, and memory grows with the columns
    /// that occur.
    /// The SVM (and `vectorize`) keep the hash's sign, naive Bayes and k-NN count +1. min-df and
    /// max-df apply to columns; --max-features cannot be given [default: a vocabulary].
    #[arg(long, value_name = "B")]
    pub hash_bits: Option<u32>,
}

impl VocabularyArgs {
    /// The settings as the library takes them.
    pub fn flags(&self) -> VocabularyFlags {
        VocabularyFlags {
            weighting: self.weighting.flags(),
            max_features: self.max_features,
            hash_bits: self.hash_bits,
        }
    }
}

impl WeightingArgs {
    /// The settings as the library takes them.
    pub fn flags(&self) -> WeightingFlags {
        WeightingFlags {
            tf: self.tf,
            idf: self.idf,
            norm: self.norm,
            min_df: self.min_df,
            max_df: self.max_df,
            ngram_weight: self.ngram_weight,
        }
    }
}
