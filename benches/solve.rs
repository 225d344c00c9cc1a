//! Criterion benchmarks of the linear SVM's solver and of writing a model: the solve of the
//! default SVM's rows of 20 Newsgroups' training split, as its 20 classes (groups of 8, 8 and 4
//! lanes) and as one class against the rest (one lane), and the default model's file written
//! whole, `fsync` and rename included.
//!
//! Input: as `analyze.rs`, 20 Newsgroups train from `../shared/corpora` when it is there (the
//! figures in benches/README.md), otherwise the project's own `corpora/`. Each benchmark first
//! asserts a known count, so that a change that makes it faster by doing less work fails.

use std::hint::black_box;

use bowline::analyze::{Analyzer, Terms};
use bowline::model::{LinearSvm, SvmParams};
use bowline::vectorize::{Fitter, Matrix};
use bowline::{Builder, Kind, TextClassifier};
use criterion::{criterion_group, criterion_main, Criterion};

// The same allocator as the `bowline` binary, so the figures are the product's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "support/corpus.rs"]
mod support;

/// The corpus as (label, text) pairs, its class names (sorted), and the number of terms the
/// default SVM keeps of it (0: not asserted on the project's own corpus).
fn corpus() -> (Vec<(String, String)>, Vec<String>, usize) {
    let (documents, classes, shared) = support::read();
    let pairs = documents.into_iter().map(|doc| {
        let label = doc.label.expect("a labelled corpus");
        (label, doc.text)
    });
    (pairs.collect(), classes, if shared { 1_087_830 } else { 0 })
}

/// The default SVM's training matrix of `pairs`, and each row's class id among `classes`.
fn default_rows(
    pairs: &[(String, String)],
    classes: &[String],
    terms: usize,
) -> (Matrix, Vec<u32>) {
    let builder = Builder::new(Kind::Svm);
    let analyzer = Analyzer::new(builder.analysis_config().clone()).expect("analyzer");
    let mut fitter = Fitter::new(builder.vectorizer_config().clone()).expect("fitter");
    let (mut worker, mut found) = (analyzer.worker(), Terms::new());
    for (_, text) in pairs {
        worker.analyze(text, &mut found);
        fitter.add(&found);
    }
    let (vectorizer, x) = fitter.finish(analyzer.config().clone()).expect("finish");
    if terms > 0 {
        assert_eq!(vectorizer.n_features(), terms);
    }
    let id = |label: &String| classes.binary_search(label).expect("a class folder") as u32;
    (x, pairs.iter().map(|(label, _)| id(label)).collect())
}

fn solve(c: &mut Criterion) {
    let (pairs, names, terms) = corpus();
    let (x, labels) = default_rows(&pairs, &names, terms);
    let classes = names.len();
    let one_against_rest: Vec<u32> = labels.iter().map(|&l| u32::from(l == 0)).collect();
    let mut group = c.benchmark_group("svm");
    group.sample_size(10);
    for (name, labels, classes) in [
        ("every class", &labels, classes),
        ("one class", &one_against_rest, 2),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let svm = LinearSvm::train(&x, labels, classes, SvmParams::default());
                assert_eq!(svm.expect("solved").classes(), classes);
            })
        });
    }
    group.finish();
}

fn write(c: &mut Criterion) {
    let (pairs, _, terms) = corpus();
    let classifier = TextClassifier::builder(Kind::Svm)
        .fit(pairs)
        .expect("trained");
    if terms > 0 {
        assert_eq!(classifier.model().vectorizer.n_features(), terms);
    }
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("default.model");
    let mut group = c.benchmark_group("model");
    group.sample_size(10);
    group.bench_function("write", |b| {
        b.iter(|| classifier.save(black_box(&path)).expect("saved"))
    });
    group.finish();
}

criterion_group!(benches, solve, write);
criterion_main!(benches);
