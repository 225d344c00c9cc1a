//! [`AnalyzerConfig`]: every analysis parameter, validated in one place and saved with models.

use serde::{Deserialize, Serialize};

use super::tokenize::{Tokenizer, Tokens};
use crate::choice::Choice;
use crate::error::{Error, Result};

/// A language with a Snowball stemmer and an NLTK stop-word list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[allow(missing_docs)]
pub enum Language {
    Arabic,
    Danish,
    Dutch,
    English,
    Finnish,
    French,
    German,
    Greek,
    Hungarian,
    Italian,
    Norwegian,
    Portuguese,
    Romanian,
    Russian,
    Spanish,
    Swedish,
    Tamil,
    Turkish,
}

impl Choice for Language {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        ("arabic", "Arabic", Language::Arabic),
        ("danish", "Danish", Language::Danish),
        ("dutch", "Dutch", Language::Dutch),
        ("english", "English", Language::English),
        ("finnish", "Finnish", Language::Finnish),
        ("french", "French", Language::French),
        ("german", "German", Language::German),
        ("greek", "Greek", Language::Greek),
        ("hungarian", "Hungarian", Language::Hungarian),
        ("italian", "Italian", Language::Italian),
        ("norwegian", "Norwegian", Language::Norwegian),
        ("portuguese", "Portuguese", Language::Portuguese),
        ("romanian", "Romanian", Language::Romanian),
        ("russian", "Russian", Language::Russian),
        ("spanish", "Spanish", Language::Spanish),
        ("swedish", "Swedish", Language::Swedish),
        ("tamil", "Tamil", Language::Tamil),
        ("turkish", "Turkish", Language::Turkish),
    ];
}

impl Language {
    /// The Snowball algorithm for this language.
    pub fn stemmer(self) -> rust_stemmers::Algorithm {
        use rust_stemmers::Algorithm as A;
        match self {
            Language::Arabic => A::Arabic,
            Language::Danish => A::Danish,
            Language::Dutch => A::Dutch,
            Language::English => A::English,
            Language::Finnish => A::Finnish,
            Language::French => A::French,
            Language::German => A::German,
            Language::Greek => A::Greek,
            Language::Hungarian => A::Hungarian,
            Language::Italian => A::Italian,
            Language::Norwegian => A::Norwegian,
            Language::Portuguese => A::Portuguese,
            Language::Romanian => A::Romanian,
            Language::Russian => A::Russian,
            Language::Spanish => A::Spanish,
            Language::Swedish => A::Swedish,
            Language::Tamil => A::Tamil,
            Language::Turkish => A::Turkish,
        }
    }

    /// The ISO 639-1 code, which names the NLTK stop-word list.
    pub(crate) fn iso_code(self) -> &'static str {
        match self {
            Language::Arabic => "ar",
            Language::Danish => "da",
            Language::Dutch => "nl",
            Language::English => "en",
            Language::Finnish => "fi",
            Language::French => "fr",
            Language::German => "de",
            Language::Greek => "el",
            Language::Hungarian => "hu",
            Language::Italian => "it",
            Language::Norwegian => "no",
            Language::Portuguese => "pt",
            Language::Romanian => "ro",
            Language::Russian => "ru",
            Language::Spanish => "es",
            Language::Swedish => "sv",
            Language::Tamil => "ta",
            Language::Turkish => "tr",
        }
    }

    /// The NLTK stop-word list (from the `stop-words` crate).
    pub fn stop_words(self) -> &'static [&'static str] {
        stop_words::lookup(self.iso_code()).unwrap_or(&[])
    }
}

/// Which stop words to remove.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StopWords {
    /// Keep every word.
    None,
    /// The NLTK list of a language.
    Builtin(Language),
    /// A user's list, stored in full so a saved model does not depend on the file.
    Custom(Vec<String>),
}

/// Every parameter of the analysis chain. Serialized with every vectorizer and model, so text is
/// always analyzed the way the model was trained.
///
/// Stages run in this order: tokenize, lowercase, stop words, stem, n-grams. Stop words are
/// matched before stemming (lists hold whole words) and n-grams are formed after pruning, so
/// `"the cat"` never becomes a bigram with `the`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzerConfig {
    /// Shortest token kept, in characters; default 2, range 1..=`max_token_len`. A single
    /// ideograph is kept whatever this says.
    pub min_token_len: usize,
    /// Longest token kept, in characters; default 40 (longer "words" are mostly uuencoded data,
    /// hashes and URLs run together).
    pub max_token_len: usize,
    /// Lowercase every token; default true.
    pub lowercase: bool,
    /// Stop words to remove; default none (lists remove words such as "not" and "no" that
    /// carry the meaning of short opinions).
    pub stop_words: StopWords,
    /// Snowball stemmer; default English. `None` keeps words as they are.
    pub stemmer: Option<Language>,
    /// Smallest n-gram size; default 1, range 1..=`ngram_max`.
    pub ngram_min: usize,
    /// Largest n-gram size; default 2 (words and word pairs), range `ngram_min`..=8.
    pub ngram_max: usize,
    /// Character n-grams, `(min, max)` characters, of each whitespace-separated word padded with
    /// a space on each side, as scikit-learn's `analyzer='char_wb'` forms them; default none.
    /// They come from the text itself, lowercased if `lowercase` is on: stop words, stemming and
    /// token lengths do not apply to them.
    #[serde(default)]
    pub char_ngrams: Option<(usize, usize)>,
    /// Make word terms (words and word n-grams); default true. Off, a document's terms are its
    /// character n-grams alone.
    #[serde(default = "yes")]
    pub words: bool,
    /// How text is split into tokens; default [`Tokenizer::Unicode`]. Written to a model file
    /// only when it is not the default (from format 14).
    #[serde(default, skip_serializing_if = "Tokenizer::is_unicode")]
    pub tokenizer: Tokenizer,
}

