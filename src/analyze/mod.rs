//! Analysis: text → terms, in five stages that always run in this order:
//!
//! 1. [`tokenize`](tokenize::tokenize): Unicode word boundaries (or scikit-learn's word runs),
//!    token length limits;
//! 2. [`lowercase`](lowercase::lowercase): unless `lowercase` is off;
//! 3. stop words ([`StopSet::prune`]): matched on the lowercased, unstemmed word;
//! 4. stem ([`StemCache::stem`]): Snowball, cached per worker;
//! 5. [`ngrams`](ngrams::ngrams): word n-grams of the surviving terms.
//!
//! Each stage is a plain function over one document's [`Terms`], so it is tested without threads.
//! [`crate::flow`] wraps them as pipeline stages over batches of documents;
//! [`AnalyzerWorker::analyze`] runs them all on one text, reusing its buffers.

pub mod char_ngrams;
mod config;
pub mod lowercase;
mod memo;
pub mod ngrams;
pub(crate) mod stem;
pub(crate) mod stop_words;
mod terms;
pub mod tokenize;

pub(crate) use config::TOKENIZER_FORMAT;
pub use config::{AnalyzerConfig, Language, StopWords};
pub(crate) use memo::TokenMemo as WordMemo;
use memo::TokenMemo;
pub use stem::StemCache;
pub use stop_words::StopSet;
pub use terms::Terms;
pub use tokenize::Tokenizer;

use std::ops::Range;

use crate::error::Result;

/// How many tokens ahead of its lookup a token's memo slot is prefetched.
const PREFETCH_AHEAD: usize = 8;

/// Tokens located before they are looked up (32 KiB of keys and ranges).
const LOCATED_BLOCK: usize = 1024;

/// A validated analysis chain, shared read-only by all workers.
#[derive(Debug, Clone)]
pub struct Analyzer {
    config: AnalyzerConfig,
    stop: StopSet,
}

impl Analyzer {
    /// Validates `config` and loads its stop-word list.
    pub fn new(config: AnalyzerConfig) -> Result<Self> {
        config.validate()?;
        let stop = match &config.stop_words {
            StopWords::None => StopSet::default(),
            StopWords::Builtin(language) => StopSet::new(language.stop_words().iter().copied()),
            StopWords::Custom(words) => StopSet::new(words.iter().map(String::as_str)),
        };
        Ok(Analyzer { config, stop })
    }

    /// The configuration this analyzer was built from.
    pub fn config(&self) -> &AnalyzerConfig {
        &self.config
    }

    /// A worker with its own stem cache and scratch buffer.
    pub fn worker(&self) -> AnalyzerWorker<'_> {
        AnalyzerWorker {
            analyzer: self,
            stem: self.config.stemmer.map(|l| StemCache::new(l.stemmer())),
            scratch: Terms::new(),
            memo: TokenMemo::default(),
            id_memo: TokenMemo::default(),
            located: Vec::new(),
            tokens: Terms::new(),
            words: Vec::new(),
            grams: Vec::new(),
            key: String::new(),
            scratch_word: String::new(),
            char_starts: Vec::new(),
        }
    }

    /// The enabled steps, in order, with their names: a staged pipeline runs each in its own
    /// stage (see [`crate::flow`]); [`AnalyzerWorker::analyze`] runs them all at once.
    pub fn steps(&self) -> Vec<(&'static str, Step<'_>)> {
        let config = &self.config;
        let words = config.words;
        let steps: [(&'static str, bool, Step<'_>); 6] = [
            ("tokenize", words, AnalyzerWorker::tokenize),
            (
                "lowercase",
                words && config.lowercase,
                AnalyzerWorker::lowercase,
            ),
            (
                "stopwords",
                words && !self.stop.is_empty(),
                AnalyzerWorker::prune,
            ),
            (
                "stem",
                words && config.stemmer.is_some(),
                AnalyzerWorker::stem,
            ),
            (
                "ngrams",
                words && config.ngram_max > 1,
                AnalyzerWorker::ngrams,
            ),
            (
                "char-ngrams",
                config.char_ngrams.is_some(),
                AnalyzerWorker::char_ngrams,
            ),
        ];
        steps
            .into_iter()
            .filter(|(_, enabled, _)| *enabled)
            .map(|(name, _, step)| (name, step))
            .collect()
    }
}

