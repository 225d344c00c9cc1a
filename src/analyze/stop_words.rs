//! Stage 3, stop words: drop very common words, matched on the lowercased, unstemmed word.

use rustc_hash::FxHashSet;

use super::lowercase::lowercase_word;
use super::Terms;

/// A set of stop words, stored lowercased.
#[derive(Debug, Clone, Default)]
pub struct StopSet {
    words: FxHashSet<Box<str>>,
}

impl StopSet {
    /// Builds the set; words are lowercased so matching ignores case.
    pub fn new<'a>(words: impl IntoIterator<Item = &'a str>) -> Self {
        StopSet {
            words: words.into_iter().map(|w| w.to_lowercase().into()).collect(),
        }
    }

    /// True when the set is empty and the stage can be skipped.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// True when `term` (already lowercased) is a stop word.
    pub fn contains(&self, term: &str) -> bool {
        self.words.contains(term)
    }

    /// Removes the stop words from `terms`. When the lowercase stage was turned off, terms are
    /// lowercased for the comparison only, so `The` still matches `the` but keeps its case.
    pub fn prune(&self, terms: &mut Terms, lowercased: bool, scratch: &mut Terms) {
        scratch.clear();
        let mut lower = String::new();
        for term in terms.iter() {
            if !self.is_stop(term, lowercased, &mut lower) {
                scratch.push(term);
            }
        }
        std::mem::swap(terms, scratch);
    }

    /// True when `term` is a stop word; `lower` is scratch space for lowercasing a term that
    /// was not lowercased already.
    pub(crate) fn is_stop(&self, term: &str, lowercased: bool, lower: &mut String) -> bool {
        if lowercased || !term.chars().any(char::is_uppercase) {
            return self.contains(term);
        }
        lowercase_word(term, lower);
        self.contains(lower)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prunes_listed_words_whatever_their_case() {
        let set = StopSet::new(["the", "AND", "и"]);
        let mut terms: Terms = ["the", "cat", "and", "и", "кот"].into_iter().collect();
        set.prune(&mut terms, true, &mut Terms::new());
        assert_eq!(terms.iter().collect::<Vec<_>>(), ["cat", "кот"]);
        let mut cased: Terms = ["The", "Cat", "AND"].into_iter().collect();
        set.prune(&mut cased, false, &mut Terms::new());
        assert_eq!(cased.iter().collect::<Vec<_>>(), ["Cat"]);
    }
}
