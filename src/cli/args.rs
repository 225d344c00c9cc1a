//! Flag groups shared by several commands, and their conversion into library configurations.

use std::path::PathBuf;

use clap::Args;

use super::choice::choice;
use bowline::analyze::{AnalyzerConfig, Language, StopWords};
use bowline::corpus::{InputFormat, ReadOptions, DEFAULT_MAX_DOC_BYTES};
use bowline::model::{CostMatrix, Decision};
use bowline::pipeline::{default_threads, PipelineConfig};
use bowline::vectorize::{DfBound, Hashing, Idf, Norm, Tf, VectorizerConfig, Weighting};
use bowline::{Choice, Error, Result};

/// The largest accepted `--max-doc-bytes` (100 MiB). A document's terms live in one buffer with
/// 32-bit offsets, and 8-grams repeat each word up to 36 times, so larger documents could overflow
/// it; longer documents are truncated with a warning instead.
pub const MAX_DOC_BYTES_LIMIT: u64 = 100 * 1024 * 1024;

/// How to read the input.
#[derive(Debug, Clone, Args)]
pub struct InputArgs {
    /// Input layout; by default a folder is class folders (unlabeled files for classify),
    /// `.tsv` and `.jsonl` go by extension, any other file is one unlabeled document, and a
    /// stream (`-`, a FIFO) is JSONL if it starts with `{`, else lines (TSV where labels are
    /// needed).
    #[arg(long, value_parser = choice::<InputFormat>())]
    pub input: Option<InputFormat>,
    /// Treat the first TSV line as a header (automatic when its first field is `label`, or `id`
    /// where the first field is an id).
    #[arg(long)]
    pub header: bool,
    /// Truncate documents longer than this many bytes, with a warning (at most 100 MiB).
    #[arg(long, default_value_t = DEFAULT_MAX_DOC_BYTES, value_name = "BYTES")]
    pub max_doc_bytes: u64,
    /// Split a TSV label field at this string into several labels (multi-label data), e.g. `,`.
    #[arg(long, value_name = "SEP")]
    pub label_sep: Option<String>,
}

impl InputArgs {
    /// The reader options for a command that learns from labels: a stream is `label<TAB>text`
    /// lines unless its first byte says JSONL, since unlabeled lines could teach nothing.
    pub fn labelled_options(&self) -> Result<ReadOptions> {
        Ok(ReadOptions {
            stream_format: InputFormat::Tsv,
            ..self.options()?
        })
    }

    /// The reader options.
    pub fn options(&self) -> Result<ReadOptions> {
        if !(1..=MAX_DOC_BYTES_LIMIT).contains(&self.max_doc_bytes) {
            return Err(Error::Config(format!(
                "--max-doc-bytes must be between 1 and {MAX_DOC_BYTES_LIMIT}"
            )));
        }
        if self.label_sep.as_deref() == Some("") {
            return Err(Error::Config(
                "--label-sep must not be empty: it splits a label field, as , does".into(),
            ));
        }
        Ok(ReadOptions {
            format: self.input,
            max_doc_bytes: self.max_doc_bytes,
            tsv_header: self.header,
            tsv_ids: false,
            label_sep: self.label_sep.clone(),
            ..ReadOptions::default()
        })
    }
}

/// A language, or `none` to turn a stage off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LanguageChoice(pub Option<Language>);

impl std::str::FromStr for LanguageChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        // The names are lowercase, so the text lowercased matches them in any case.
        let text = text.to_ascii_lowercase();
        if text == "none" {
            return Ok(LanguageChoice(None));
        }
        let names: Vec<_> = Language::CHOICES.iter().map(|&(name, ..)| name).collect();
        let error = format!("expected none or one of: {}", names.join(", "));
        Language::named(&text)
            .map(|l| LanguageChoice(Some(l)))
            .ok_or(error)
    }
}

