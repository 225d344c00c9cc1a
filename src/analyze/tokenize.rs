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
    if text.is_ascii() {
        ascii_words(text, |word| {
            if (min_len..=max_len).contains(&word.len()) {
                out.push(word);
            }
        });
        return;
    }
    for word in text.unicode_words() {
        if keep_length(word, min_len, max_len) {
            out.push(word);
        }
    }
}

/// Word-break classes of ASCII bytes under UAX #29.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// ALetter: A-Z, a-z.
    Letter,
    /// Numeric: 0-9.
    Digit,
    /// ExtendNumLet: `_`, which joins anything word-like on either side.
    Connector,
    /// MidLetter `:` joins letters only.
    MidLetter,
    /// MidNumLet `.` and Single_Quote `'` join letters with letters and digits with digits.
    MidBoth,
    /// MidNum `,` and `;` join digits only.
    MidNum,
    Other,
}

fn class(byte: u8) -> Class {
    match byte {
        b'a'..=b'z' | b'A'..=b'Z' => Class::Letter,
        b'0'..=b'9' => Class::Digit,
        b'_' => Class::Connector,
        b':' => Class::MidLetter,
        b'.' | b'\'' => Class::MidBoth,
        b',' | b';' => Class::MidNum,
        _ => Class::Other,
    }
}

/// Calls `emit` with each UAX #29 word of ASCII `text` that holds a letter or digit, exactly as
/// `unicode_words` would: runs of letters, digits and `_` (WB5, WB8-WB10, WB13a/b), joined across
/// one middle character between two letters (WB6/7) or two digits (WB11/12).
fn ascii_words(text: &str, mut emit: impl FnMut(&str)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !matches!(
            class(bytes[i]),
            Class::Letter | Class::Digit | Class::Connector
        ) {
            i += 1;
            continue;
        }
        let start = i;
        let mut alphanumeric = false;
        loop {
            let here = class(bytes[i]);
            alphanumeric |= here != Class::Connector;
            let Some(&next) = bytes.get(i + 1) else { break };
            match class(next) {
                Class::Letter | Class::Digit | Class::Connector => i += 1,
                middle @ (Class::MidLetter | Class::MidBoth | Class::MidNum) => {
                    let after = bytes.get(i + 2).map(|&b| class(b));
                    let joins = match (here, middle) {
                        (Class::Letter, Class::MidLetter | Class::MidBoth) => {
                            after == Some(Class::Letter)
                        }
                        (Class::Digit, Class::MidNum | Class::MidBoth) => {
                            after == Some(Class::Digit)
                        }
                        _ => false,
                    };
                    if !joins {
                        break;
                    }
                    i += 2;
                }
                Class::Other => break,
            }
        }
        i += 1;
        if alphanumeric {
            emit(&text[start..i]);
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
