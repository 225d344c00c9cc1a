//! Each part of a model in words, and its classifier's parameters as JSON: the lines of
//! `inspect` that say what the model is and how it reads text.

use serde_json::{json, Value};

use crate::analyze::{AnalyzerConfig, StopWords};
use crate::model::multilabel::PerLabel;
use crate::model::{Classifier, Loss, NbKind, Priors, Similarity};
use crate::report::settings::flag_value;
use crate::vectorize::{DfBound, VectorizerConfig};

/// The classifier's parameters, as JSON.
pub(super) fn parameters(classifier: &Classifier) -> Value {
    match classifier {
        Classifier::NaiveBayes(nb) => {
            let priors = match nb.priors() {
                Priors::Learned => json!("learned"),
                Priors::Uniform => json!("uniform"),
                Priors::Given(p) => json!(p),
            };
            json!({ "alpha": nb.alpha(), "priors": priors })
        }
        Classifier::Svm(svm) => {
            let p = svm.params();
            let converged = svm.convergence().iter().filter(|c| c.converged).count();
            json!({
                "c": p.c,
                "loss": loss_flag(p.loss),
                "tolerance": p.tolerance,
                "calibrated": svm.is_calibrated(),
                "classes_converged": converged,
                "reservoir_rows": svm.reservoir().rows().len(),
            })
        }
        Classifier::Knn(knn) => {
            let p = knn.params();
            let similarity = match p.similarity {
                Similarity::Cosine => json!("cosine"),
                Similarity::Bm25 { k1, b } => json!({ "bm25": { "k1": k1, "b": b } }),
            };
            json!({ "k": p.k, "similarity": similarity })
        }
        Classifier::Selected(selected) => {
            let kept = selected.columns.iter().filter(|&&c| c != u32::MAX).count();
            json!({ "selected_features": kept, "inner": parameters(&selected.inner) })
        }
        Classifier::MultiLabel(multi) => {
            let per_label = match &multi.scorer {
                PerLabel::Svm(svm) => json!({ "svm_c": svm.params().c }),
                PerLabel::NaiveBayes(nb) => json!({ "naive_bayes_alpha": nb.counts().0.alpha() }),
            };
            json!({
                "per_label": per_label,
                "thresholds": multi.decision.thresholds,
                "min_labels": multi.decision.min_labels,
                "thresholds_chosen_by": multi.decision.tuned_by,
            })
        }
    }
}

/// The loss as `train --loss` takes it. The loss's serde names are its variants' own, which are
/// not what a user types, so they cannot serve here.
fn loss_flag(loss: Loss) -> &'static str {
    match loss {
        Loss::Hinge => "hinge",
        Loss::SquaredHinge => "squared-hinge",
    }
}

/// A naive Bayes event model in words.
fn event_model(kind: NbKind) -> &'static str {
    match kind {
        NbKind::Multinomial => "multinomial",
        NbKind::Complement => "complement",
        NbKind::Bernoulli => "Bernoulli",
    }
}

/// The kind in words, with its parameters.
pub(super) fn kind_text(classifier: &Classifier) -> String {
    match classifier {
        Classifier::MultiLabel(multi) => {
            let per_label = match &multi.scorer {
                PerLabel::Svm(svm) => format!("a linear SVM per label, C {}", svm.params().c),
                PerLabel::NaiveBayes(nb) => format!(
                    "{} naive Bayes per label, alpha {}",
                    event_model(nb.kind()),
                    nb.counts().0.alpha()
                ),
            };
            format!(
                "multi-label: {per_label}; at least {} label(s) a document; thresholds chosen by {}",
                multi.decision.min_labels, multi.decision.tuned_by
            )
        }
        Classifier::NaiveBayes(nb) => {
            let event = event_model(nb.kind());
            let priors = match nb.priors() {
                Priors::Learned => "learned priors".to_string(),
                Priors::Uniform => "uniform priors".to_string(),
                Priors::Given(p) => format!("priors {p:?}"),
            };
            format!("{event} naive Bayes, alpha {}, {priors}", nb.alpha())
        }
        Classifier::Svm(svm) => {
            let p = svm.params();
            let converged = svm.convergence().iter().filter(|c| c.converged).count();
            let calibrated = if svm.is_calibrated() {
                "calibrated (Platt)"
            } else {
                "uncalibrated"
            };
            format!(
                "linear SVM, one-vs-rest, C {}, {} loss, {calibrated}; {converged} of {} classes \
                 converged; {} training rows kept for updates",
                p.c,
                loss_flag(p.loss),
                svm.convergence().len(),
                svm.reservoir().rows().len()
            )
        }
        Classifier::Knn(knn) => {
            let p = knn.params();
            let similarity = match p.similarity {
                Similarity::Cosine => "cosine similarity".to_string(),
                Similarity::Bm25 { k1, b } => format!("BM25 (k1 {k1}, b {b})"),
            };
            format!(
                "k-nearest neighbours, k {}, {similarity}; it keeps its {} training documents and \
                 has no per-class weights",
                p.k,
                knn.class_docs().iter().sum::<u64>()
            )
        }
        Classifier::Selected(selected) => {
            let kept = selected.columns.iter().filter(|&&c| c != u32::MAX).count();
            format!(
                "{}, on {kept} features chosen by `bowline select`",
                kind_text(&selected.inner)
            )
        }
    }
}

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
        parts.push(format!(
            "word {}..{}-grams of tokens of {}..{} characters, {stop}, {stem}",
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
