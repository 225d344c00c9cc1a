//! Target `analyzer`: the tokenizers, whose ASCII fast path works on 64-byte blocks of bit
//! masks, against `unicode_words` and against splitting at every other character than a letter,
//! digit or `_`, and the memoized analysis against the stages' documented definitions.
//!
//! The contract (`src/analyze/tokenize.rs`): tokens are exactly the `unicode_words` of the text,
//! in order, kept when their length in characters is within the limits, or when they are a single
//! ideograph; with the word-runs tokenizer, the non-empty runs of letters, digits and `_`, kept
//! when their length is within the limits. Then (`src/analyze/mod.rs`, `lowercase.rs`, `stop_words.rs`): each token is
//! lowercased character by character, dropped when it is a stop word (compared lowercased), and
//! stemmed; n-grams join the surviving words with a space, every size in text order.

use std::cell::RefCell;
use std::collections::HashMap;

use bowline::analyze::tokenize::{for_each_token, Tokens};
use bowline::analyze::{Analyzer, AnalyzerConfig, Language, StopWords, Terms, Tokenizer};
use rust_stemmers::{Algorithm, Stemmer};
use unicode_segmentation::UnicodeSegmentation;

use super::parameters;

/// The stop list the check uses when byte 2 asks for one.
const STOP_WORDS: [&str; 4] = ["the", "and", "déjà", "x"];

/// Byte 0: the shortest token (1 to 4 characters). Byte 1: the longest, up to 47 more. Byte 2:
/// flags: bit 0 lowercasing, bit 1 the text made ASCII (each byte's high bit cleared, so that
/// the fast path runs), bit 2 stop words, bit 3 English stemming, bits 4 and 5 the n-gram sizes,
/// bit 6 the word-runs tokenizer.
/// The rest is the text (invalid UTF-8 replaced).
pub fn check(data: &[u8]) {
    let ([min, max, flags], rest) = parameters::<3>(data);
    let text = if flags & 2 != 0 {
        rest.iter().map(|&b| char::from(b & 0x7F)).collect()
    } else {
        String::from_utf8_lossy(rest).into_owned()
    };
    let min = 1 + usize::from(min % 4);
    let max = min + usize::from(max % 48);
    tokens_are_unicode_words(&text, min, max);
    tokens_are_word_runs(&text, min, max);
    let ngram_min = 1 + usize::from(flags >> 4 & 1);
    let config = AnalyzerConfig {
        min_token_len: min,
        max_token_len: max,
        lowercase: flags & 1 != 0,
        stop_words: if flags & 4 != 0 {
            StopWords::Custom(STOP_WORDS.map(String::from).to_vec())
        } else {
            StopWords::None
        },
        stemmer: (flags & 8 != 0).then_some(Language::English),
        ngram_min,
        ngram_max: ngram_min + usize::from(flags >> 5 & 1),
        char_ngrams: None,
        words: true,
        tokenizer: if flags & 64 != 0 {
            Tokenizer::WordRuns
        } else {
            Tokenizer::Unicode
        },
    };
    analysis_follows_the_stages(&text, config);
}

/// The tokenizer against `unicode_words`, with no length limit and with `min..=max`.
fn tokens_are_unicode_words(text: &str, min: usize, max: usize) {
    let words: Vec<&str> = text.unicode_words().collect();
    let unicode = |min, max| tokens(text, Tokenizer::Unicode, min, max);
    assert_eq!(unicode(1, usize::MAX), words, "tokens of {text:?}");
    let kept: Vec<&str> = words
        .into_iter()
        .filter(|word| {
            let chars = word.chars().count();
            (min..=max).contains(&chars) || chars == 1 && is_ideograph(word)
        })
        .collect();
    assert_eq!(
        unicode(min, max),
        kept,
        "tokens of {text:?} in {min}..={max}"
    );
}

/// The word-runs tokenizer against splitting, with no length limit and with `min..=max`.
fn tokens_are_word_runs(text: &str, min: usize, max: usize) {
    let runs: Vec<&str> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|run| !run.is_empty())
        .collect();
    let word_runs = |min, max| tokens(text, Tokenizer::WordRuns, min, max);
    assert_eq!(word_runs(1, usize::MAX), runs, "word runs of {text:?}");
    let kept: Vec<&str> = runs
        .into_iter()
        .filter(|run| (min..=max).contains(&run.chars().count()))
        .collect();
    assert_eq!(
        word_runs(min, max),
        kept,
        "word runs of {text:?} in {min}..={max}"
    );
}

