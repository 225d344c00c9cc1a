//! `bowline inspect` shows what a model is and each class's top terms; `bowline export` writes a
//! model as JSON from which another program computes the same scores as bowline.

mod common;

use std::path::Path;

use common::{arg, bowline, fails_with, outcome, train_quietly};
use serde_json::Value;

fn run_ok(args: &[&str], stdin: &[u8]) -> String {
    let (code, stdout, stderr) = outcome(&bowline(args, stdin));
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

#[test]
fn inspect_shows_kind_classes_settings_provenance_and_top_terms() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("mnb.model");
    train_quietly("corpora", &model, "mnb");
    let text = run_ok(&["inspect", arg(&model), "--top", "5"], b"");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1],
        "kind        mnb: multinomial naive Bayes, alpha 0.003, learned priors"
    );
    assert_eq!(
        lines[2],
        "classes     4, with their training documents: computing (15), cooking (16), space (15), \
         sports (15)"
    );
    assert_eq!(lines[3], "vocabulary  1202 terms from 61 documents");
    assert!(
        lines[4].starts_with("analysis    word 1..2-grams"),
        "{text}"
    );
    assert!(lines[4].contains("English stemming"), "{text}");
    assert!(lines[5].starts_with("weighting   tf sublinear, idf smooth, norm l2"));
    assert!(
        lines[6].starts_with("trained on  corpora (bowline "),
        "{text}"
    );
    assert_eq!(lines[7], "tuned       no");
    assert!(lines[9].contains("by log-likelihood ratio against the mean of the classes"));
    // Four classes, each with its name and five terms.
    assert_eq!(lines.len(), 10 + 4 * 6, "{text}");
    assert_eq!(lines[10], "computing");
    assert_eq!(lines[16], "cooking");
    let space = &lines[22..28];
    assert_eq!(space[0], "space");
    assert!(
        space.iter().any(|l| l.trim_start().starts_with("orbit ")),
        "{text}"
    );
}

#[test]
fn inspect_json_ranks_each_kinds_terms_by_its_own_measure() {
    let dir = tempfile::tempdir().unwrap();
    let kinds = [
        ("mnb", "log_likelihood_ratio"),
        ("bnb", "log_likelihood_ratio"),
        ("svm", "svm_weight"),
        ("knn", "training_weight"),
    ];
    for (kind, basis) in kinds {
        let model = dir.path().join(format!("{kind}.model"));
        train_quietly("corpora", &model, kind);
        let shown = json(&run_ok(
            &["inspect", arg(&model), "--json", "--top", "4"],
            b"",
        ));
        assert_eq!(shown["schema_version"], 1);
        assert_eq!(shown["kind"], kind);
        assert_eq!(shown["classes"][2]["label"], "space");
        assert_eq!(shown["classes"][2]["training_documents"], 15);
        assert_eq!(shown["documents"], 61);
        assert_eq!(shown["training"]["corpora"][0], "corpora");
        assert_eq!(shown["training"]["tuned"], Value::Null);
        assert!(shown["analysis"]["ngram_max"].is_u64());
        assert!(shown["vectorizer"]["weighting"]["tf"].is_string());
        // The SVM weighs word pairs 0.7 by default; k-NN weighs its rows itself.
        let pairs = if kind == "svm" { 0.7 } else { 1.0 };
        assert_eq!(shown["ngram_weight"], pairs, "{kind}");
        let top = &shown["top_terms"];
        assert_eq!(top["ranked_by"], basis, "{kind}");
        let classes = top["classes"].as_array().unwrap();
        assert_eq!(classes.len(), 4);
        for class in classes {
            let terms = class["terms"].as_array().unwrap();
            assert_eq!(terms.len(), 4, "{kind}");
            let values: Vec<f64> = terms.iter().map(|t| t["value"].as_f64().unwrap()).collect();
            assert!(
                values.windows(2).all(|p| p[0] >= p[1]),
                "{kind}: {values:?}"
            );
        }
    }
}

#[test]
fn inspect_shows_what_tuning_chose() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("tuned.model");
    let args = ["train", "corpora", "-o", arg(&model), "--classifier", "mnb"];
    let tune = ["--tune", "--tune-trials", "6", "-q"];
    run_ok(&[&args[..], &tune[..]].concat(), b"");
    let text = run_ok(&["inspect", arg(&model)], b"");
    let tuned = text.lines().find(|l| l.starts_with("tuned ")).unwrap();
    assert!(tuned.contains("--alpha "), "{tuned}");
    assert!(tuned.contains("cross-validated accuracy"), "{tuned}");
    let shown = json(&run_ok(&["inspect", arg(&model), "--json"], b""));
    let flags = shown["training"]["tuned"]["flags"].as_str().unwrap();
    assert!(tuned.contains(flags), "{tuned}");
}

