//! A model's analysis and weighting in words: the lines of `inspect` that say how the model
//! reads text. (The classifier describes itself: `Classifier::describe`.)

use crate::analyze::{AnalyzerConfig, StopWords, Tokenizer};
use crate::report::settings::flag_value;
use crate::vectorize::{DfBound, VectorizerConfig};

/// The analysis in words.
pub(super) fn analysis_text(a: &AnalyzerConfig) -> String {
    let mut parts = Vec::new();
    if a.words {
        let stop = match &a.stop_words {
            StopWords::None => "no stop words".to_string(),
            StopWords::Builtin(language) => format!("{language:?} stop words"),
            StopWords::Custom(words) => format!("{} custom stop words", words.len()),
        };
        let stem = a
            .stemmer
            .map_or("no stemming".into(), |l| format!("{l:?} stemming"));
        let runs = match a.tokenizer {
            Tokenizer::Unicode => "",
            Tokenizer::WordRuns => " (runs of letters, digits and _)",
        };
        parts.push(format!(
            "word {}..{}-grams of tokens{runs} of {}..{} characters, {stop}, {stem}",
            a.ngram_min, a.ngram_max, a.min_token_len, a.max_token_len
        ));
    }
    if let Some((min, max)) = a.char_ngrams {
        parts.push(format!("character {min}..{max}-grams within words"));
    }
    let case = if a.lowercase {
        "lowercased"
    } else {
        "case kept"
    };
    format!("{}; {case}", parts.join(" and "))
}

/// The weighting and pruning in words, each weighting's value named as its flag takes it.
pub(super) fn weighting_text(v: &VectorizerConfig) -> String {
    let bound = |b: DfBound| match b {
        DfBound::Count(1) => "1 document".to_string(),
        DfBound::Count(n) => format!("{n} documents"),
        DfBound::Fraction(f) => format!("{f:?} of the documents"),
    };
    let w = v.weighting;
    let most = v
        .max_features
        .map_or("every term kept".into(), |n| format!("at most {n} terms"));
    let pairs = if v.ngram_weight == 1.0 {
        String::new()
    } else {
        format!(", word n-grams weighed {}", v.ngram_weight)
    };
    format!(
        "tf {}, idf {}, norm {}{pairs}; min-df {}, max-df {}, {most}",
        flag_value(&w.tf),
        flag_value(&w.idf),
        flag_value(&w.norm),
        bound(v.min_df),
        bound(v.max_df)
    )
}
