//! Stage 1, tokenize: text → words, by Unicode word boundaries unless asked otherwise.
//!
//! Words are the segments of UAX #29 (unicode-segmentation's `unicode_words`) that contain a
//! letter or digit; punctuation and spaces between them are dropped. What that means in practice:
//! - apostrophes inside a word keep it whole: `can't`, `o'clock`, `l'homme` are one token each;
//! - a period between letters or between digits keeps it whole: `e.g` (the final period is
//!   dropped), `u.s.a`, `3.14`, `1,000`; a period followed by a space ends the word;
//! - `_` joins: `snake_case` is one token;
//! - an e-mail address splits at `@`: `john.doe@example.com` gives `john.doe` and `example.com`;
//! - numbers are kept;
//! - Han ideographs and Hiragana are one token per character (UAX #29 has no dictionary).
//!
//! Tokens shorter than `min_token_len` or longer than `max_token_len` characters are dropped,
//! except that a single ideograph is kept whatever the minimum, since in CJK text it is a word.
//!
//! The other tokenizer, [`Tokenizer::WordRuns`], takes maximal runs of letters, digits and `_`
//! as scikit-learn's default token pattern does, so that bowline can be given scikit-learn's
//! features exactly; it keeps no single ideograph below the minimum, as that pattern does not.
//!
//! Pure ASCII text, most of a typical English corpus, takes a fast path that applies the same
//! rules to bytes; property tests check that both paths agree on ASCII input.

mod ascii;

use serde::{Deserialize, Serialize};
use unicode_segmentation::UnicodeSegmentation;

use super::Terms;
use crate::choice::Choice;
use ascii::ascii_words;

/// How text is split into tokens.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tokenizer {
    /// Words by Unicode word boundaries (UAX #29): `can't`, `3.14` and `e.g` stay whole, and an
    /// ideograph is a word of its own.
    #[default]
    Unicode,
    /// Maximal runs of letters, digits and `_`, as scikit-learn's default `token_pattern`
    /// (`(?u)\b\w\w+\b` with a shortest token of 2) finds them: `can't` gives `can` and `t`,
    /// `3.14` gives `3` and `14`. Letters and digits are those of Rust's
    /// [`char::is_alphanumeric`], which also counts the combining signs of the Alphabetic
    /// property (Devanagari vowel signs, for one) that Python's `\w` leaves out.
    WordRuns,
}

impl Tokenizer {
    /// Whether this is the default, which a saved model leaves out so that its file is as before
    /// the choice existed.
    pub(crate) fn is_unicode(&self) -> bool {
        *self == Tokenizer::Unicode
    }
}

impl Choice for Tokenizer {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        (
            "unicode",
            "words by Unicode word boundaries (can't, 3.14 and e.g stay whole)",
            Tokenizer::Unicode,
        ),
        (
            "word-runs",
            "runs of letters, digits and _, as scikit-learn's default token_pattern",
            Tokenizer::WordRuns,
        ),
    ];
}

/// How tokens are found and which are kept: the tokenizer, and the shortest and longest token
/// kept, in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tokens {
    /// How text is split.
    pub tokenizer: Tokenizer,
    /// Shortest token kept.
    pub min_len: usize,
    /// Longest token kept.
    pub max_len: usize,
}

/// Appends the tokens of `text` to `out`.
pub fn tokenize(text: &str, tokens: Tokens, out: &mut Terms) {
    for_each_token(text, tokens, |token| out.push(token));
}

/// Calls `each` with every token of `text` that `tokens` keeps, in text order; the
/// allocation-free form of [`tokenize`] for callers that consume tokens one at a time.
pub fn for_each_token(text: &str, tokens: Tokens, mut each: impl FnMut(&str)) {
    let Tokens {
        tokenizer,
        min_len,
        max_len,
    } = tokens;
    if text.is_ascii() {
        ascii_words(text, tokenizer == Tokenizer::Unicode, |word| {
            if (min_len..=max_len).contains(&word.len()) {
                each(word);
            }
        });
        return;
    }
    let keep = |word: &str| {
        if keep_length(word, tokens) {
            each(word);
        }
    };
    match tokenizer {
        Tokenizer::Unicode => text.unicode_words().for_each(keep),
        Tokenizer::WordRuns => text
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|run| !run.is_empty())
            .for_each(keep),
    }
}

