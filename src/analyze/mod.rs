//! Analysis: text → terms, in five stages that always run in this order:
//!
//! 1. [`tokenize`](tokenize::tokenize): Unicode word boundaries, token length limits;
//! 2. [`lowercase`](lowercase::lowercase): unless `lowercase` is off;
//! 3. stop words ([`StopSet::prune`]): matched on the lowercased, unstemmed word;
//! 4. stem ([`StemCache::stem`]): Snowball, cached per worker;
//! 5. [`ngrams`](ngrams::ngrams): word n-grams of the surviving terms.
//!
//! Each stage is a plain function over one document's [`Terms`], so it is tested without threads.
//! [`Analyzer::stages`] wraps them as pipeline stages over batches of [`Analyzed`] items;
//! [`AnalyzerWorker::analyze`] runs them all on one text, reusing its buffers.

mod config;
pub mod lowercase;
pub mod ngrams;
pub mod stem;
pub mod stop_words;
mod terms;
pub mod tokenize;

pub use config::{AnalyzerConfig, Language, StopWords, MAX_NGRAM};
pub use stem::StemCache;
pub use stop_words::StopSet;
pub use terms::Terms;

use rustc_hash::FxHashMap;

use crate::corpus::{load_pending, Entries, Entry};
use crate::error::Result;
use crate::pipeline::{Layout, PipelineConfig, Stage, StageStats};
use crate::vectorize::Counted;

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
            memo: FxHashMap::default(),
            tokens: Terms::new(),
            one: Terms::new(),
        }
    }

    /// The analysis as pipeline stages, after a read stage that loads pending files (documents
    /// longer than `max_doc_bytes` are truncated there).
    ///
    /// Separate stages (`fused == false`) are one per enabled step, each in its own threads; a
    /// fused analysis is one stage that runs [`AnalyzerWorker::analyze`], with its memo.
    pub fn stages(&self, max_doc_bytes: u64, fused: bool) -> Vec<Stage<'_, Analyzed>> {
        let read = Stage::new("read", move || {
            Box::new(move |batch: &mut Vec<Analyzed>| {
                for item in batch.iter_mut() {
                    load_pending(&mut item.entry, max_doc_bytes);
                }
                Ok(0)
            })
        });
        if fused {
            return vec![read, self.step_stage("analyze", AnalyzerWorker::analyze)];
        }
        let config = &self.config;
        let steps: [(&'static str, bool, Step<'_>); 5] = [
            ("tokenize", true, AnalyzerWorker::tokenize),
            ("lowercase", config.lowercase, AnalyzerWorker::lowercase),
            ("stopwords", !self.stop.is_empty(), AnalyzerWorker::prune),
            ("stem", config.stemmer.is_some(), AnalyzerWorker::stem),
            ("ngrams", config.ngram_max > 1, AnalyzerWorker::ngrams),
        ];
        let mut stages = vec![read];
        for (name, enabled, step) in steps {
            if enabled {
                stages.push(self.step_stage(name, step));
            }
        }
        stages
    }

    /// Reads and analyzes `entries` on the pipeline's threads and hands every entry, analyzed
    /// and in input order, to `each` on the calling thread. Entries that are not documents
    /// (failed, binary) come through too, with no terms, so the caller can report them in order.
    ///
    /// `then` are stages to run after analysis on the same threads, such as counting.
    pub fn run<'a>(
        &'a self,
        entries: Entries,
        pipeline: &PipelineConfig,
        max_doc_bytes: u64,
        then: Vec<Stage<'a, Analyzed>>,
        mut each: impl FnMut(Analyzed) -> Result<()>,
    ) -> Result<Vec<StageStats>> {
        let source = entries.map(Analyzed::from);
        let fused = matches!(pipeline.layout, Layout::Fused { .. });
        let mut stages = self.stages(max_doc_bytes, fused);
        stages.extend(then);
        crate::pipeline::run(pipeline, source, stages, |batch| {
            batch.into_iter().try_for_each(&mut each)
        })
    }

    fn step_stage<'a>(&'a self, name: &'static str, step: Step<'a>) -> Stage<'a, Analyzed> {
        Stage::new(name, move || {
            let mut worker = self.worker();
            Box::new(move |batch: &mut Vec<Analyzed>| {
                let mut units = 0;
                for item in batch.iter_mut().filter(|item| item.entry.is_document()) {
                    step(&mut worker, &item.entry.doc.text, &mut item.terms);
                    units += item.terms.len() as u64;
                }
                Ok(units)
            })
        })
    }
}

/// One stage applied to one document: the document's text and its terms so far.
type Step<'a> = fn(&mut AnalyzerWorker<'a>, &str, &mut Terms);