#[test]
fn inspect_and_export_refuse_what_is_not_a_model() {
    fails_with(
        &["inspect", "corpora/README.md"],
        "not a bowline model file",
    );
    fails_with(
        &["export", "corpora/README.md", "--json"],
        "not a bowline model file",
    );
    fails_with(&["export", "tests/fixtures/model-v4-svm.bowline"], "--json");
}

/// The row bowline makes of a text whose words are their own stems, from the exported
/// vocabulary and idf: words and word pairs (as the vocabulary spells them) that it knows,
/// sublinear tf `1 + ln count` times idf, scaled to unit length.
fn row(export: &Value, words: &[&str]) -> Vec<(usize, f64)> {
    let vocabulary: Vec<&str> = (export["vocabulary"].as_array().unwrap().iter())
        .map(|t| t.as_str().unwrap())
        .collect();
    let weighting = &export["vectorizer"]["weighting"];
    let names = [&weighting["tf"], &weighting["idf"], &weighting["norm"]];
    assert_eq!(
        names,
        [&json("\"sublinear\""), &json("\"smooth\""), &json("\"l2\"")]
    );
    let pairs = words.windows(2).map(|p| format!("{} {}", p[0], p[1]));
    let terms = words.iter().map(|w| w.to_string()).chain(pairs);
    let mut counts = std::collections::BTreeMap::new();
    for j in terms.filter_map(|t| vocabulary.iter().position(|v| *v == t)) {
        *counts.entry(j).or_insert(0.0) += 1.0;
    }
    let mut row: Vec<(usize, f64)> = (counts.into_iter())
        .map(|(j, count): (usize, f64)| {
            (j, (1.0 + count.ln()) * export["idf"][j].as_f64().unwrap())
        })
        .collect();
    let length = row.iter().map(|(_, v)| v * v).sum::<f64>().sqrt();
    row.iter_mut().for_each(|(_, v)| *v /= length);
    row
}

fn numbers(value: &Value) -> Vec<f64> {
    (value.as_array().unwrap().iter())
        .map(|v| v.as_f64().unwrap())
        .collect()
}

/// Each class's score recomputed from the export alone, by the formulas of `export --help`.
fn scores(export: &Value, x: &[(usize, f64)]) -> Vec<f64> {
    let classifier = &export["classifier"];
    if classifier["type"] == "svm" {
        let weights = classifier["weights"].as_array().unwrap();
        let intercepts = numbers(&classifier["intercepts"]);
        return (weights.iter().zip(intercepts))
            .map(|(w, b)| {
                b + x
                    .iter()
                    .map(|&(j, v)| w[j].as_f64().unwrap() * v)
                    .sum::<f64>()
            })
            .collect();
    }
    assert_eq!(classifier["type"], "naive_bayes");
    assert_eq!(classifier["priors"], "learned");
    let alpha = classifier["alpha"].as_f64().unwrap();
    let n = classifier["features"].as_f64().unwrap();
    let docs = numbers(&classifier["class_documents"]);
    let all_docs: f64 = docs.iter().sum();
    // Dense sums s[c][j].
    let sums: Vec<Vec<f64>> = (classifier["sums"].as_array().unwrap().iter())
        .map(|s| {
            let mut dense = vec![0.0; n as usize];
            let indices = s["indices"].as_array().unwrap();
            for (j, v) in indices.iter().zip(numbers(&s["values"])) {
                dense[j.as_u64().unwrap() as usize] = v;
            }
            dense
        })
        .collect();
    let present = |j: usize| x.iter().find(|&&(k, _)| k == j).map(|&(_, v)| v);
    let model = classifier["event_model"].as_str().unwrap();
    let score = |c: usize, s: &Vec<f64>| -> f64 {
        let prior = (docs[c] / all_docs).ln();
        match model {
            "multinomial" => {
                let total: f64 = s.iter().sum();
                let log_theta = |j: usize| ((s[j] + alpha) / (total + alpha * n)).ln();
                prior + x.iter().map(|&(j, v)| v * log_theta(j)).sum::<f64>()
            }
            "complement" => {
                let all: Vec<f64> = (0..n as usize)
                    .map(|j| sums.iter().map(|s| s[j]).sum())
                    .collect();
                let rest_total: f64 = (0..n as usize).map(|j| all[j] - s[j]).sum();
                let w = |j: usize| ((all[j] - s[j] + alpha) / (rest_total + alpha * n)).ln();
                let w_total: f64 = (0..n as usize).map(w).sum();
                x.iter().map(|&(j, v)| v * w(j)).sum::<f64>() / w_total
            }
            _ => {
                let p = |j: usize| (s[j] + alpha) / (docs[c] + 2.0 * alpha);
                let each = (0..n as usize).map(|j| match present(j) {
                    Some(v) if v > 0.0 => p(j).ln(),
                    _ => (1.0 - p(j)).ln(),
                });
                prior + each.sum::<f64>()
            }
        }
    };
    sums.iter().enumerate().map(|(c, s)| score(c, s)).collect()
}

