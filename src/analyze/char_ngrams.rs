//! Character n-grams within word boundaries, as scikit-learn's `analyzer='char_wb'` forms them.
//!
//! The text is split at white space; each word, lowercased when asked, is padded with one space
//! on each side, and its n-grams of every size from `min` to `max` characters are taken in
//! order. A padded word no longer than `n` characters gives itself once, and no longer n-grams
//! (scikit-learn's rule, kept so that the two agree term for term). Character n-grams suit
//! short, noisy or misspelled text and languages without a stemmer: "free", "fre3" and "freee"
//! share most of theirs.

use super::Terms;

/// Appends the character n-grams of `text` to `out`; `word` and `starts` are scratch buffers.
pub fn char_ngrams(
    text: &str,
    lowercase: bool,
    (min, max): (usize, usize),
    word: &mut String,
    starts: &mut Vec<usize>,
    out: &mut Terms,
) {
    for raw in text.split_whitespace() {
        word.clear();
        word.push(' ');
        if lowercase && raw.is_ascii() {
            word.extend(raw.chars().map(|c| c.to_ascii_lowercase()));
        } else if lowercase {
            // The whole word at once: a final sigma lowercases by its place in the word.
            word.push_str(&raw.to_lowercase());
        } else {
            word.push_str(raw);
        }
        word.push(' ');
        starts.clear();
        starts.extend(word.char_indices().map(|(i, _)| i));
        starts.push(word.len());
        let chars = starts.len() - 1;
        for n in min..=max {
            let mut offset = 0;
            out.push(&word[..starts[n.min(chars)]]);
            while offset + n < chars {
                offset += 1;
                out.push(&word[starts[offset]..starts[offset + n]]);
            }
            if offset == 0 {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grams(text: &str, range: (usize, usize)) -> Vec<String> {
        let mut out = Terms::new();
        char_ngrams(
            text,
            true,
            range,
            &mut String::new(),
            &mut Vec::new(),
            &mut out,
        );
        out.iter().map(str::to_string).collect()
    }

    #[test]
    fn words_are_padded_and_cut_as_char_wb_does() {
        assert_eq!(
            grams("Hi  fox", (2, 3)),
            [" h", "hi", "i ", " hi", "hi ", " f", "fo", "ox", "x ", " fo", "fox", "ox "]
        );
        // " a " has three characters: at n = 3 it is itself, and n = 4 is never reached.
        assert_eq!(grams("a", (1, 4)), [" ", "a", " ", " a", "a ", " a "]);
        assert_eq!(grams("Été", (4, 5)), [" été", "été ", " été "]);
        assert!(grams(" \t\n", (2, 5)).is_empty());
    }
}