/// One analysis step applied to one document: the document's text and its terms so far.
pub type Step<'a> = fn(&mut AnalyzerWorker<'a>, &str, &mut Terms);

/// Per-thread analysis state: the stem cache and a scratch buffer.
pub struct AnalyzerWorker<'a> {
    analyzer: &'a Analyzer,
    stem: Option<StemCache>,
    scratch: Terms,
    /// Token → final term (`None`: a stop word), for [`AnalyzerWorker::analyze`].
    memo: TokenMemo<Option<Box<str>>>,
    /// Token → final term's id, for [`AnalyzerWorker::analyze_grams`].
    id_memo: TokenMemo<Option<u32>>,
    /// The current document's raw tokens.
    tokens: Terms,
    /// The current document's word ids, and the ids of its n-grams of one size, for
    /// [`AnalyzerWorker::analyze_grams`].
    words: Vec<u32>,
    grams: Vec<u32>,
    /// A block of the current document's tokens, as memo keys and byte ranges, for
    /// [`AnalyzerWorker::analyze_grams`].
    located: Vec<(u128, Range<usize>)>,
    /// Buffers for a lowercased memo key (or a padded word for character n-grams) and a
    /// lowercased stop-word candidate.
    key: String,
    scratch_word: String,
    /// Where each character of a padded word starts, for character n-grams.
    char_starts: Vec<usize>,
}