/// Analysis flags. Unset flags take [`AnalyzerConfig`]'s defaults.
#[derive(Debug, Clone, Default, Args)]
pub struct AnalysisArgs {
    /// Shortest token kept, in characters [default: 2].
    #[arg(long, value_name = "N")]
    pub min_token_len: Option<usize>,
    /// Longest token kept, in characters [default: 40].
    #[arg(long, value_name = "N")]
    pub max_token_len: Option<usize>,
    /// Keep letter case instead of lowercasing.
    #[arg(long)]
    pub keep_case: bool,
    /// Built-in stop-word list (NLTK), or none [default: none].
    #[arg(long, value_name = "LANGUAGE", conflicts_with = "stop_words_file")]
    pub stop_words: Option<LanguageChoice>,
    /// Stop words from a file: one word per line; blank lines and lines starting with `#` skipped.
    #[arg(long, value_name = "FILE")]
    pub stop_words_file: Option<PathBuf>,
    /// Snowball stemmer language, or none [default: english; for bnb, none].
    #[arg(long, value_name = "LANGUAGE")]
    pub stem: Option<LanguageChoice>,
    /// Word n-gram sizes, `N` or `MIN..MAX` (inclusive) [default: 1..2].
    #[arg(long, value_name = "RANGE", value_parser = parse_range)]
    pub ngrams: Option<(usize, usize)>,
    /// Character n-gram sizes, `N` or `MIN..MAX`, within each word padded with spaces
    /// (scikit-learn's char_wb). Alone they replace words; give --ngrams too to keep both
    /// [default: none].
    #[arg(long, value_name = "RANGE", value_parser = parse_range)]
    pub char_ngrams: Option<(usize, usize)>,
}

fn parse_range(text: &str) -> Result<(usize, usize), String> {
    let parse = |t: &str| t.trim().parse::<usize>().map_err(|e| format!("'{t}': {e}"));
    match text.split_once("..") {
        Some((min, max)) => Ok((parse(min)?, parse(max.trim_start_matches('='))?)),
        None => parse(text).map(|n| (n, n)),
    }
}

impl AnalysisArgs {
    /// True when any analysis flag was given.
    pub fn any_set(&self) -> bool {
        self.min_token_len.is_some()
            || self.max_token_len.is_some()
            || self.keep_case
            || self.stop_words.is_some()
            || self.stop_words_file.is_some()
            || self.stem.is_some()
            || self.ngrams.is_some()
            || self.char_ngrams.is_some()
    }

    /// The analyzer configuration, validated, with unset flags taken from the library defaults.
    pub fn config(&self) -> Result<AnalyzerConfig> {
        self.config_over(&AnalyzerConfig::default())
    }

    /// The analyzer configuration, validated, with unset flags taken from `defaults`.
    pub fn config_over(&self, defaults: &AnalyzerConfig) -> Result<AnalyzerConfig> {
        let stop_words = match (&self.stop_words_file, self.stop_words) {
            (Some(path), _) => StopWords::Custom(read_word_list(path)?),
            (None, Some(LanguageChoice(choice))) => {
                choice.map_or(StopWords::None, StopWords::Builtin)
            }
            (None, None) => defaults.stop_words.clone(),
        };
        let (ngram_min, ngram_max) = self
            .ngrams
            .unwrap_or((defaults.ngram_min, defaults.ngram_max));
        let config = AnalyzerConfig {
            min_token_len: self.min_token_len.unwrap_or(defaults.min_token_len),
            max_token_len: self.max_token_len.unwrap_or(defaults.max_token_len),
            lowercase: !self.keep_case,
            stop_words,
            stemmer: self.stem.map_or(defaults.stemmer, |choice| choice.0),
            ngram_min,
            ngram_max,
            char_ngrams: self.char_ngrams.or(defaults.char_ngrams),
            words: match (self.char_ngrams, self.ngrams) {
                (Some(_), None) => false,
                (Some(_), Some(_)) => true,
                (None, _) => defaults.words,
            },
        };
        config.validate()?;
        Ok(config)
    }
}

fn read_word_list(path: &PathBuf) -> Result<Vec<String>> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let (text, _) = bowline::corpus::decode(bytes);
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_string)
        .collect())
}

