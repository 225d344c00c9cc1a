//! Analysis settings as given: tokens, case, stemming, stop words and n-grams.

use std::path::{Path, PathBuf};

use crate::analyze::{AnalyzerConfig, Language, StopWords, Tokenizer};
use crate::error::{Error, Result};
use crate::Choice;

/// Analysis settings as a user gives them; unset ones take the base's.
#[derive(Debug, Clone, Default)]
pub struct AnalysisFlags {
    /// How text is split into tokens.
    pub tokenizer: Option<Tokenizer>,
    /// Shortest token kept, in characters.
    pub min_token_len: Option<usize>,
    /// Longest token kept, in characters.
    pub max_token_len: Option<usize>,
    /// Keep letter case instead of lowercasing.
    pub keep_case: bool,
    /// A built-in stop-word list, or `Some(None)` for none.
    pub stop_words: Option<Option<Language>>,
    /// Stop words from a file: one word per line; blank lines and lines starting with `#`
    /// skipped. It takes the place of `stop_words`.
    pub stop_words_file: Option<PathBuf>,
    /// The stemmer's language, or `Some(None)` for none.
    pub stem: Option<Option<Language>>,
    /// Word n-gram sizes, inclusive.
    pub ngrams: Option<(usize, usize)>,
    /// Character n-gram sizes, inclusive. Alone they replace words; with `ngrams` both are
    /// kept.
    pub char_ngrams: Option<(usize, usize)>,
}

impl AnalysisFlags {
    /// Whether any setting was given.
    pub fn any_set(&self) -> bool {
        self.tokenizer.is_some()
            || self.min_token_len.is_some()
            || self.max_token_len.is_some()
            || self.keep_case
            || self.stop_words.is_some()
            || self.stop_words_file.is_some()
            || self.stem.is_some()
            || self.ngrams.is_some()
            || self.char_ngrams.is_some()
    }

    /// The validated analysis the settings make of [`AnalyzerConfig`]'s defaults.
    pub fn config(&self) -> Result<AnalyzerConfig> {
        self.config_over(&AnalyzerConfig::default())
    }

    /// The validated analysis the settings make of `base`.
    pub fn config_over(&self, base: &AnalyzerConfig) -> Result<AnalyzerConfig> {
        let stop_words = match (&self.stop_words_file, self.stop_words) {
            (Some(path), _) => StopWords::Custom(read_word_list(path)?),
            (None, Some(choice)) => choice.map_or(StopWords::None, StopWords::Builtin),
            (None, None) => base.stop_words.clone(),
        };
        let (ngram_min, ngram_max) = self.ngrams.unwrap_or((base.ngram_min, base.ngram_max));
        let config = AnalyzerConfig {
            min_token_len: self.min_token_len.unwrap_or(base.min_token_len),
            max_token_len: self.max_token_len.unwrap_or(base.max_token_len),
            lowercase: !self.keep_case,
            stop_words,
            stemmer: self.stem.unwrap_or(base.stemmer),
            ngram_min,
            ngram_max,
            char_ngrams: self.char_ngrams.or(base.char_ngrams),
            words: match (self.char_ngrams, self.ngrams) {
                (Some(_), None) => false,
                (Some(_), Some(_)) => true,
                (None, _) => base.words,
            },
            tokenizer: self.tokenizer.unwrap_or(base.tokenizer),
        };
        config.validate()?;
        Ok(config)
    }
}

/// Parses a range of sizes, `N` or `MIN..MAX` (inclusive; `MIN..=MAX` is read alike).
pub fn parse_range(text: &str) -> std::result::Result<(usize, usize), String> {
    let parse = |t: &str| t.trim().parse::<usize>().map_err(|e| format!("'{t}': {e}"));
    match text.split_once("..") {
        Some((min, max)) => Ok((parse(min)?, parse(max.trim_start_matches('='))?)),
        None => parse(text).map(|n| (n, n)),
    }
}

/// Parses a language in any case, or `none` (which turns a stage off) as `None`.
pub fn parse_language(text: &str) -> std::result::Result<Option<Language>, String> {
    // The names are lowercase, so the text lowercased matches them in any case.
    let text = text.to_ascii_lowercase();
    if text == "none" {
        return Ok(None);
    }
    let names: Vec<_> = Language::CHOICES.iter().map(|&(name, ..)| name).collect();
    let error = format!("expected none or one of: {}", names.join(", "));
    Language::named(&text).map(Some).ok_or(error)
}

/// The words of a stop-word file, decoded as a corpus's documents are.
fn read_word_list(path: &Path) -> Result<Vec<String>> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let (text, _) = crate::corpus::decode(bytes);
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_string)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse() {
        assert_eq!(parse_range("2"), Ok((2, 2)));
        assert_eq!(parse_range("1..3"), Ok((1, 3)));
        assert_eq!(parse_range("1..=3"), Ok((1, 3)));
        assert!(parse_range("a..3").is_err());
    }

    #[test]
    fn languages_parse_with_none() {
        assert_eq!(parse_language("none"), Ok(None));
        assert_eq!(parse_language("French"), Ok(Some(Language::French)));
        let error = parse_language("klingon").unwrap_err();
        assert!(
            error.contains("english") && error.contains("turkish"),
            "{error}"
        );
    }
}
