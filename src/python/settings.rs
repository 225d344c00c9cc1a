//! Every setting a Python estimator passes, by the command line's names, and the library's
//! configurations they make.
//!
//! A setting left out (or `None`) keeps the kind's default, as an absent flag does. The Python
//! side passes document-frequency bounds and naive Bayes' smoothing as the command line writes
//! them (`"5"` is a count, `"0.5"` a fraction; `"auto"`), so they parse as flags do.

use pyo3::conversion::FromPyObjectOwned;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::analyze::{AnalyzerConfig, Language, StopWords};
use crate::choice::Choice;
use crate::classifier::Builder;
use crate::error::{Error, Result};
use crate::jobs::settings::{AnalysisFlags, VocabularyFlags, WeightingFlags};
use crate::model::{Kind, Params, Smoothing};
use crate::vectorize::{DfBound, VectorizerConfig};

/// The settings of an estimator, each optional.
#[derive(Debug, Default)]
pub(crate) struct Settings {
    /// `unicode` or `word-runs`.
    tokenizer: Option<String>,
    min_token_len: Option<usize>,
    max_token_len: Option<usize>,
    lowercase: Option<bool>,
    /// A language, or `none`.
    stop_words: Option<String>,
    /// A list of stop words of the user's own.
    stop_words_list: Option<Vec<String>>,
    /// A language, or `none`.
    stem: Option<String>,
    ngram_range: Option<(usize, usize)>,
    char_ngram_range: Option<(usize, usize)>,
    tf: Option<String>,
    idf: Option<String>,
    norm: Option<String>,
    min_df: Option<String>,
    max_df: Option<String>,
    max_features: Option<usize>,
    ngram_weight: Option<f64>,
    hash_bits: Option<u32>,
    alpha: Option<String>,
    c: Option<f64>,
    k: Option<usize>,
    calibrate: Option<bool>,
    max_iter: Option<usize>,
    tol: Option<f64>,
    random_state: Option<u64>,
}

impl<'a, 'py> FromPyObject<'a, 'py> for Settings {
    type Error = PyErr;

    /// The settings of a dict by name; a name left out or `None` is unset.
    fn extract(object: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let dict = object.cast::<PyDict>()?;
        Ok(Settings {
            tokenizer: item(&dict, "tokenizer")?,
            min_token_len: item(&dict, "min_token_len")?,
            max_token_len: item(&dict, "max_token_len")?,
            lowercase: item(&dict, "lowercase")?,
            stop_words: item(&dict, "stop_words")?,
            stop_words_list: item(&dict, "stop_words_list")?,
            stem: item(&dict, "stem")?,
            ngram_range: item(&dict, "ngram_range")?,
            char_ngram_range: item(&dict, "char_ngram_range")?,
            tf: item(&dict, "tf")?,
            idf: item(&dict, "idf")?,
            norm: item(&dict, "norm")?,
            min_df: item(&dict, "min_df")?,
            max_df: item(&dict, "max_df")?,
            max_features: item(&dict, "max_features")?,
            ngram_weight: item(&dict, "ngram_weight")?,
            hash_bits: item(&dict, "hash_bits")?,
            alpha: item(&dict, "alpha")?,
            c: item(&dict, "C")?,
            k: item(&dict, "k")?,
            calibrate: item(&dict, "calibrate")?,
            max_iter: item(&dict, "max_iter")?,
            tol: item(&dict, "tol")?,
            random_state: item(&dict, "random_state")?,
        })
    }
}

/// The value of `name` in `dict`, unless it is missing or `None`.
fn item<'py, T: FromPyObjectOwned<'py>>(
    dict: &Bound<'py, PyDict>,
    name: &str,
) -> PyResult<Option<T>> {
    match dict.get_item(name)? {
        Some(value) if !value.is_none() => value.extract().map(Some).map_err(Into::into),
        _ => Ok(None),
    }
}

/// The value of `name` in a [`Choice`] table, or an error naming the setting and the choices.
fn chosen<T: Choice>(setting: &str, name: &str) -> Result<T> {
    T::named(&name.to_ascii_lowercase()).ok_or_else(|| {
        let names: Vec<&str> = T::CHOICES.iter().map(|&(name, ..)| name).collect();
        Error::Config(format!(
            "{setting} must be one of {}, not '{name}'",
            names.join(", ")
        ))
    })
}

