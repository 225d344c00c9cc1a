//! The classifier kinds, and the one place that knows them: their names and defaults
//! ([`Kind`]), how each is trained ([`Trainer`]), the trained classifier ([`Classifier`]) that
//! scores documents, a multi-label model's scorers ([`PerLabel`]) and naive Bayes' event models
//! ([`NbKind`]).
//!
//! No code outside this module matches on these enums' variants (`.ci/shape` fails if any does):
//! the rest of the crate asks a classifier what it needs through the methods here, one file per
//! concern:
//!
//! - `training.rs`: each kind's parameters ([`Params`]), its [`Trainer`] and what tuning tries;
//! - `scoring.rs`: [`Classifier`], its scores and probabilities, and the checks of a loaded one;
//! - `explaining.rs`: a score taken apart by term;
//! - `updating.rs`: learning more documents, at once or one at a time;
//! - `merging.rs`: which classifiers merge, and how;
//! - `inspecting.rs`: each class's most telling terms;
//! - `describing.rs`: a classifier's parameters in words and as JSON, for `inspect`;
//! - `exporting.rs`: a classifier as `export` writes it;
//! - `per_label.rs` and `event_models.rs`: [`PerLabel`] and [`NbKind`], the kinds within a
//!   multi-label and a naive Bayes model.
//!
//! A new kind is a variant of these enums and an arm in each of these files' matches (the
//! compiler lists them); its mathematics goes in a module of its own beside this one, as
//! `naive_bayes`, `linear_svm` and `knn`.

use serde::{Deserialize, Serialize};

use super::Smoothing;
use crate::analyze::AnalyzerConfig;
use crate::choice::Choice;
use crate::vectorize::{DfBound, VectorizerConfig};

mod describing;
mod event_models;
mod explaining;
mod exporting;
mod inspecting;
mod merging;
mod per_label;
mod scoring;
mod training;
mod updating;

pub use event_models::NbKind;
pub(crate) use exporting::OuterColumns;
pub use per_label::PerLabel;
pub use scoring::{Classifier, Selected};
pub use training::{Params, Trainer};

/// The kinds of classifier: the one list of them. Every other place that depends on the kind
/// asks one of the methods of this module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Multinomial naive Bayes.
    Mnb,
    /// Complement naive Bayes (Rennie et al. 2003, normalized weights).
    Cnb,
    /// Bernoulli naive Bayes.
    Bnb,
    /// Linear SVM, one-vs-rest.
    Svm,
    /// k-nearest neighbours, similarity-weighted vote.
    Knn,
}

impl Choice for Kind {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        ("mnb", "Multinomial naive Bayes", Kind::Mnb),
        (
            "cnb",
            "Complement naive Bayes (Rennie et al. 2003, normalized weights)",
            Kind::Cnb,
        ),
        ("bnb", "Bernoulli naive Bayes", Kind::Bnb),
        ("svm", "Linear SVM, one-vs-rest", Kind::Svm),
        (
            "knn",
            "k-nearest neighbours, similarity-weighted vote",
            Kind::Knn,
        ),
    ];
}

impl Kind {
    /// The short name: mnb, cnb, bnb, svm or knn.
    pub fn name(self) -> &'static str {
        Choice::name(self)
    }

    /// Each classifier's default analysis. The defaults were chosen by 5-fold cross-validation
    /// on the training data of five corpora of different kinds (topics, short messages, news,
    /// two sets of short opinions), each candidate ranked per corpus and the best mean rank
    /// taken (`benches/defaults.py`; the table is in `benches/defaults.md`); no test split was
    /// read (of the two sets of opinions, a stratified 30% is held out for scoring the choice).
    /// Every kind came out best with the library's default analysis: no stop words, English
    /// stemming, words and word pairs. The kinds differ only in weighting and smoothing.
    pub fn default_analysis(self) -> AnalyzerConfig {
        AnalyzerConfig::default()
    }

    /// Each classifier's default weighting and pruning, chosen likewise: sublinear TF-IDF with
    /// L2 rows and every term kept. The SVM weighs word pairs at 0.7 of their TF-IDF: at 1
    /// they outweighed the words of long documents (Reuters), and of 1, 0.7, 0.5 and 0.3, 0.7
    /// ranks best over the five corpora (0.5 a close second).
    pub fn default_vectorizer(self) -> VectorizerConfig {
        let ngram_weight = match self {
            Kind::Svm => 0.7,
            Kind::Mnb | Kind::Cnb | Kind::Bnb | Kind::Knn => 1.0,
        };
        VectorizerConfig {
            min_df: DfBound::Count(1),
            ngram_weight,
            ..VectorizerConfig::default()
        }
    }

    /// Whether hashed terms (`--hash-bits`) carry their hash's sign, as scikit-learn's
    /// `HashingVectorizer(alternate_sign=True)`: for the SVM, whose weights may be negative and
    /// which gains from collisions cancelling out. Naive Bayes needs counts that are not
    /// negative, and k-NN's BM25 weights assume them, so they count every occurrence as +1.
    pub(crate) fn hashes_signed(self) -> bool {
        matches!(self, Kind::Svm)
    }

    /// Default naive Bayes smoothing, chosen likewise: multinomial NB chooses its own by
    /// leave-one-out on the training documents; 0 for the kinds that are not naive Bayes.
    pub fn default_alpha(self) -> Smoothing {
        match self {
            Kind::Mnb => Smoothing::Auto,
            Kind::Cnb => Smoothing::Fixed(0.1),
            Kind::Bnb => Smoothing::Fixed(0.001),
            Kind::Svm | Kind::Knn => Smoothing::Fixed(0.0),
        }
    }

    /// The naive Bayes event model of a naive Bayes kind.
    pub fn naive_bayes(self) -> Option<NbKind> {
        match self {
            Kind::Mnb => Some(NbKind::Multinomial),
            Kind::Cnb => Some(NbKind::Complement),
            Kind::Bnb => Some(NbKind::Bernoulli),
            Kind::Svm | Kind::Knn => None,
        }
    }
}

impl NbKind {
    /// The kind of classifier naive Bayes of this event model is.
    pub(crate) fn kind(self) -> Kind {
        match self {
            NbKind::Multinomial => Kind::Mnb,
            NbKind::Complement => Kind::Cnb,
            NbKind::Bernoulli => Kind::Bnb,
        }
    }
}
