//! Which documents should a person label next? Active learning asks for the labels the current
//! model is least sure of (Lewis and Gale 1994, uncertainty sampling), not for random ones.
//!
//! A [`Strategy`] scores each pool document from the model's class probabilities; a [`Picker`]
//! keeps the best `n` as the pool streams by, so a pool of any size is read once and never held.
//! `diverse` keeps ten times as many of the closest calls and spreads its batch over them, so that
//! one batch does not ask for ten near-copies of the same document.

mod counted;
mod picker;
pub mod session;

pub use picker::{excerpt, Picker, Suggestion};

use crate::choice::Choice;

/// How the next documents to label are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    /// The least confident prediction first: the lowest top probability.
    #[default]
    Uncertainty,
    /// The closest call first: the smallest gap between the two most probable classes.
    Margin,
    /// The most spread prediction first: the highest entropy of the class probabilities.
    Entropy,
    /// A random sample of the pool, by a seeded hash of each document's id.
    Random,
    /// Close calls (by margin) spread over the pool: each pick is the candidate furthest, in
    /// cosine distance, from the picks before it, weighed by how close its call is.
    Diverse,
}

impl Choice for Strategy {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        (
            "uncertainty",
            "The lowest top probability first",
            Strategy::Uncertainty,
        ),
        (
            "margin",
            "The smallest gap between the two most probable classes first",
            Strategy::Margin,
        ),
        (
            "entropy",
            "The highest entropy of the class probabilities first",
            Strategy::Entropy,
        ),
        ("random", "A seeded random sample", Strategy::Random),
        (
            "diverse",
            "Close calls spread over the pool, not near-copies",
            Strategy::Diverse,
        ),
    ];
}

impl Strategy {
    /// How much a label would tell the model about a document with these class probabilities
    /// (any order), from 0 (nothing) up; `Random` and `Diverse` start from the margin.
    pub fn score(self, probabilities: &[f64]) -> f64 {
        let (first, second) = top_two(probabilities);
        match self {
            Strategy::Uncertainty => 1.0 - first,
            Strategy::Entropy => probabilities
                .iter()
                .filter(|&&p| p > 0.0)
                .map(|&p| -p * p.ln())
                .sum(),
            Strategy::Margin | Strategy::Random | Strategy::Diverse => 1.0 - (first - second),
        }
    }
}

/// The two largest probabilities, the second 0 when there is one class.
fn top_two(probabilities: &[f64]) -> (f64, f64) {
    probabilities
        .iter()
        .fold((0.0, 0.0), |(first, second), &p| {
            if p > first {
                (p, first)
            } else {
                (first, second.max(p))
            }
        })
}

#[cfg(test)]
mod tests;
