//! An analysis and a weighting written as the flags that give them, for the headers of
//! reports: what was counted, said in the words a user types.

use serde::Serialize;

use crate::analyze::{AnalyzerConfig, StopWords};
use crate::choice::Choice;
use crate::vectorize::{DfBound, VectorizerConfig};

/// The analysis as flags: `--stop-words none --stem english --ngrams 1..2`, and the others
/// where they differ from their defaults.
pub(crate) fn analysis_flags(analysis: &AnalyzerConfig) -> String {
    let language = |l: Option<_>| {
        l.map_or("none".to_string(), |l: crate::analyze::Language| {
            format!("{l:?}").to_lowercase()
        })
    };
    let mut flags = Vec::new();
    if analysis.words {
        let stop = match &analysis.stop_words {
            StopWords::None => "none".to_string(),
            StopWords::Builtin(l) => language(Some(*l)),
            StopWords::Custom(list) => format!("(a list of {} words)", list.len()),
        };
        flags.push(format!("--stop-words {stop}"));
        flags.push(format!("--stem {}", language(analysis.stemmer)));
        flags.push(format!(
            "--ngrams {}..{}",
            analysis.ngram_min, analysis.ngram_max
        ));
        let defaults = AnalyzerConfig::default();
        if analysis.tokenizer != defaults.tokenizer {
            flags.push(format!("--tokenizer {}", analysis.tokenizer.name()));
        }
        if analysis.min_token_len != defaults.min_token_len {
            flags.push(format!("--min-token-len {}", analysis.min_token_len));
        }
        if analysis.max_token_len != defaults.max_token_len {
            flags.push(format!("--max-token-len {}", analysis.max_token_len));
        }
    }
    if !analysis.lowercase {
        flags.push("--keep-case".into());
    }
    if let Some((min, max)) = analysis.char_ngrams {
        flags.push(format!("--char-ngrams {min}..{max}"));
    }
    flags.join(" ")
}

/// The vocabulary's bounds and the weighting as flags: `--min-df 1 --max-df 1 --tf sublinear
/// --idf smooth --norm l2`.
pub(crate) fn weighting_flags(vectorizer: &VectorizerConfig) -> String {
    let bound = |b: DfBound| match b {
        DfBound::Count(n) => n.to_string(),
        DfBound::Fraction(f) => f.to_string(),
    };
    let w = vectorizer.weighting;
    let mut flags = format!(
        "--min-df {} --max-df {} --tf {} --idf {} --norm {}",
        bound(vectorizer.min_df),
        bound(vectorizer.max_df),
        flag_value(&w.tf),
        flag_value(&w.idf),
        flag_value(&w.norm)
    );
    if let Some(n) = vectorizer.max_features {
        flags += &format!(" --max-features {n}");
    }
    if vectorizer.ngram_weight != 1.0 {
        flags += &format!(" --ngram-weight {}", vectorizer.ngram_weight);
    }
    flags
}

/// A value's name as a flag takes it: its serde name, which the weighting's values share with
/// their flags (`sublinear`, `smooth`, `l2`).
pub(crate) fn flag_value(value: &impl Serialize) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_as_flags() {
        assert_eq!(
            analysis_flags(&AnalyzerConfig::default()),
            "--stop-words none --stem english --ngrams 1..2"
        );
        assert_eq!(
            weighting_flags(&VectorizerConfig::default()),
            "--min-df 1 --max-df 1 --tf sublinear --idf smooth --norm l2"
        );
        let pairs = VectorizerConfig {
            ngram_weight: 0.7,
            ..VectorizerConfig::default()
        };
        assert!(weighting_flags(&pairs).ends_with("--norm l2 --ngram-weight 0.7"));
    }
}