fn keep_length(word: &str, tokens: Tokens) -> bool {
    let chars = if word.is_ascii() {
        word.len()
    } else {
        word.chars().count()
    };
    if chars < tokens.min_len {
        return chars == 1 && tokens.tokenizer == Tokenizer::Unicode && is_ideograph(word);
    }
    chars <= tokens.max_len
}

/// True for a one-character word from a script that UAX #29 segments per character.
fn is_ideograph(word: &str) -> bool {
    word.chars().next().is_some_and(|c| {
        matches!(c as u32,
            0x3040..=0x309F       // Hiragana
            | 0x3400..=0x4DBF     // CJK Extension A
            | 0x4E00..=0x9FFF     // CJK Unified Ideographs
            | 0xF900..=0xFAFF     // CJK Compatibility Ideographs
            | 0x20000..=0x3FFFF) // CJK Extensions B and later
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str, min: usize) -> Vec<String> {
        tokens_of(text, Tokenizer::Unicode, min, 40)
    }

    fn tokens_of(text: &str, tokenizer: Tokenizer, min_len: usize, max_len: usize) -> Vec<String> {
        let mut out = Terms::new();
        let tokens = Tokens {
            tokenizer,
            min_len,
            max_len,
        };
        tokenize(text, tokens, &mut out);
        out.iter().map(str::to_string).collect()
    }

    #[test]
    fn words_numbers_and_inner_punctuation() {
        assert_eq!(
            toks(
                "Can't stop, e.g. at 3.14 or 1,000 -- john.doe@example.com a_b!",
                1
            ),
            [
                "Can't",
                "stop",
                "e.g",
                "at",
                "3.14",
                "or",
                "1,000",
                "john.doe",
                "example.com",
                "a_b"
            ]
        );
    }

    #[test]
    fn accented_latin_cyrillic_cjk_and_emoji() {
        assert_eq!(
            toks("Ça déjà vu, naïve café", 2),
            ["Ça", "déjà", "vu", "naïve", "café"]
        );
        assert_eq!(toks("Привет, мир! Ёлка", 2), ["Привет", "мир", "Ёлка"]);
        assert_eq!(toks("東京は晴れ", 2), ["東", "京", "は", "晴", "れ"]);
        // Emoji carry no letter or digit, so they are not words.
        assert_eq!(toks("good 👍 job 🎉🎉", 2), ["good", "job"]);
    }

    #[test]
    fn length_limits_count_characters() {
        assert_eq!(toks("a ab abc é éé", 2), ["ab", "abc", "éé"]);
        let kept = tokens_of("abcd ééé abc", Tokenizer::Unicode, 1, 3);
        assert_eq!(kept, ["ééé", "abc"]);
    }

    #[test]
    fn word_runs_split_where_scikit_learns_pattern_does() {
        // re.findall(r"(?u)\b\w\w+\b", text) gives these tokens, "__" included.
        let text = "Can't stop, e.g. at 3.14 or 1,000 -- john.doe@example.com a_b! __ x";
        let expected = [
            "Can", "stop", "at", "14", "or", "000", "john", "doe", "example", "com", "a_b", "__",
        ];
        assert_eq!(tokens_of(text, Tokenizer::WordRuns, 2, 40), expected);
        // The same text with one non-ASCII word takes the other path to the same tokens.
        let accented = format!("{text} déjà");
        let mut with_accent = expected.map(str::to_string).to_vec();
        with_accent.push("déjà".into());
        assert_eq!(
            tokens_of(&accented, Tokenizer::WordRuns, 2, 40),
            with_accent
        );
    }

    #[test]
    fn word_runs_keep_no_single_ideograph_and_join_scripts_without_spaces() {
        assert_eq!(
            tokens_of("東京は晴れ 雨。x", Tokenizer::WordRuns, 2, 40),
            ["東京は晴れ"]
        );
        assert_eq!(
            tokens_of("Привет, мир! Ёлка", Tokenizer::WordRuns, 4, 5),
            ["Ёлка"]
        );
    }
}
