//! Stage 1, tokenize: text → words, by Unicode word boundaries.
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
//! Pure ASCII text, most of a typical English corpus, takes a fast path that applies the same
//! UAX #29 rules to bytes; a property test checks that both paths agree on ASCII input.

mod ascii;

use unicode_segmentation::UnicodeSegmentation;

use super::Terms;
use ascii::ascii_words;

/// Appends the tokens of `text` to `out`, filtered by length in characters.
pub fn tokenize(text: &str, min_len: usize, max_len: usize, out: &mut Terms) {
    for_each_token(text, min_len, max_len, |token| out.push(token));
}

/// Calls `each` with every token of `text` that passes the length filter, in text order; the
/// allocation-free form of [`tokenize`] for callers that consume tokens one at a time.
pub fn for_each_token(text: &str, min_len: usize, max_len: usize, mut each: impl FnMut(&str)) {
    if text.is_ascii() {
        ascii_words(text, |word| {
            if (min_len..=max_len).contains(&word.len()) {
                each(word);
            }
        });
        return;
    }
    for word in text.unicode_words() {
        if keep_length(word, min_len, max_len) {
            each(word);
        }
    }
}

fn keep_length(word: &str, min_len: usize, max_len: usize) -> bool {
    let chars = if word.is_ascii() {
        word.len()
    } else {
        word.chars().count()
    };
    if chars < min_len {
        return chars == 1 && is_ideograph(word);
    }
    chars <= max_len
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
        let mut out = Terms::new();
        tokenize(text, min, 40, &mut out);
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
        let mut out = Terms::new();
        tokenize("abcd ééé abc", 1, 3, &mut out);
        assert_eq!(out.iter().collect::<Vec<_>>(), ["ééé", "abc"]);
    }
}
