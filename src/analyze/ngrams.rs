//! Stage 5, n-grams: word n-grams of sizes `min..=max`, formed after stop-word pruning.

use super::Terms;

/// Joins the words of an n-gram. Tokens never contain whitespace (UAX #29 words do not), so a
/// space cannot be confused with a character inside a token.
pub(crate) const NGRAM_SEPARATOR: char = ' ';

/// Replaces `terms` by all its n-grams with `min <= n <= max`: every unigram first (when
/// `min == 1`), then every bigram, and so on, each size in text order.
pub fn ngrams(terms: &mut Terms, min: usize, max: usize, scratch: &mut Terms) {
    if min == 1 && max == 1 {
        return;
    }
    scratch.clear();
    for n in min..=max {
        for start in 0..terms.len().saturating_sub(n - 1) {
            for offset in 0..n {
                if offset > 0 {
                    scratch.push_char(NGRAM_SEPARATOR);
                }
                scratch.push_piece(terms.get(start + offset));
            }
            scratch.end_term();
        }
    }
    std::mem::swap(terms, scratch);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grams(words: &[&str], min: usize, max: usize) -> Vec<String> {
        let mut terms: Terms = words.iter().copied().collect();
        ngrams(&mut terms, min, max, &mut Terms::new());
        terms.iter().map(str::to_string).collect()
    }

    #[test]
    fn sizes_in_order() {
        assert_eq!(grams(&["a", "b", "c"], 1, 2), ["a", "b", "c", "a b", "b c"]);
        assert_eq!(grams(&["a", "b", "c"], 2, 3), ["a b", "b c", "a b c"]);
        assert_eq!(grams(&["a"], 2, 2), Vec::<String>::new());
        assert_eq!(grams(&["a", "b"], 1, 1), ["a", "b"]);
    }
}
