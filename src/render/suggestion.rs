//! What `suggest` picked: a TSV table, first to ask first, or JSON.

use crate::active::{Strategy, Suggestion};
use crate::choice::Choice;
use crate::error::Result;

/// One line per document: its score, the model's guess and that guess's probability, its id and
/// the start of its text, under a header line.
pub fn suggestions_table(picked: &[Suggestion]) -> String {
    let mut out = String::from("score\tguess\tprobability\tid\texcerpt\n");
    for s in picked {
        out += &format!(
            "{:.4}\t{}\t{:.4}\t{}\t{}\n",
            s.score, s.guess, s.probability, s.id, s.excerpt
        );
    }
    out
}

/// The strategy and every pick, as JSON.
pub fn suggestions_json(strategy: Strategy, picked: &[Suggestion]) -> Result<String> {
    #[derive(serde::Serialize)]
    struct Pick<'a> {
        id: &'a str,
        guess: &'a str,
        probability: f64,
        score: f64,
        excerpt: &'a str,
    }
    #[derive(serde::Serialize)]
    struct Picked<'a> {
        strategy: &'static str,
        suggestions: Vec<Pick<'a>>,
    }
    let suggestions = picked
        .iter()
        .map(|s| Pick {
            id: &s.id,
            guess: &s.guess,
            probability: s.probability,
            score: s.score,
            excerpt: &s.excerpt,
        })
        .collect();
    super::json::json_text(&Picked {
        strategy: strategy.name(),
        suggestions,
    })
}
