//! What `train`, `select` and `update` say of the model they made: the closing line, the
//! multi-label and smoothing lines, and the warning for an SVM class that did not converge.

use std::path::Path;

use crate::model::{Classifier, Model};

use super::vectorized::features;

/// What was trained, `on` what, how fast, and where it went: `trained ...`.
pub fn trained_text(model: &Model, on: &str, output: &Path, seconds: f64) -> String {
    format!(
        "trained {} on {on}, {} classes, {} in {seconds:.2} s -> {}",
        model.classifier.name(),
        model.labels.len(),
        features(&model.vectorizer),
        output.display()
    )
}

/// The lines after it: a multi-label model's decision, and naive Bayes' smoothing when
/// leave-one-out chose it (`chosen_alpha`).
pub fn model_lines(model: &Model, chosen_alpha: Option<f64>) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(multi) = model.classifier.multi_label() {
        lines.push(format!(
            "multi-label model, one binary problem per label; thresholds: {}; at least {} \
             label(s) per document",
            multi.decision.tuned_by, multi.decision.min_labels
        ));
    }
    if let Some(alpha) = chosen_alpha {
        lines.push(format!(
            "smoothing alpha {alpha}, chosen by leave-one-out on the training documents"
        ));
    }
    lines
}

/// A warning for each class whose SVM, if the classifier is or wraps one, stopped at the
/// iteration cap.
pub fn unconverged(classifier: &Classifier, classes: &[String]) -> Vec<String> {
    let Some(svm) = classifier.svm() else {
        return Vec::new();
    };
    let stopped = svm.convergence().iter().zip(classes);
    stopped
        .filter(|(binary, _)| !binary.converged)
        .map(|(binary, class)| {
            format!(
                "warning: class '{class}': SVM stopped at the iteration cap ({}) before \
                 reaching the tolerance; raise --max-iterations or --tolerance",
                binary.iterations
            )
        })
        .collect()
}

/// What a stream taught a model, and where the model went.
pub fn learned(documents: u64, classes: usize, terms: usize, path: &std::path::Path) -> String {
    let path = path.display();
    format!("learned {documents} documents: {classes} classes, {terms} terms -> {path}")
}

/// The documents a model was trained on across a cluster of `(processes, workers)`, and what
/// its training exchanged.
#[cfg(feature = "cluster")]
pub fn across_cluster(
    documents: usize,
    (processes, workers): (usize, usize),
    exchange: &crate::cluster::Exchange,
) -> String {
    use crate::cluster::Exchange;
    let exchanged = match exchange {
        Exchange::Gathered { bytes, method } => format!("{bytes} bytes of {method} gathered"),
        Exchange::Cocoa {
            round_bytes,
            vocabulary_bytes,
            dual_objective,
        } => {
            let rounds = round_bytes.len();
            let bytes: u64 = round_bytes.iter().sum();
            format!(
                "CoCoA+ in {rounds} rounds, {bytes} bytes exchanged, {} a round on average \
                 and {vocabulary_bytes} for the vocabulary; dual objective {dual_objective:.9e}",
                bytes / rounds.max(1) as u64,
            )
        }
    };
    format!("{documents} documents across {processes} processes of {workers} workers ({exchanged})")
}
