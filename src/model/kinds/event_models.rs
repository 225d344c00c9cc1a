//! Naive Bayes' event models, and what the naive Bayes code asks of them.

use serde::{Deserialize, Serialize};

/// Which naive Bayes event model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NbKind {
    /// Term counts (or weights) drawn from a per-class multinomial.
    Multinomial,
    /// Weights estimated from every other class, normalized per class.
    Complement,
    /// Term presence and absence, as binary features.
    Bernoulli,
}

impl NbKind {
    /// Of one value per event model (a function computing that model's form, say), this event
    /// model's: how the naive Bayes code, which has a formula per model, picks its own.
    pub(crate) fn pick<T>(self, multinomial: T, complement: T, bernoulli: T) -> T {
        match self {
            NbKind::Multinomial => multinomial,
            NbKind::Complement => complement,
            NbKind::Bernoulli => bernoulli,
        }
    }

    /// Whether the model counts a term's presence in a document rather than its weight: true
    /// for Bernoulli NB.
    pub(crate) fn counts_presence(self) -> bool {
        matches!(self, NbKind::Bernoulli)
    }

    /// The event model's name as `export` writes it: multinomial, complement or bernoulli.
    pub(crate) fn name(self) -> &'static str {
        self.pick("multinomial", "complement", "bernoulli")
    }
}
