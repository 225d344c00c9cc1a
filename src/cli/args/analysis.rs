//! How text becomes terms: tokens, case, stemming, stop words and n-grams.

use std::path::PathBuf;

use clap::Args;

use bowline::jobs::settings::{parse_language, parse_range, AnalysisFlags, Language, Tokenizer};

use crate::cli::choice::choice;

/// A language, or `none` to turn a stage off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LanguageChoice(pub Option<Language>);

impl std::str::FromStr for LanguageChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        parse_language(text).map(LanguageChoice)
    }
}

/// Analysis flags. Unset flags take the analysis they are applied over: the defaults, an index's
/// or a model's.
#[derive(Debug, Clone, Default, Args)]
pub struct AnalysisArgs {
    /// How text is split into tokens [default: unicode].
    #[arg(long, value_parser = choice::<Tokenizer>())]
    pub tokenizer: Option<Tokenizer>,
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
    /// Snowball stemmer language, or none [default: english].
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

impl AnalysisArgs {
    /// The settings as the library takes them.
    pub fn flags(&self) -> AnalysisFlags {
        AnalysisFlags {
            tokenizer: self.tokenizer,
            min_token_len: self.min_token_len,
            max_token_len: self.max_token_len,
            keep_case: self.keep_case,
            stop_words: self.stop_words.map(|choice| choice.0),
            stop_words_file: self.stop_words_file.clone(),
            stem: self.stem.map(|choice| choice.0),
            ngrams: self.ngrams,
            char_ngrams: self.char_ngrams,
        }
    }
}
