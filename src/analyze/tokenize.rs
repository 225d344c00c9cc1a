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

use unicode_segmentation::UnicodeSegmentation;

use super::Terms;

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

// Word-break classes of ASCII bytes under UAX #29, as bit flags in a table, so the hot loop does
// one load and one mask per byte instead of a branchy match.
/// ALetter: A-Z, a-z.
const LETTER: u8 = 1;
/// Numeric: 0-9.
const DIGIT: u8 = 2;
/// ExtendNumLet `_`: joins anything word-like on either side.
const CONNECTOR: u8 = 4;
/// MidLetter `:`: joins two letters.
const MID_LETTER: u8 = 8;
/// MidNumLet `.` and Single_Quote `'`: join two letters or two digits.
const MID_BOTH: u8 = 16;
/// MidNum `,` and `;`: join two digits.
const MID_NUM: u8 = 32;
const WORD: u8 = LETTER | DIGIT | CONNECTOR;

const CLASSES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        let b = byte as u8;
        table[byte] = match b {
            b'a'..=b'z' | b'A'..=b'Z' => LETTER,
            b'0'..=b'9' => DIGIT,
            b'_' => CONNECTOR,
            b':' => MID_LETTER,
            b'.' | b'\'' => MID_BOTH,
            b',' | b';' => MID_NUM,
            _ => 0,
        };
        byte += 1;
    }
    table
};

/// Calls `emit` with each UAX #29 word of ASCII `text` that holds a letter or digit, exactly as
/// `unicode_words` would: runs of letters, digits and `_` (WB5, WB8-WB10, WB13a/b), joined across
/// one middle character between two letters (WB6/7) or two digits (WB11/12).
fn ascii_words(text: &str, mut emit: impl FnMut(&str)) {
    let bytes = text.as_bytes();
    let class = |i: usize| CLASSES[bytes[i] as usize];
    let mut i = 0;
    while i < bytes.len() {
        if class(i) & WORD == 0 {
            i += 1;
            continue;
        }
        let start = i;
        let mut alphanumeric = false;
        loop {
            while i < bytes.len() && class(i) & WORD != 0 {
                alphanumeric |= class(i) & (LETTER | DIGIT) != 0;
                i += 1;
            }
            if i + 1 < bytes.len() && joins(class(i - 1), class(i), class(i + 1)) {
                i += 1;
                continue;
            }
            break;
        }
        if alphanumeric {
            emit(&text[start..i]);
        }
    }
}

/// True when `middle` keeps `before` and `after` in one word (WB6/7, WB11/12).
fn joins(before: u8, middle: u8, after: u8) -> bool {
    let letters = before & after & LETTER != 0 && middle & (MID_LETTER | MID_BOTH) != 0;
    let digits = before & after & DIGIT != 0 && middle & (MID_NUM | MID_BOTH) != 0;
    letters || digits
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
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn ascii_fast_path_agrees_with_unicode_words(text in "[a-cA-C0-2_:.',; \n\r\t@!-]{0,40}") {
            let mut fast = Vec::new();
            ascii_words(&text, |w| fast.push(w.to_string()));
            let slow: Vec<String> = text.unicode_words().map(str::to_string).collect();
            prop_assert_eq!(fast, slow);
        }
    }

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
