//! `bowline inspect`: what a model is, how it reads text, where it came from, and the terms that
//! tell each of its classes.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde::Serialize;
use serde_json::{json, Value};

use super::Outcome;
use bowline::analyze::{AnalyzerConfig, StopWords};
use bowline::model::multilabel::PerLabel;
use bowline::model::{Classifier, NbKind, Priors, Similarity, TermBasis, TrainingInfo};
use bowline::vectorize::{DfBound, Hashing, VectorizerConfig};
use bowline::{Result, TextClassifier};

/// Flags of `bowline inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// A model written by `bowline train` (or `update`, `learn`, `select`).
    pub model: PathBuf,
    /// Terms shown per class: by weight for the SVM, by log-likelihood ratio against the mean of
    /// the classes for naive Bayes, and for k-NN, which has no per-class weights, by weight
    /// summed over the class's training documents.
    #[arg(long, default_value_t = 10, value_name = "K")]
    pub top: usize,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `inspect --json`.
#[derive(Serialize)]
struct Inspection<'a> {
    model: String,
    kind: &'static str,
    /// Each class and its training documents.
    classes: Vec<ClassSize<'a>>,
    /// Terms in the vocabulary (for hashed terms, the columns some document reached), and the
    /// documents it was fitted on.
    terms: usize,
    documents: u32,
    /// How terms are hashed to columns, for a model trained with `--hash-bits`.
    #[serde(skip_serializing_if = "Option::is_none")]
    hashing: Option<Hashing>,
    /// The factor on word n-grams' values (`--ngram-weight`).
    ngram_weight: f64,
    analysis: &'a AnalyzerConfig,
    vectorizer: &'a VectorizerConfig,
    /// The classifier's own parameters.
    classifier: Value,
    /// Corpora, documents per class, version, date, and what `train --tune` chose.
    training: &'a TrainingInfo,
    top_terms: TopTerms<'a>,
}

#[derive(Serialize)]
struct ClassSize<'a> {
    label: &'a str,
    training_documents: u64,
}

#[derive(Serialize)]
struct TopTerms<'a> {
    ranked_by: TermBasis,
    meaning: &'static str,
    classes: Vec<ClassTop<'a>>,
}

#[derive(Serialize)]
struct ClassTop<'a> {
    label: &'a str,
    terms: Vec<TermValue>,
}

#[derive(Serialize)]
struct TermValue {
    /// The term, or for hashed terms its column, `#COLUMN`.
    term: String,
    value: f64,
}

/// Runs the command.
pub fn run(args: InspectArgs) -> Result<Outcome> {
    let classifier = TextClassifier::load(&args.model)?;
    let model = classifier.model();
    let vectorizer = &model.vectorizer;
    let top = model.classifier.top_terms(args.top);
    let terms = vectorizer.terms();
    let docs = &model.info.docs_per_class;
    let inspection = Inspection {
        model: args.model.display().to_string(),
        kind: model.classifier.name(),
        classes: (model.labels.iter().enumerate())
            .map(|(c, label)| ClassSize {
                label,
                training_documents: docs.get(c).copied().unwrap_or(0),
            })
            .collect(),
        terms: match vectorizer.hashing() {
            Some(_) => vectorizer.df().iter().filter(|&&d| d > 0).count(),
            None => terms.len(),
        },
        documents: vectorizer.n_docs(),
        hashing: vectorizer.hashing(),
        ngram_weight: vectorizer.config().ngram_weight,
        analysis: vectorizer.analyzer(),
        vectorizer: vectorizer.config(),
        classifier: parameters(&model.classifier),
        training: &model.info,
        top_terms: TopTerms {
            ranked_by: top.basis,
            meaning: top.basis.describe(),
            classes: (model.labels.iter().zip(&top.classes))
                .map(|(label, kept)| ClassTop {
                    label,
                    terms: (kept.iter())
                        .map(|&(j, value)| TermValue {
                            term: match vectorizer.hashing() {
                                Some(_) => format!("#{j}"),
                                None => terms[j as usize].to_string(),
                            },
                            value,
                        })
                        .collect(),
                })
                .collect(),
        },
    };
    let shown = if args.json {
        super::json_text(&inspection)?
    } else {
        text(&inspection, &model.classifier)
    };
    super::print_or_quiet(&shown)?;
    Ok(Outcome::Clean)
}

/// The classifier's parameters, as JSON.
fn parameters(classifier: &Classifier) -> Value {
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
                "loss": value_name(p.loss),
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

/// A flag value's name, as the command line spells it.
fn value_name(value: impl ValueEnum) -> String {
    value
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string())
}

/// The inspection as aligned text.
fn text(inspection: &Inspection, classifier: &Classifier) -> String {
    let i = inspection;
    let mut out = String::new();
    let mut line = |name: &str, value: String| {
        let _ = writeln!(out, "{name:<12}{value}");
    };
    line("model", i.model.clone());
    line("kind", format!("{}: {}", i.kind, kind_text(classifier)));
    let sizes: Vec<String> = (i.classes.iter())
        .map(|c| format!("{} ({})", c.label, c.training_documents))
        .collect();
    line(
        "classes",
        format!(
            "{}, with their training documents: {}",
            sizes.len(),
            sizes.join(", ")
        ),
    );
    let vocabulary = match i.hashing {
        Some(h) => format!(
            "none: terms hashed (MurmurHash3) to 2^{} columns, {}; {} columns reached by {} \
             documents; top terms are columns (#COLUMN)",
            h.bits(),
            if h.signed() { "signed" } else { "unsigned" },
            i.terms,
            i.documents
        ),
        None => format!("{} terms from {} documents", i.terms, i.documents),
    };
    line("vocabulary", vocabulary);
    line("analysis", analysis_text(i.analysis));
    line("weighting", weighting_text(i.vectorizer));
    let t = i.training;
    line(
        "trained on",
        format!(
            "{} (bowline {}, written {})",
            t.corpora.join(", "),
            t.bowline_version,
            t.written
        ),
    );
    line(
        "tuned",
        t.tuned
            .as_ref()
            .map_or("no".into(), super::tune::chosen_text),
    );
    let top = &i.top_terms;
    let _ = writeln!(out, "\nTop terms of each class, by {}:", top.meaning);
    let all = top.classes.iter().flat_map(|c| &c.terms);
    let width = all.map(|t| t.term.chars().count()).max().unwrap_or(0);
    for class in &top.classes {
        let _ = writeln!(out, "{}", class.label);
        for term in &class.terms {
            let _ = writeln!(out, "  {:<width$}  {:>9.4}", term.term, term.value);
        }
    }
    out
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
fn kind_text(classifier: &Classifier) -> String {
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
                value_name(p.loss),
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
fn analysis_text(a: &AnalyzerConfig) -> String {
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

/// The weighting and pruning in words.
fn weighting_text(v: &VectorizerConfig) -> String {
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
        value_name(w.tf),
        value_name(w.idf),
        value_name(w.norm),
        bound(v.min_df),
        bound(v.max_df)
    )
}