/// The model format that added the tokenizer: a file of it or later holds the tokenizer, the
/// default too, at the end of the analysis (see the model format's history, `model/format`).
pub(crate) const TOKENIZER_FORMAT: u32 = 14;

fn yes() -> bool {
    true
}

impl Default for AnalyzerConfig {
    /// The analysis chosen by cross-validation on the training data of five corpora (see
    /// [`Kind::default_analysis`](crate::model::Kind::default_analysis)).
    fn default() -> Self {
        AnalyzerConfig {
            min_token_len: 2,
            max_token_len: 40,
            lowercase: true,
            stop_words: StopWords::None,
            stemmer: Some(Language::English),
            ngram_min: 1,
            ngram_max: 2,
            char_ngrams: None,
            words: true,
            tokenizer: Tokenizer::Unicode,
        }
    }
}

/// Longest n-gram accepted: beyond this, vocabularies explode without helping classification.
pub(crate) const MAX_NGRAM: usize = 8;

/// Longest character n-gram accepted, in characters.
pub(crate) const MAX_CHAR_NGRAM: usize = 16;

impl AnalyzerConfig {
    /// Checks every parameter; the only place they are checked.
    pub fn validate(&self) -> Result<()> {
        if self.min_token_len == 0 || self.min_token_len > self.max_token_len {
            return Err(Error::Config(format!(
                "--min-token-len {} and --max-token-len {} must satisfy 1 <= min <= max",
                self.min_token_len, self.max_token_len
            )));
        }
        if self.ngram_min == 0 || self.ngram_min > self.ngram_max || self.ngram_max > MAX_NGRAM {
            return Err(Error::Config(format!(
                "--ngrams {}..{} must satisfy 1 <= MIN <= MAX <= {MAX_NGRAM}",
                self.ngram_min, self.ngram_max
            )));
        }
        if let Some((min, max)) = self.char_ngrams {
            if min == 0 || min > max || max > MAX_CHAR_NGRAM {
                return Err(Error::Config(format!(
                    "--char-ngrams {min}..{max} must satisfy 1 <= MIN <= MAX <= \
                     {MAX_CHAR_NGRAM}"
                )));
            }
        }
        if !self.words && self.char_ngrams.is_none() {
            return Err(Error::Config(
                "an analysis without words needs character n-grams".into(),
            ));
        }
        Ok(())
    }

    /// Whether every term is a word or a word n-gram, so that terms can be counted by the ids
    /// of their words without their text (see `AnalyzerWorker::analyze_grams`).
    pub(crate) fn words_only(&self) -> bool {
        self.words && self.char_ngrams.is_none()
    }

    /// How tokens are found and which are kept.
    pub fn tokens(&self) -> Tokens {
        Tokens {
            tokenizer: self.tokenizer,
            min_len: self.min_token_len,
            max_len: self.max_token_len,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_stop_words_and_round_trips() {
        for &(.., language) in Language::CHOICES {
            assert!(language.stop_words().len() > 20, "{language:?}");
        }
        let config = AnalyzerConfig {
            stop_words: StopWords::Custom(vec!["foo".into()]),
            ..AnalyzerConfig::default()
        };
        let json = serde_json::to_string(&config).unwrap();
        assert_eq!(
            serde_json::from_str::<AnalyzerConfig>(&json).unwrap(),
            config
        );
    }

    #[test]
    fn ranges_are_validated() {
        assert!(AnalyzerConfig::default().validate().is_ok());
        let bad_tokens = AnalyzerConfig {
            min_token_len: 5,
            max_token_len: 4,
            ..AnalyzerConfig::default()
        };
        assert!(bad_tokens.validate().is_err());
        let bad_ngrams = AnalyzerConfig {
            ngram_min: 2,
            ngram_max: 1,
            ..AnalyzerConfig::default()
        };
        assert!(bad_ngrams.validate().is_err());
    }
}