/// Vocabulary pruning and weighting flags. Unset flags take [`VectorizerConfig`]'s defaults.
#[derive(Debug, Clone, Default, Args)]
pub struct WeightingArgs {
    /// Term frequency: count, binary, frequency (count / length), sublinear (1 + ln count)
    /// [default: sublinear].
    #[arg(long, value_parser = choice::<Tf>())]
    pub tf: Option<Tf>,
    /// Inverse document frequency: none, plain ln(N/df), smooth ln((1+N)/(1+df))+1
    /// [default: smooth].
    #[arg(long, value_parser = choice::<Idf>())]
    pub idf: Option<Idf>,
    /// Row normalization [default: l2].
    #[arg(long, value_parser = choice::<Norm>())]
    pub norm: Option<Norm>,
    /// Drop terms in fewer documents: a count (5) or a fraction of documents (0.01)
    /// [default: 1; for bnb, 2].
    #[arg(long, value_name = "DF")]
    pub min_df: Option<DfBound>,
    /// Drop terms in more documents: a count or a fraction (0.5) [default: 1.0].
    #[arg(long, value_name = "DF")]
    pub max_df: Option<DfBound>,
    /// Factor in (0, 1] on every word n-gram of two or more words, applied with its idf, so
    /// that word pairs count for less than words; 1 with --hash-bits [default: 0.5 for svm, 1
    /// for the others].
    #[arg(long, value_name = "W")]
    pub ngram_weight: Option<f64>,
}

/// The weighting flags plus a limit on the vocabulary's size. (`select` has its own
/// `--max-features`, the number of features to select, so it takes [`WeightingArgs`] alone.)
#[derive(Debug, Clone, Default, Args)]
pub struct VocabularyArgs {
    #[command(flatten)]
    pub weighting: WeightingArgs,
    /// Keep only the N most frequent terms [default: all].
    #[arg(long, value_name = "N")]
    pub max_features: Option<usize>,
    /// Hash terms into 2^B columns (B from 4 to 28) instead of learning a vocabulary, as
    /// scikit-learn's HashingVectorizer: memory for the features is fixed whatever the corpus.
    /// The SVM (and `vectorize`) keep the hash's sign, naive Bayes and k-NN count +1. min-df and
    /// max-df apply to columns; --max-features cannot be given [default: a vocabulary].
    #[arg(long, value_name = "B")]
    pub hash_bits: Option<u32>,
}

impl VocabularyArgs {
    /// True when any of these flags was given.
    pub fn any_set(&self) -> bool {
        self.weighting.any_set() || self.max_features.is_some() || self.hash_bits.is_some()
    }

    /// The vectorizer configuration, validated, with unset flags taken from the library defaults.
    pub fn config(&self) -> Result<VectorizerConfig> {
        self.config_over(&VectorizerConfig::default())
    }

    /// The vectorizer configuration, validated, with unset flags taken from `defaults`.
    pub fn config_over(&self, defaults: &VectorizerConfig) -> Result<VectorizerConfig> {
        // Signed until the kind decides (`Builder::vectorizer`); the same bits as `defaults`
        // (an existing model's) keep its sign, so that repeating them changes nothing.
        let hashing = match (self.hash_bits, defaults.hashing) {
            (Some(bits), Some(kept)) if kept.bits() == bits => Some(kept),
            (Some(bits), _) => Some(Hashing::new(bits, true)?),
            (None, kept) => kept,
        };
        let weighting = self.weighting.config_over(defaults)?;
        // Hashed columns mix words and n-grams, so hashing weighs them alike unless a weight
        // was given, which `validate` then refuses.
        let ngram_weight = match (hashing, self.weighting.ngram_weight) {
            (Some(_), None) => 1.0,
            _ => weighting.ngram_weight,
        };
        let config = VectorizerConfig {
            max_features: self.max_features.or(defaults.max_features),
            hashing,
            ngram_weight,
            ..weighting
        };
        config.validate()?;
        Ok(config)
    }
}

impl WeightingArgs {
    /// True when any of these flags was given.
    pub fn any_set(&self) -> bool {
        self.tf.is_some()
            || self.idf.is_some()
            || self.norm.is_some()
            || self.min_df.is_some()
            || self.max_df.is_some()
            || self.ngram_weight.is_some()
    }