fn tokens(text: &str, tokenizer: Tokenizer, min_len: usize, max_len: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let limits = Tokens {
        tokenizer,
        min_len,
        max_len,
    };
    // The tokenizer lends slices of `text`; collecting their positions keeps that lifetime.
    for_each_token(text, limits, |token| {
        let start = token.as_ptr() as usize - text.as_ptr() as usize;
        out.push(start..start + token.len());
    });
    out.into_iter().map(|range| &text[range]).collect()
}

/// A character of the scripts UAX #29 segments one character at a time (Hiragana and the CJK
/// ideographs), as the tokenizer's documentation lists them.
fn is_ideograph(word: &str) -> bool {
    word.chars().next().is_some_and(|c| {
        matches!(c as u32, 0x3040..=0x309F | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF)
    })
}

/// The memoized analysis (`analyze`, run twice so the second run meets its memo), the staged
/// steps and the id path of fitting (`analyze_grams`) all give the reference's terms.
fn analysis_follows_the_stages(text: &str, config: AnalyzerConfig) {
    let expected = reference_terms(text, &config);
    let analyzer = Analyzer::new(config).expect("a valid analysis");
    let mut worker = analyzer.worker();
    let mut terms = Terms::new();
    let half = (0..=text.len() / 2)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    worker.analyze(&text[..half], &mut terms);
    worker.analyze(text, &mut terms);
    assert_eq!(
        terms.iter().collect::<Vec<_>>(),
        expected,
        "analysis of {text:?}"
    );
    let mut staged = Terms::new();
    for (_, step) in analyzer.steps() {
        step(&mut worker, text, &mut staged);
    }
    assert_eq!(
        staged.iter().collect::<Vec<_>>(),
        expected,
        "staged analysis of {text:?}"
    );
    // Both callbacks give ids, so they share the table.
    let ids = RefCell::new(Ids::default());
    let mut by_id = Vec::new();
    let word = |word: &str| ids.borrow_mut().word(word);
    let pair = |a, b| ids.borrow_mut().pair(a, b);
    worker.analyze_grams(text, word, pair, |id| by_id.push(id));
    let ids = ids.into_inner();
    let spelled: Vec<&str> = by_id
        .iter()
        .map(|&id| ids.text[id as usize].as_str())
        .collect();
    assert_eq!(spelled, expected, "term ids of {text:?}");
}

/// The terms of `text` by the documented stages, one after the other.
fn reference_terms(text: &str, config: &AnalyzerConfig) -> Vec<String> {
    let (min, max) = (config.min_token_len, config.max_token_len);
    let stemmer = config.stemmer.map(|_| Stemmer::create(Algorithm::English));
    let stop: Vec<String> = match &config.stop_words {
        StopWords::Custom(words) => words.iter().map(|w| lowercase(w)).collect(),
        _ => Vec::new(),
    };
    let words: Vec<String> = tokens(text, config.tokenizer, min, max)
        .into_iter()
        .map(|token| {
            if config.lowercase {
                lowercase(token)
            } else {
                token.to_string()
            }
        })
        .filter(|word| !stop.contains(&lowercase(word)))
        .map(|word| match &stemmer {
            Some(stemmer) => stemmer.stem(&word).into_owned(),
            None => word,
        })
        .collect();
    let mut out = Vec::new();
    for n in config.ngram_min..=config.ngram_max {
        out.extend(words.windows(n).map(|gram| gram.join(" ")));
    }
    out
}

/// Lowercasing character by character, with no context rules.
fn lowercase(word: &str) -> String {
    word.chars().flat_map(char::to_lowercase).collect()
}

/// Ids for words and for pairs of ids, with the text each id stands for.
#[derive(Default)]
struct Ids {
    words: HashMap<String, u32>,
    pairs: HashMap<(u32, u32), u32>,
    text: Vec<String>,
}

impl Ids {
    fn word(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.words.get(word) {
            return id;
        }
        let id = self.new_id(word.to_string());
        self.words.insert(word.to_string(), id);
        id
    }

    fn pair(&mut self, first: u32, second: u32) -> u32 {
        if let Some(&id) = self.pairs.get(&(first, second)) {
            return id;
        }
        let text = format!(
            "{} {}",
            self.text[first as usize], self.text[second as usize]
        );
        let id = self.new_id(text);
        self.pairs.insert((first, second), id);
        id
    }

    fn new_id(&mut self, text: String) -> u32 {
        self.text.push(text);
        (self.text.len() - 1) as u32
    }
}
