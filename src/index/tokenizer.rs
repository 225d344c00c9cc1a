//! bowline's analyzer as a tantivy tokenizer.

use std::sync::Arc;

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

use crate::analyze::{Analyzer, Terms};

/// The name the tokenizer is registered under in every corpus index.
pub(crate) const TOKENIZER: &str = "bowline";

/// Runs the whole analysis chain on a text and hands tantivy the final terms (n-grams
/// included), so an index holds exactly the terms a model with the same configuration counts.
/// Terms carry no byte offsets: after stemming and n-gram joining they match no span of the text.
#[derive(Clone)]
pub(crate) struct BowlineTokenizer {
    analyzer: Arc<Analyzer>,
    terms: Terms,
    tokens: Vec<Token>,
}

impl BowlineTokenizer {
    /// A tokenizer running `analyzer`.
    pub(crate) fn new(analyzer: Arc<Analyzer>) -> Self {
        BowlineTokenizer {
            analyzer,
            terms: Terms::new(),
            tokens: Vec::new(),
        }
    }
}

impl Tokenizer for BowlineTokenizer {
    type TokenStream<'a> = TermStream<'a>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> TermStream<'a> {
        // A worker per text: tantivy clones tokenizers across its threads, and a worker borrows
        // the analyzer, so it cannot live in the (owned, 'static) tokenizer.
        self.analyzer.worker().analyze(text, &mut self.terms);
        self.tokens.clear();
        for (position, term) in self.terms.iter().enumerate() {
            self.tokens.push(Token {
                position,
                text: term.to_string(),
                ..Token::default()
            });
        }
        TermStream {
            tokens: &mut self.tokens,
            next: 0,
        }
    }
}

/// The terms of one text, handed out one by one.
pub(crate) struct TermStream<'a> {
    tokens: &'a mut [Token],
    next: usize,
}

impl TokenStream for TermStream<'_> {
    fn advance(&mut self) -> bool {
        self.next += 1;
        self.next <= self.tokens.len()
    }

    fn token(&self) -> &Token {
        &self.tokens[self.next - 1]
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.next - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::AnalyzerConfig;

    #[test]
    fn yields_the_analyzers_terms_with_positions() {
        let config = AnalyzerConfig {
            stop_words: crate::analyze::StopWords::Builtin(crate::analyze::Language::English),
            ngram_max: 2,
            ..AnalyzerConfig::default()
        };
        let mut tokenizer = BowlineTokenizer::new(Arc::new(Analyzer::new(config).unwrap()));
        let mut stream = tokenizer.token_stream("The runners were running");
        let mut seen = Vec::new();
        while stream.advance() {
            seen.push((stream.token().text.clone(), stream.token().position));
        }
        let expected = [("runner", 0), ("run", 1), ("runner run", 2)];
        let expected: Vec<_> = expected.iter().map(|&(t, p)| (t.to_string(), p)).collect();
        assert_eq!(seen, expected);
    }
}