/// The value named by `name`, when one is given, in a [`Choice`] table.
fn maybe_chosen<T: Choice>(setting: &str, name: &Option<String>) -> Result<Option<T>> {
    name.as_deref().map(|n| chosen(setting, n)).transpose()
}

/// A language or none, as `--stem` and `--stop-words` take it.
fn language(setting: &str, name: &str) -> Result<Option<Language>> {
    if name.eq_ignore_ascii_case("none") {
        return Ok(None);
    }
    chosen(setting, name).map(Some)
}

/// A document-frequency bound written as the flags write it.
fn df_bound(setting: &str, text: &str) -> Result<DfBound> {
    text.parse()
        .map_err(|message| Error::Config(format!("{setting}: {message}")))
}

impl Settings {
    /// A kind by its command-line name.
    pub(crate) fn kind(name: &str) -> Result<Kind> {
        chosen("kind", name)
    }

    /// The builder for `kind` with these settings over the kind's defaults.
    pub(crate) fn builder(&self, kind: Kind) -> Result<Builder> {
        let defaults = Builder::new(kind);
        let analysis = self.analysis(defaults.analysis_config())?;
        let vectorizer = self.vectorizer(defaults.vectorizer_config())?;
        let trainer = kind.trainer(&self.params()?, vectorizer.weighting)?;
        Ok(defaults
            .analysis(analysis)
            .vectorizer(vectorizer)
            .trainer(trainer))
    }

    /// The analysis over `defaults`, by the rules the analysis flags follow
    /// ([`AnalysisFlags`]); a list of stop words takes the place of a named one.
    pub(crate) fn analysis(&self, defaults: &AnalyzerConfig) -> Result<AnalyzerConfig> {
        let named = |setting, name: &Option<String>| {
            name.as_deref().map(|n| language(setting, n)).transpose()
        };
        let flags = AnalysisFlags {
            tokenizer: maybe_chosen("tokenizer", &self.tokenizer)?,
            min_token_len: self.min_token_len,
            max_token_len: self.max_token_len,
            keep_case: self.lowercase == Some(false),
            stop_words: named("stop_words", &self.stop_words)?,
            stop_words_file: None,
            stem: named("stem", &self.stem)?,
            ngrams: self.ngram_range,
            char_ngrams: self.char_ngram_range,
        };
        let mut config = flags.config_over(defaults)?;
        if let Some(list) = &self.stop_words_list {
            config.stop_words = StopWords::Custom(list.clone());
            config.validate()?;
        }
        Ok(config)
    }

    /// The pruning and weighting over `defaults`, by the rules the weighting flags follow
    /// ([`VocabularyFlags`]).
    pub(crate) fn vectorizer(&self, defaults: &VectorizerConfig) -> Result<VectorizerConfig> {
        let bound = |setting, value: &Option<String>| {
            value.as_deref().map(|t| df_bound(setting, t)).transpose()
        };
        let flags = VocabularyFlags {
            weighting: WeightingFlags {
                tf: maybe_chosen("tf", &self.tf)?,
                idf: maybe_chosen("idf", &self.idf)?,
                norm: maybe_chosen("norm", &self.norm)?,
                min_df: bound("min_df", &self.min_df)?,
                max_df: bound("max_df", &self.max_df)?,
                ngram_weight: self.ngram_weight,
            },
            max_features: self.max_features,
            hash_bits: self.hash_bits,
        };
        flags.config_over(defaults)
    }

    /// The trainer's parameters; each kind reads its own.
    pub(crate) fn params(&self) -> Result<Params> {
        let alpha = match self.alpha.as_deref() {
            None => None,
            Some("auto") => Some(Smoothing::Auto),
            Some(text) => Some(Smoothing::Fixed(text.parse().map_err(|_| {
                Error::Config(format!("alpha must be a number or 'auto', not '{text}'"))
            })?)),
        };
        let mut params = Params {
            alpha,
            ..Params::default()
        };
        let svm = &mut params.svm;
        svm.c = self.c.unwrap_or(svm.c);
        svm.max_iterations = self.max_iter.unwrap_or(svm.max_iterations);
        svm.tolerance = self.tol.unwrap_or(svm.tolerance);
        svm.seed = self.random_state.unwrap_or(svm.seed);
        params.calibrate = self.calibrate.unwrap_or(params.calibrate);
        params.knn.k = self.k.unwrap_or(params.knn.k);
        Ok(params)
    }
}