impl AnalyzerWorker<'_> {
    /// Runs every stage on `text`, replacing the contents of `out` with its terms.
    ///
    /// Lowercasing, stop words and stemming each look at one token alone, so their composition is
    /// a function of the token, and it is memoized per worker: a token seen before costs one
    /// lookup instead of three stages. The staged pipeline runs the stages one by one; the
    /// property test in `tests/pipeline.rs` checks that both give identical output.
    pub fn analyze(&mut self, text: &str, out: &mut Terms) {
        out.clear();
        if self.analyzer.config.words {
            self.analyze_words(text, out);
        }
        self.char_ngrams(text, out);
    }

    /// The word terms of `text`, memoized as [`AnalyzerWorker::analyze`] says.
    fn analyze_words(&mut self, text: &str, out: &mut Terms) {
        let mut tokens = std::mem::take(&mut self.tokens);
        let mut key = std::mem::take(&mut self.key);
        self.tokenize(text, &mut tokens);
        for token in tokens.iter() {
            if let Some(term) = self.memoized(&self.memo, token, &mut key) {
                if let Some(term) = term {
                    out.push(term);
                }
                continue;
            }
            let token = self.memo_key(token, &mut key);
            let term = self.word(token);
            if let Some(term) = &term {
                out.push(term);
            }
            self.memo.insert(token, term.map(String::into_boxed_str));
        }
        self.tokens = tokens;
        self.key = key;
        self.ngrams(text, out);
    }

    /// Calls `each` for every token of `text` (after lowercasing) with what the per-word
    /// stages make of it, as `resolve` maps it and `memo` keeps it, so each distinct token is
    /// analyzed and resolved once: `resolve` gets `None` for a stop word, else the word after
    /// stop-word pruning and the term after stemming. N-grams are not formed. Corpus statistics
    /// use it to see every stage's output at the cost of one memo lookup per token.
    pub(crate) fn for_each_word<V: Copy + Default>(
        &mut self,
        text: &str,
        memo: &mut WordMemo<V>,
        mut resolve: impl FnMut(Option<(&str, &str)>) -> V,
        mut each: impl FnMut(V),
    ) {
        let mut key = std::mem::take(&mut self.key);
        let tokens = self.analyzer.config.tokens();
        tokenize::for_each_token(text, tokens, |token| {
            let value = match self.memoized(memo, token, &mut key) {
                Some(&value) => value,
                None => {
                    let token = self.memo_key(token, &mut key);
                    let stages = self.word_and_term(token);
                    let value = resolve(stages.as_ref().map(|(w, t)| (w.as_str(), t.as_str())));
                    memo.insert(token, value);
                    value
                }
            };
            each(value);
        });
        self.key = key;
    }

    /// The fast path of fitting and transforming: runs every stage on `text`, n-grams included,
    /// and calls `each` with the id of every term, in the order [`ngrams::ngrams`] gives them;
    /// returns the number of terms. Words get their ids from `id_of`; the n-gram of words
    /// `w1 .. wn` is `pair_id(id of w1 .. wn-1, id of wn)`, so an n-gram never needs its text.
    ///
    /// The memo here maps a token straight to its word's id, so a token seen before costs one
    /// lookup for analysis and counting together. Ids must therefore be stable for the worker's
    /// lifetime (the fit's interner and a fitted vocabulary give them).
    pub fn analyze_grams(
        &mut self,
        text: &str,
        id_of: impl FnMut(&str) -> u32,
        mut pair_id: impl FnMut(u32, u32) -> u32,
        mut each: impl FnMut(u32),
    ) -> u32 {
        let (min, max) = (
            self.analyzer.config.ngram_min,
            self.analyzer.config.ngram_max,
        );
        if max == 1 {
            return self.word_ids(text, id_of, each);
        }
        let (mut words, mut grams) = (
            std::mem::take(&mut self.words),
            std::mem::take(&mut self.grams),
        );
        words.clear();
        self.word_ids(text, id_of, |id| words.push(id));
        grams.clone_from(&words);
        let mut length = 0;
        for n in 1..=max {
            if n > 1 {
                // The n-grams starting at each position extend the (n − 1)-grams there by one word.
                grams.truncate(words.len().saturating_sub(n - 1));
                for (start, gram) in grams.iter_mut().enumerate() {
                    *gram = pair_id(*gram, words[start + n - 1]);
                }
            }
            if n >= min {
                grams.iter().for_each(|&id| each(id));
                length += grams.len() as u32;
            }
        }
        (self.words, self.grams) = (words, grams);
        length
    }

    /// Maps each word of `text` (a token that survives every per-word stage) to the id `id_of`
    /// gives its term, memoized per token, and calls `each` with them in text order; returns
    /// how many there were.
    ///
    /// Tokens are located a block at a time and then looked up, so that each token's memo slot
    /// can be prefetched a few tokens before its lookup (see [`TokenMemo`]); a block, not the
    /// whole document, keeps the buffer small whatever the document's size.
    fn word_ids(
        &mut self,
        text: &str,
        mut id_of: impl FnMut(&str) -> u32,
        mut each: impl FnMut(u32),
    ) -> u32 {
        let config = &self.analyzer.config;
        let (tokens, fold) = (config.tokens(), config.lowercase);
        let mut located = std::mem::take(&mut self.located);
        located.clear();
        let mut length = 0u32;
        let mut look_up = |worker: &mut Self, located: &mut Vec<(u128, Range<usize>)>| {
            length += worker.look_up_located(text, located, &mut id_of, &mut each);
            located.clear();
        };
        tokenize::for_each_token(text, tokens, |token| {
            let start = token.as_ptr() as usize - text.as_ptr() as usize;
            let key = TokenMemo::<Option<u32>>::key(token, fold);
            located.push((key, start..start + token.len()));
            if located.len() == LOCATED_BLOCK {
                look_up(self, &mut located);
            }
        });
        look_up(self, &mut located);
        self.located = located;
        length
    }

    /// The word ids of `located` tokens of `text` (memo keys and byte ranges), for
    /// [`AnalyzerWorker::word_ids`]: calls `each` with them and returns how many there were.
    fn look_up_located(
        &mut self,
        text: &str,
        located: &[(u128, Range<usize>)],
        id_of: &mut impl FnMut(&str) -> u32,
        each: &mut impl FnMut(u32),
    ) -> u32 {
        let (fold, mut key) = (
            self.analyzer.config.lowercase,
            std::mem::take(&mut self.key),
        );
        let mut length = 0u32;
        for (at, (short, range)) in located.iter().enumerate() {
            if let Some((ahead, _)) = located.get(at + PREFETCH_AHEAD) {
                self.id_memo.prefetch(*ahead);
            }
            let token = &text[range.clone()];
            let id = match self.id_memo.get_keyed(*short, token, fold, &mut key) {
                Some(&id) => id,
                None => {
                    let token = self.memo_key(token, &mut key);
                    let id = self.word(token).map(|term| id_of(&term));
                    self.id_memo.insert(token, id);
                    id
                }
            };
            if let Some(id) = id {
                each(id);
                length += 1;
            }
        }
        self.key = key;
        length
    }

    /// True when the analysis forms n-grams, so [`AnalyzerWorker::analyze`] gives more than
    /// the words' terms.
    pub(crate) fn makes_ngrams(&self) -> bool {
        self.analyzer.config.ngram_max > 1
    }

    /// The memo key of a token: the token itself, or, when lowercasing is on, the token with its
    /// ASCII capitals folded to lowercase. The chain begins by lowercasing, character by
    /// character, so both forms have the same result, and `The` and `the` share one entry.
    fn memo_key<'k>(&self, token: &'k str, key: &'k mut String) -> &'k str {
        if self.analyzer.config.lowercase {
            memo::fold_ascii(token, key)
        } else {
            token
        }
    }

    /// What `memo` holds for the memo key of `token` (see [`AnalyzerWorker::memo_key`]).
    fn memoized<'m, V: Default>(
        &self,
        memo: &'m TokenMemo<V>,
        token: &str,
        key: &mut String,
    ) -> Option<&'m V> {
        if self.analyzer.config.lowercase {
            memo.get_folded(token, key)
        } else {
            memo.get(token)
        }
    }

    /// The per-word stages applied to one token: its final term, or `None` for a stop word.
    fn word(&mut self, token: &str) -> Option<String> {
        self.word_and_term(token).map(|(_, term)| term)
    }

    /// The per-word stages applied to one token: the word after lowercasing and stop-word
    /// pruning, and its term after stemming; `None` for a stop word. Runs the same functions as
    /// the separate stages.
    fn word_and_term(&mut self, token: &str) -> Option<(String, String)> {
        let config = &self.analyzer.config;
        let mut word = String::new();
        if config.lowercase {
            lowercase::lowercase_word(token, &mut word);
        } else {
            word.push_str(token);
        }
        let stop = &self.analyzer.stop;
        if !stop.is_empty() && stop.is_stop(&word, config.lowercase, &mut self.scratch_word) {
            return None;
        }
        let term = match self.stem.as_ref() {
            Some(cache) => cache.stem_uncached(&word),
            None => word.clone(),
        };
        Some((word, term))
    }

    fn tokenize(&mut self, text: &str, terms: &mut Terms) {
        let config = &self.analyzer.config;
        terms.clear();
        tokenize::tokenize(text, config.tokens(), terms);
    }

    fn lowercase(&mut self, _: &str, terms: &mut Terms) {
        if self.analyzer.config.lowercase {
            lowercase::lowercase(terms, &mut self.scratch);
        }
    }

    fn prune(&mut self, _: &str, terms: &mut Terms) {
        if !self.analyzer.stop.is_empty() {
            let lowercased = self.analyzer.config.lowercase;
            self.analyzer
                .stop
                .prune(terms, lowercased, &mut self.scratch);
        }
    }

    fn stem(&mut self, _: &str, terms: &mut Terms) {
        if let Some(cache) = self.stem.as_mut() {
            cache.stem(terms, &mut self.scratch);
        }
    }

    fn ngrams(&mut self, _: &str, terms: &mut Terms) {
        let config = &self.analyzer.config;
        ngrams::ngrams(terms, config.ngram_min, config.ngram_max, &mut self.scratch);
    }

    /// Appends the character n-grams of `text`, if the configuration asks for them.
    fn char_ngrams(&mut self, text: &str, terms: &mut Terms) {
        let config = &self.analyzer.config;
        if let Some(range) = config.char_ngrams {
            let (word, starts) = (&mut self.key, &mut self.char_starts);
            char_ngrams::char_ngrams(text, config.lowercase, range, word, starts, terms);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn analyze(config: AnalyzerConfig, text: &str) -> Vec<String> {
        let analyzer = Analyzer::new(config).unwrap();
        let mut terms = Terms::new();
        analyzer.worker().analyze(text, &mut terms);
        terms.iter().map(str::to_string).collect()
    }

    /// The English stop list and stemmer, on words alone.
    fn english_words() -> AnalyzerConfig {
        AnalyzerConfig {
            stop_words: StopWords::Builtin(Language::English),
            ngram_max: 1,
            ..AnalyzerConfig::default()
        }
    }

    #[test]
    fn a_stop_list_prunes_before_the_stemmer_stems() {
        let text = "The Runners were running quickly to the Stations, weren't they?";
        assert_eq!(
            analyze(english_words(), text),
            ["runner", "run", "quick", "station"]
        );
    }

    #[test]
    fn the_default_keeps_every_word_stemmed_and_their_pairs() {
        assert_eq!(
            analyze(AnalyzerConfig::default(), "Not running at all"),
            ["not", "run", "at", "all", "not run", "run at", "at all"]
        );
    }

    #[test]
    fn bigrams_form_after_pruning_and_case_can_be_kept() {
        let config = AnalyzerConfig {
            stemmer: None,
            ngram_max: 2,
            ..english_words()
        };
        assert_eq!(
            analyze(config, "the New York times"),
            ["new", "york", "times", "new york", "york times"]
        );
        let keep_case = AnalyzerConfig {
            lowercase: false,
            stemmer: None,
            ..english_words()
        };
        assert_eq!(analyze(keep_case, "The New York"), ["New", "York"]);
    }

    #[test]
    fn steps_follow_the_config() {
        let analyzer = Analyzer::new(AnalyzerConfig {
            stop_words: StopWords::None,
            stemmer: None,
            ngram_max: 1,
            ..AnalyzerConfig::default()
        })
        .unwrap();
        let names: Vec<_> = analyzer.steps().iter().map(|(name, _)| *name).collect();
        assert_eq!(names, ["tokenize", "lowercase"]);
    }

    #[test]
    fn word_ids_of_a_document_longer_than_a_block_follow_its_terms() {
        let words = [
            "Running",
            "the",
            "STATIONS",
            "cafés",
            "e.g",
            "Straßenbahnhaltestellen",
        ];
        let text: Vec<String> = (0..3 * LOCATED_BLOCK + 5)
            .map(|i| format!("{}{}", words[i % words.len()], i % 7))
            .collect();
        let text = text.join(" ");
        let analyzer = Analyzer::new(english_words()).unwrap();
        let mut worker = analyzer.worker();
        let mut terms = Terms::new();
        worker.analyze(&text, &mut terms);
        let mut spelled: Vec<String> = Vec::new();
        let mut id_of = |term: &str| match spelled.iter().position(|t| t == term) {
            Some(at) => at as u32,
            None => {
                spelled.push(term.to_string());
                spelled.len() as u32 - 1
            }
        };
        let mut ids = Vec::new();
        let length = worker.analyze_grams(&text, &mut id_of, |_, _| 0, |id| ids.push(id));
        assert_eq!(length as usize, ids.len());
        let by_id: Vec<&str> = ids
            .iter()
            .map(|&id| spelled[id as usize].as_str())
            .collect();
        assert_eq!(by_id, terms.iter().collect::<Vec<_>>());
        assert_eq!(ids.len(), 3 * LOCATED_BLOCK + 5);
    }
}