    /// The vectorizer configuration, validated, with unset flags taken from `defaults` (and the
    /// vocabulary size limit from `defaults` alone).
    pub fn config_over(&self, defaults: &VectorizerConfig) -> Result<VectorizerConfig> {
        let weighting = Weighting {
            tf: self.tf.unwrap_or(defaults.weighting.tf),
            idf: self.idf.unwrap_or(defaults.weighting.idf),
            norm: self.norm.unwrap_or(defaults.weighting.norm),
        };
        let config = VectorizerConfig {
            min_df: self.min_df.unwrap_or(defaults.min_df),
            max_df: self.max_df.unwrap_or(defaults.max_df),
            max_features: defaults.max_features,
            weighting,
            hashing: defaults.hashing,
            ngram_weight: self.ngram_weight.unwrap_or(defaults.ngram_weight),
        };
        config.validate()?;
        Ok(config)
    }
}

/// Threads and reporting.
#[derive(Debug, Clone, Args)]
pub struct RuntimeArgs {
    /// Worker threads [default: all cores]. Staged mode gives each stage this many.
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<usize>,
    /// Run each analysis stage in its own threads instead of all stages in each thread.
    #[arg(long)]
    pub staged: bool,
    /// Documents per batch handed between threads.
    #[arg(long, default_value_t = 64, value_name = "N")]
    pub batch_size: usize,
    /// Print every warning, and at the end each pipeline stage's counters and timings, to stderr.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Print nothing but the error that stops a run: no summary, warnings or per-file errors.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

impl RuntimeArgs {
    /// The validated pipeline configuration, with rayon's pool sized to match: what every
    /// command that reads a corpus does before reading it.
    pub fn start(&self) -> Result<PipelineConfig> {
        super::log::set_level(self.quiet, self.verbose);
        let pipeline = self.pipeline()?;
        self.init_thread_pool();
        Ok(pipeline)
    }

    /// Sizes rayon's global pool, which runs the parallel matrix phases, to `--threads`. Only the
    /// first call in a process has an effect; later ones keep the pool that exists.
    fn init_thread_pool(&self) {
        let threads = self.threads.unwrap_or_else(default_threads).max(1);
        // An error means a pool already exists, which is fine.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
    }

    /// The pipeline configuration, validated.
    fn pipeline(&self) -> Result<PipelineConfig> {
        let threads = self.threads.unwrap_or_else(default_threads);
        let config = PipelineConfig {
            batch_size: self.batch_size,
            observer: super::log::stage_observer(),
            ..PipelineConfig::with_threads(!self.staged, threads)
        };
        config.validate()?;
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse() {
        assert_eq!(parse_range("2"), Ok((2, 2)));
        assert_eq!(parse_range("1..3"), Ok((1, 3)));
        assert_eq!(parse_range("1..=3"), Ok((1, 3)));
        assert!(parse_range("a..3").is_err());
    }

    #[test]
    fn languages_parse_with_none() {
        assert_eq!("none".parse(), Ok(LanguageChoice(None)));
        assert_eq!("French".parse(), Ok(LanguageChoice(Some(Language::French))));
        let error = "klingon".parse::<LanguageChoice>().unwrap_err();
        assert!(
            error.contains("english") && error.contains("turkish"),
            "{error}"
        );
    }
}

/// How `classify` and `eval` turn class probabilities into a decision.
#[derive(Debug, Args)]
pub struct DecisionArgs {
    /// Choose the class of least expected cost under this cost matrix (TSV: a header of true
    /// classes, then one row of costs per predicted class; see README).
    #[arg(long, value_name = "FILE", conflicts_with = "threshold")]
    pub costs: Option<PathBuf>,
    /// Two-class models: choose the positive class when its probability is at least P.
    #[arg(long, value_name = "P")]
    pub threshold: Option<f64>,
    /// The class --threshold is on [default: the model's second class].
    #[arg(long, value_name = "LABEL", requires = "threshold")]
    pub positive: Option<String>,
}

impl DecisionArgs {
    /// The decision, validated against the model's classes.
    pub fn decision(&self, labels: &[String]) -> Result<Decision> {
        match (&self.costs, self.threshold) {
            (Some(path), _) => Ok(Decision::Costs(CostMatrix::load(path, labels)?)),
            (None, Some(at)) => Decision::threshold(labels, at, self.positive.as_deref()),
            (None, None) => Ok(Decision::MostProbable),
        }
    }
}