/// Scores turned into what `classify` prints: a softmax, for naive Bayes' posteriors and the
/// uncalibrated SVM's scores alike.
fn softmax(scores: &[f64]) -> Vec<f64> {
    let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let total: f64 = scores.iter().map(|s| (s - max).exp()).sum();
    scores.iter().map(|s| (s - max).exp() / total).collect()
}

#[test]
fn scores_recomputed_from_the_export_equal_bowlines() {
    let dir = tempfile::tempdir().unwrap();
    let words = ["the", "rocket", "orbit", "the", "moon", "launch"];
    let text = words.join(" ") + "\n";
    // Stemming leaves these words as they are, so the test can form the terms itself.
    for kind in ["svm", "mnb", "cnb", "bnb"] {
        let model = dir.path().join(format!("{kind}.model"));
        train_quietly("corpora", &model, kind);
        let exported = dir.path().join(format!("{kind}.json"));
        run_ok(
            &["export", arg(&model), "--json", "-o", arg(&exported)],
            b"",
        );
        let export = json(&std::fs::read_to_string(&exported).unwrap());
        assert_eq!(export["schema_version"], 1);
        assert_eq!(export["kind"], kind);
        assert_eq!(export["documents"], 61);
        let labels = export["labels"].as_array().unwrap().clone();
        let vocabulary = export["vocabulary"].as_array().unwrap().len();
        assert_eq!(export["idf"].as_array().unwrap().len(), vocabulary);
        assert_eq!(export["df"].as_array().unwrap().len(), vocabulary);
        let x = row(&export, &words);
        assert!(x.len() >= 4, "{kind}: {x:?}");
        let computed = scores(&export, &x);
        let args = [
            "classify",
            arg(&model),
            "--format",
            "jsonl",
            "--top",
            "4",
            "--explain",
            "1",
        ];
        let printed = json(&run_ok(&args, text.as_bytes()));
        let value = if kind == "svm" {
            "score"
        } else {
            "probability"
        };
        let probabilities = softmax(&computed);
        for ranked in printed["scores"].as_array().unwrap() {
            let c = labels.iter().position(|l| *l == ranked["label"]).unwrap();
            let shown = ranked[value].as_f64().unwrap();
            assert!((shown - probabilities[c]).abs() < 1e-9, "{kind}: {ranked}");
        }
        // The explained score: the SVM's decision value; naive Bayes' less its mean.
        let explained = &printed["explanations"][0];
        let c = labels
            .iter()
            .position(|l| *l == explained["label"])
            .unwrap();
        let mean = computed.iter().sum::<f64>() / computed.len() as f64;
        let expected = if kind == "svm" {
            computed[c]
        } else {
            computed[c] - mean
        };
        let score = explained["score"].as_f64().unwrap();
        assert!(
            (score - expected).abs() < 1e-9,
            "{kind}: {score} {expected}"
        );
    }
}

#[test]
fn export_writes_knn_documents_and_selected_columns() {
    let dir = tempfile::tempdir().unwrap();
    let knn = Path::new("tests/fixtures/model-v4-knn-chars.bowline");
    let export = json(&run_ok(&["export", arg(knn), "--json"], b""));
    let classifier = &export["classifier"];
    assert_eq!(
        (
            &classifier["type"],
            &classifier["k"],
            &classifier["similarity"]
        ),
        (&json("\"knn\""), &json("30"), &json("\"cosine\""))
    );
    let documents = classifier["documents"].as_array().unwrap();
    assert_eq!(documents.len(), 61);
    let in_space = documents.iter().filter(|d| d["class"] == 2).count();
    assert_eq!(in_space, 15);
    assert_eq!(export["analysis"]["char_ngrams"], json("[3, 3]"));

    let model = dir.path().join("selected.model");
    let args = [
        "select",
        "corpora",
        "-o",
        arg(&model),
        "--max-features",
        "20",
        "-q",
    ];
    run_ok(&args, b"");
    let export = json(&run_ok(&["export", arg(&model), "--json"], b""));
    let classifier = &export["classifier"];
    assert_eq!(classifier["type"], "selected");
    let columns = classifier["columns"].as_array().unwrap();
    assert!(!columns.is_empty() && columns.len() <= 20, "{columns:?}");
    assert_eq!(classifier["inner"]["features"], columns.len());
    let shown = json(&run_ok(&["inspect", arg(&model), "--json"], b""));
    assert_eq!(shown["classifier"]["selected_features"], columns.len());
}
