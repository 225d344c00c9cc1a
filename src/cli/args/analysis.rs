//! How text becomes terms: tokens, case, stemming, stop words and n-grams.

use std::path::PathBuf;

use clap::Args;

use bowline::analyze::{AnalyzerConfig, Language, StopWords};
use bowline::{Choice, Error, Result};

/// A language, or `none` to turn a stage off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LanguageChoice(pub Option<Language>);

impl std::str::FromStr for LanguageChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        // The names are lowercase, so the text lowercased matches them in any case.
        let text = text.to_ascii_lowercase();
        if text == "none" {
            return Ok(LanguageChoice(None));
        }
        let names: Vec<_> = Language::CHOICES.iter().map(|&(name, ..)| name).collect();
        let error = format!("expected none or one of: {}", names.join(", "));
        Language::named(&text)
            .map(|l| LanguageChoice(Some(l)))
            .ok_or(error)
    }
}

/// Analysis flags. Unset flags take [`AnalyzerConfig`]'s defaults.
#[derive(Debug, Clone, Default, Args)]
pub struct AnalysisArgs {
    /// Shortest token kept, in characters [default: 2].
    #[arg(long, value_name = "N")]
    pub min_token_len: Option<usize>,
    /// Longest token kept, in characters [default: 40].
    #[arg(long, value_name = "N")]
    pub max_token_len: Option<usize>,
    /// Keep letter case instead of lowercasing.
    #[arg(long)]
    pub keep_case: bool,
    /// Built-in stop-word list (NLTK), or none [default: none].
    #[arg(long, value_name = "LANGUAGE", conflicts_with = "stop_words_file")]
    pub stop_words: Option<LanguageChoice>,
    /// Stop words from a file: one word per line; blank lines and lines starting with `#` skipped.
    #[arg(long, value_name = "FILE")]
    pub stop_words_file: Option<PathBuf>,
    /// Snowball stemmer language, or none [default: english; for bnb, none].
    #[arg(long, value_name = "LANGUAGE")]
    pub stem: Option<LanguageChoice>,
    /// Word n-gram sizes, `N` or `MIN..MAX` (inclusive) [default: 1..2].
    #[arg(long, value_name = "RANGE", value_parser = parse_range)]
    pub ngrams: Option<(usize, usize)>,
    /// Character n-gram sizes, `N` or `MIN..MAX`, within each word padded with spaces
    /// (scikit-learn's char_wb). Alone they replace words; give --ngrams too to keep both
    /// [default: none].
    #[arg(long, value_name = "RANGE", value_parser = parse_range)]
    pub char_ngrams: Option<(usize, usize)>,
}

fn parse_range(text: &str) -> Result<(usize, usize), String> {
    let parse = |t: &str| t.trim().parse::<usize>().map_err(|e| format!("'{t}': {e}"));
    match text.split_once("..") {
        Some((min, max)) => Ok((parse(min)?, parse(max.trim_start_matches('='))?)),
        None => parse(text).map(|n| (n, n)),
    }
}

impl AnalysisArgs {
    /// True when any analysis flag was given.
    pub fn any_set(&self) -> bool {
        self.min_token_len.is_some()
            || self.max_token_len.is_some()
            || self.keep_case
            || self.stop_words.is_some()
            || self.stop_words_file.is_some()
            || self.stem.is_some()
            || self.ngrams.is_some()
            || self.char_ngrams.is_some()
    }

    /// The analyzer configuration, validated, with unset flags taken from the library defaults.
    pub fn config(&self) -> Result<AnalyzerConfig> {
        self.config_over(&AnalyzerConfig::default())
    }

    /// The analyzer configuration, validated, with unset flags taken from `defaults`.
    pub fn config_over(&self, defaults: &AnalyzerConfig) -> Result<AnalyzerConfig> {
        let stop_words = match (&self.stop_words_file, self.stop_words) {
            (Some(path), _) => StopWords::Custom(read_word_list(path)?),
            (None, Some(LanguageChoice(choice))) => {
                choice.map_or(StopWords::None, StopWords::Builtin)
            }
            (None, None) => defaults.stop_words.clone(),
        };
        let (ngram_min, ngram_max) = self
            .ngrams
            .unwrap_or((defaults.ngram_min, defaults.ngram_max));
        let config = AnalyzerConfig {
            min_token_len: self.min_token_len.unwrap_or(defaults.min_token_len),
            max_token_len: self.max_token_len.unwrap_or(defaults.max_token_len),
            lowercase: !self.keep_case,
            stop_words,
            stemmer: self.stem.map_or(defaults.stemmer, |choice| choice.0),
            ngram_min,
            ngram_max,
            char_ngrams: self.char_ngrams.or(defaults.char_ngrams),
            words: match (self.char_ngrams, self.ngrams) {
                (Some(_), None) => false,
                (Some(_), Some(_)) => true,
                (None, _) => defaults.words,
            },
        };
        config.validate()?;
        Ok(config)
    }
}

fn read_word_list(path: &PathBuf) -> Result<Vec<String>> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let (text, _) = bowline::corpus::decode(bytes);
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
        assert_eq!("none".parse(), Ok(LanguageChoice(None)));
        assert_eq!("French".parse(), Ok(LanguageChoice(Some(Language::French))));
        let error = "klingon".parse::<LanguageChoice>().unwrap_err();
        assert!(
            error.contains("english") && error.contains("turkish"),
            "{error}"
        );
    }
}