/// A document in the pipeline: what was read, and its terms once analyzed.
#[derive(Debug, Default)]
pub struct Analyzed {
    /// The input entry, with its document and read notes.
    pub entry: Entry,
    /// The document's terms; filled by the tokenize stage and rewritten by the later ones.
    pub terms: Terms,
    /// The terms counted over a vocabulary, by a counting stage of [`crate::vectorize`] that runs
    /// after analysis.
    pub counted: Counted,
}

impl From<Entry> for Analyzed {
    fn from(entry: Entry) -> Self {
        Analyzed {
            entry,
            ..Analyzed::default()
        }
    }
}

/// Per-thread analysis state: the stem cache and a scratch buffer.
pub struct AnalyzerWorker<'a> {
    analyzer: &'a Analyzer,
    stem: Option<StemCache>,
    scratch: Terms,
    /// Token → final term (`None`: a stop word), for [`AnalyzerWorker::analyze`].
    memo: FxHashMap<Box<str>, Option<Box<str>>>,
    /// The current document's raw tokens.
    tokens: Terms,
    /// A one-token buffer for computing a memo entry.
    one: Terms,
}

/// The memo is cleared when it holds this many tokens, so memory stays flat on an endless stream
/// while a corpus's working vocabulary still fits.
const MEMO_CAPACITY: usize = 1 << 18;

impl AnalyzerWorker<'_> {
    /// Runs every stage on `text`, replacing the contents of `out` with its terms.
    ///
    /// Lowercasing, stop words and stemming each look at one token alone, so their composition is
    /// a function of the token, and it is memoized per worker: a token seen before costs one
    /// lookup instead of three stages. The staged pipeline runs the stages one by one; the
    /// property test in `tests/pipeline.rs` checks that both give identical output.
    pub fn analyze(&mut self, text: &str, out: &mut Terms) {
        let mut tokens = std::mem::take(&mut self.tokens);
        self.tokenize(text, &mut tokens);
        out.clear();
        for token in tokens.iter() {
            if let Some(term) = self.memo.get(token) {
                if let Some(term) = term {
                    out.push(term);
                }
                continue;
            }
            let term = self.word(token);
            if let Some(term) = &term {
                out.push(term);
            }
            if self.memo.len() >= MEMO_CAPACITY {
                self.memo.clear();
            }
            self.memo
                .insert(token.into(), term.map(String::into_boxed_str));
        }
        self.tokens = tokens;
        self.ngrams(text, out);
    }

    /// The per-word stages applied to one token: its final term, or `None` for a stop word.
    fn word(&mut self, token: &str) -> Option<String> {
        let mut one = std::mem::take(&mut self.one);
        one.clear();
        one.push(token);
        self.lowercase("", &mut one);
        self.prune("", &mut one);
        // The memo already caches this word's result, so the stem cache is bypassed rather than
        // filled with a second copy of every word.
        let term = match (one.iter().next(), self.stem.as_ref()) {
            (Some(word), Some(cache)) => Some(cache.stem_uncached(word)),
            (word, None) => word.map(str::to_string),
            (None, Some(_)) => None,
        };
        self.one = one;
        term
    }

    fn tokenize(&mut self, text: &str, terms: &mut Terms) {
        let config = &self.analyzer.config;
        terms.clear();
        tokenize::tokenize(text, config.min_token_len, config.max_token_len, terms);
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

    #[test]
    fn default_chain_prunes_then_stems() {
        let text = "The Runners were running quickly to the Stations, weren't they?";
        assert_eq!(
            analyze(AnalyzerConfig::default(), text),
            ["runner", "run", "quick", "station"]
        );
    }

    #[test]
    fn bigrams_form_after_pruning_and_case_can_be_kept() {
        let config = AnalyzerConfig {
            stemmer: None,
            ngram_max: 2,
            ..AnalyzerConfig::default()
        };
        assert_eq!(
            analyze(config, "the New York times"),
            ["new", "york", "times", "new york", "york times"]
        );
        let keep_case = AnalyzerConfig {
            lowercase: false,
            stemmer: None,
            ..AnalyzerConfig::default()
        };
        assert_eq!(analyze(keep_case, "The New York"), ["New", "York"]);
    }

    #[test]
    fn stages_follow_the_config() {
        let analyzer = Analyzer::new(AnalyzerConfig {
            stop_words: StopWords::None,
            stemmer: None,
            ..AnalyzerConfig::default()
        })
        .unwrap();
        let names: Vec<_> = analyzer
            .stages(100, false)
            .iter()
            .map(|s| s.name())
            .collect();
        assert_eq!(names, ["read", "tokenize", "lowercase"]);
        let fused: Vec<_> = analyzer
            .stages(100, true)
            .iter()
            .map(|s| s.name())
            .collect();
        assert_eq!(fused, ["read", "analyze"]);
    }
}
