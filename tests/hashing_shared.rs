//! Feature hashing on 20 Newsgroups bydate: with `--hash-bits 20` (2^20 columns, about as many
//! as the 1.26 million terms of the default vocabulary) the SVM and multinomial NB, trained on
//! train with their defaults otherwise and evaluated on test, are within 0.5 points of
//! vocabulary mode. benches/README.md (`hashing.sh`) has the figures.

mod common;

use common::{arg, bowline, outcome};

const NEWS: &str = "../shared/corpora/20news-bydate";

/// Trains `--classifier name` (and `extra` flags) on 20 Newsgroups train, evaluates on test,
/// returns the accuracy.
fn news_accuracy(name: &str, extra: &[&str]) -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    let (train, test) = (format!("{NEWS}/train"), format!("{NEWS}/test"));
    let args = [
        "train",
        &train,
        "-o",
        arg(&model),
        "--classifier",
        name,
        "-q",
    ];
    let (code, _, stderr) = outcome(&bowline(&[&args[..], extra].concat(), b""));
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) =
        outcome(&bowline(&["eval", arg(&model), &test, "--json", "-q"], b""));
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    report["accuracy"].as_f64().unwrap()
}

fn hashing_keeps_accuracy(name: &str) {
    // Hashing weighs word pairs like words, so the vocabulary it is measured against does too.
    let vocabulary = news_accuracy(name, &["--ngram-weight", "1"]);
    let hashed = news_accuracy(name, &["--hash-bits", "20"]);
    eprintln!("{name}: vocabulary {vocabulary:.4}, --hash-bits 20 {hashed:.4}");
    assert!(
        (hashed - vocabulary).abs() <= 0.005,
        "{name}: vocabulary {vocabulary:.4}, hashed {hashed:.4}"
    );
}

#[test]
#[ignore = "needs ../shared/corpora"]
fn news_svm_hashed_to_2_pow_20_is_within_half_a_point_of_the_vocabulary() {
    hashing_keeps_accuracy("svm");
}

#[test]
#[ignore = "needs ../shared/corpora"]
fn news_mnb_hashed_to_2_pow_20_is_within_half_a_point_of_the_vocabulary() {
    hashing_keeps_accuracy("mnb");
}
