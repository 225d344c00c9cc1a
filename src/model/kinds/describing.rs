//! A classifier's kind and parameters for a reader: in words, and as JSON, for `inspect`.

use serde_json::{json, Value};

use super::{Classifier, NbKind, PerLabel};
use crate::choice::Choice;
use crate::model::kernel_svm::KernelKind;
use crate::model::{KernelSvm, Loss, Priors, Similarity};

/// A classifier described: what `inspect` says of its kind and parameters.
#[derive(Debug)]
pub(crate) struct Description {
    /// The kind in words, with its parameters: `linear SVM, one-vs-rest, C 1, ...`.
    pub(crate) words: String,
    /// The parameters as JSON: `{"c": 1, ...}`.
    pub(crate) parameters: Value,
}

impl Classifier {
    /// The classifier's kind and parameters, in words and as JSON.
    pub(crate) fn describe(&self) -> Description {
        Description {
            words: self.words(),
            parameters: self.parameters(),
        }
    }

    /// The classifier's parameters, as JSON.
    fn parameters(&self) -> Value {
        match self {
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
            Classifier::Approximated(approx) => {
                let map = &approx.map;
                let svm = &approx.svm;
                json!({
                    "c": svm.params().c,
                    "loss": loss_flag(svm.params().loss),
                    "approx": map.approximation().name(),
                    "components": map.components(),
                    "features": map.features(),
                    "gamma": map.gamma(),
                    "calibrated": svm.is_calibrated(),
                    "reservoir_rows": svm.reservoir().rows().len(),
                })
            }
            Classifier::KernelSvm(svm) => {
                let kernel = svm.kernel();
                let converged = svm.converged().iter().filter(|&&c| c).count();
                json!({
                    "c": svm.c(),
                    "kernel": kernel.kind.name(),
                    "gamma": kernel.gamma,
                    "degree": kernel.degree,
                    "coef0": kernel.coef0,
                    "calibrated": svm.is_calibrated(),
                    "classes_converged": converged,
                    "support_vectors": svm.support_vectors(),
                    "dual_objectives": svm.dual_objectives(),
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
                json!({ "selected_features": kept, "inner": selected.inner.parameters() })
            }
            Classifier::MultiLabel(multi) => {
                let per_label = match &multi.scorer {
                    PerLabel::Svm(svm) => json!({ "svm_c": svm.params().c }),
                    PerLabel::NaiveBayes(nb) => {
                        json!({ "naive_bayes_alpha": nb.counts().0.alpha() })
                    }
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

    /// The kind in words, with its parameters.
    fn words(&self) -> String {
        match self {
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
                    "linear SVM, one-vs-rest, C {}, {} loss, {calibrated}; {converged} of {} \
                     classes converged; {} training rows kept for updates",
                    p.c,
                    loss_flag(p.loss),
                    svm.convergence().len(),
                    svm.reservoir().rows().len()
                )
            }
            Classifier::KernelSvm(svm) => kernel_words(svm),
            Classifier::Approximated(approx) => {
                let linear = Classifier::Svm(approx.svm.clone()).words();
                format!("{linear}; over {}", approx.describe_map())
            }
            Classifier::Knn(knn) => {
                let p = knn.params();
                let similarity = match p.similarity {
                    Similarity::Cosine => "cosine similarity".to_string(),
                    Similarity::Bm25 { k1, b } => format!("BM25 (k1 {k1}, b {b})"),
                };
                format!(
                    "k-nearest neighbours, k {}, {similarity}; it keeps its {} training documents \
                     and has no per-class weights",
                    p.k,
                    knn.class_docs().iter().sum::<u64>()
                )
            }
            Classifier::Selected(selected) => {
                let kept = selected.columns.iter().filter(|&&c| c != u32::MAX).count();
                format!(
                    "{}, on {kept} features chosen by `bowline select`",
                    selected.inner.words()
                )
            }
        }
    }
}

/// A kernel SVM in words: its kernel with the parameters it uses, C, calibration and support.
fn kernel_words(svm: &KernelSvm) -> String {
    let k = svm.kernel();
    let kernel = match k.kind {
        KernelKind::Poly => format!(
            "poly kernel (gamma {}, degree {}, coef0 {})",
            k.gamma, k.degree, k.coef0
        ),
        KernelKind::Rbf => format!("rbf kernel (gamma {})", k.gamma),
        other => format!("{} kernel", other.name()),
    };
    let converged = svm.converged().iter().filter(|&&c| c).count();
    let calibrated = if svm.is_calibrated() {
        "calibrated (Platt)"
    } else {
        "uncalibrated"
    };
    format!(
        "kernel SVM (SMO), one-vs-rest, {kernel}, C {}, {calibrated}; {converged} of {} classes \
         converged; {} support vectors",
        svm.c(),
        svm.converged().len(),
        svm.support_vectors()
    )
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
    kind.pick("multinomial", "complement", "Bernoulli")
}
