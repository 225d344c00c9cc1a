//! `--classifier knn` through the command line: train, eval, classify (files and stdin), cv and
//! update, and the flags it shares with the other classifiers.

mod common;

use std::path::{Path, PathBuf};

use common::{arg, bowline, fails_with, outcome, write_tree, NEW_DOCS as B, PROBES};

/// Three space documents and two food documents; [`NEW_DOCS`](B) adds to them.
const A: &[(&str, &[u8])] = &[
    ("space/1.txt", b"rocket launch orbit satellite"),
    ("space/2.txt", b"the probe reached orbit around the moon"),
    ("space/0.txt", b"a rocket carried the satellite to orbit"),
    ("food/1.txt", b"bake bread with flour and butter"),
    ("food/2.txt", b"roast the chicken and bake potatoes"),
];

fn run(args: &[&str]) -> String {
    let (code, stdout, stderr) = outcome(&bowline(args, b""));
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

/// One `classify --format jsonl` result.
struct Classified {
    /// The probe's file name.
    id: String,
    label: String,
    /// Every class's probability, by class name.
    scores: Vec<(String, f64)>,
}

fn classify(model: &Path, probes: &Path) -> Vec<Classified> {
    let out = run(&[
        "classify",
        arg(model),
        arg(probes),
        "--format",
        "jsonl",
        "--top",
        "10",
        "-q",
    ]);
    out.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let id = v["id"].as_str().unwrap().rsplit('/').next().unwrap();
            let mut scores: Vec<(String, f64)> = v["scores"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    let label = s["label"].as_str().unwrap().to_string();
                    (label, s["probability"].as_f64().unwrap())
                })
                .collect();
            scores.sort_by(|x, y| x.0.cmp(&y.0));
            let label = v["label"].as_str().unwrap().to_string();
            Classified {
                id: id.to_string(),
                label,
                scores,
            }
        })
        .collect()
}

/// Writes A, B, both and the probes under `dir`; returns their folders.
fn corpora(dir: &Path) -> [PathBuf; 4] {
    let paths = ["a", "b", "both", "probes"].map(|name| dir.join(name));
    write_tree(&paths[0], A);
    write_tree(&paths[1], B);
    write_tree(&paths[2], A);
    write_tree(&paths[2], B);
    write_tree(&paths[3], PROBES);
    paths
}

fn train(corpus: &Path, model: &Path, flags: &[&str]) {
    let args = [
        "train",
        arg(corpus),
        "-o",
        arg(model),
        "--classifier",
        "knn",
        "-q",
    ];
    run(&[&args[..], flags].concat());
}

#[test]
fn knn_trains_evaluates_and_classifies_files_and_lines() {
    let dir = tempfile::tempdir().unwrap();
    let [_, _, both, probes] = corpora(dir.path());
    let model = dir.path().join("m.model");
    let (code, _, stderr) = outcome(&bowline(
        &[
            "train",
            arg(&both),
            "-o",
            arg(&model),
            "--classifier",
            "knn",
        ],
        b"",
    ));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("trained knn on 9 documents, 3 classes"),
        "{stderr}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&run(&["eval", arg(&model), arg(&both), "--json", "-q"])).unwrap();
    assert_eq!(report["accuracy"].as_f64(), Some(1.0), "{report}");
    let results = classify(&model, &probes);
    let labels: Vec<&str> = results.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["space", "food", "sport", "space"]);
    let lines = b"the rocket reached orbit\nbread and soup\n";
    let (code, stdout, stderr) = outcome(&bowline(&["classify", arg(&model), "-q"], lines));
    assert_eq!(code, 0, "{stderr}");
    let labels: Vec<&str> = stdout
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(labels, ["space", "food"], "{stdout}");
}

#[test]
fn a_document_of_unknown_words_gets_the_class_priors() {
    let dir = tempfile::tempdir().unwrap();
    let [a, ..] = corpora(dir.path());
    let model = dir.path().join("m.model");
    train(&a, &model, &[]);
    let (code, stdout, stderr) = outcome(&bowline(
        &["classify", arg(&model), "-q"],
        b"zebra xylophone\n",
    ));
    assert_eq!(code, 0, "{stderr}");
    let fields: Vec<&str> = stdout.trim_end().split('\t').collect();
    // Three of the five training documents are about space.
    assert_eq!(fields[1], "space", "{stdout}");
    let probability: f64 = fields[2].parse().unwrap();
    assert!((probability - 0.6).abs() < 1e-5, "{stdout}");
}

#[test]
fn updating_a_knn_model_equals_training_on_both_corpora() {
    for similarity in ["cosine", "bm25"] {
        let dir = tempfile::tempdir().unwrap();
        let [a, b, both, probes] = corpora(dir.path());
        let (updated, whole) = (dir.path().join("u.model"), dir.path().join("w.model"));
        train(&a, &updated, &["--similarity", similarity]);
        run(&["update", arg(&updated), arg(&b), "-q"]);
        train(&both, &whole, &["--similarity", similarity]);
        let (incremental, from_scratch) = (classify(&updated, &probes), classify(&whole, &probes));
        assert_eq!(incremental.len(), 4);
        for (x, y) in incremental.iter().zip(&from_scratch) {
            assert_eq!((&x.id, &x.label), (&y.id, &y.label), "{similarity}");
            assert_eq!(x.scores.len(), 3);
            for (p, q) in x.scores.iter().zip(&y.scores) {
                assert_eq!(p.0, q.0);
                let id = &x.id;
                assert!(
                    (p.1 - q.1).abs() < 1e-9,
                    "{similarity} {id}: {p:?} vs {q:?}"
                );
            }
        }
        let labels: Vec<&str> = incremental.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(labels, ["space", "food", "sport", "space"], "{similarity}");
    }
}

#[test]
fn cross_validation_runs_knn() {
    let dir = tempfile::tempdir().unwrap();
    let [_, _, both, _] = corpora(dir.path());
    let out = run(&[
        "cv",
        arg(&both),
        "--classifier",
        "knn",
        "--k",
        "3",
        "--folds",
        "2",
        "--json",
        "-q",
    ]);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["classifier"], "knn");
    assert_eq!(report["folds"].as_array().map(Vec::len), Some(2));
}

#[test]
fn flags_of_other_classifiers_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let [a, ..] = corpora(dir.path());
    let model = dir.path().join("m.model");
    let (a, model) = (arg(&a), arg(&model));
    let train = ["train", a, "-o", model];
    let with = |flags: &[&'static str]| -> Vec<&str> { [&train[..], flags].concat() };
    let knn_only = "--k and --similarity are k-NN flags";
    fails_with(&with(&["--classifier", "svm", "--k", "5"]), knn_only);
    fails_with(
        &with(&["--classifier", "mnb", "--similarity", "bm25"]),
        knn_only,
    );
    fails_with(&with(&["--classifier", "knn", "--c", "2"]), "are SVM flags");
    fails_with(
        &with(&["--classifier", "knn", "--seed", "2"]),
        "are SVM flags",
    );
    fails_with(
        &with(&["--classifier", "knn", "--alpha", "1"]),
        "--alpha is a naive Bayes flag",
    );
    fails_with(&with(&["--classifier", "knn", "--k", "0"]), "k >= 1");
    fails_with(
        &["select", a, "-o", model, "--classifier", "knn"],
        "select does not choose features for k-NN",
    );
    fails_with(
        &["learn", model, "--classifier", "knn"],
        "learn trains naive Bayes",
    );
}

/// The command: k-NN trained on a corpus index classifies as k-NN trained on the corpus
/// with the index's analysis (the default analysis, with stemming).
#[test]
fn knn_trains_on_a_corpus_index() {
    let dir = tempfile::tempdir().unwrap();
    let [a, _, _, probes] = corpora(dir.path());
    let index = dir.path().join("index");
    run(&["index", arg(&a), "--index", arg(&index), "-q"]);
    let (from_index, from_corpus) = (dir.path().join("i.model"), dir.path().join("c.model"));
    let knn = ["--classifier", "knn", "-q"];
    run(&[
        &["train", "--index", arg(&index), "-o", arg(&from_index)],
        &knn[..],
    ]
    .concat());
    train(&a, &from_corpus, &["--stem", "english"]);
    let (x, y) = (
        classify(&from_index, &probes),
        classify(&from_corpus, &probes),
    );
    assert_eq!(x.len(), PROBES.len());
    for (x, y) in x.iter().zip(&y) {
        assert_eq!((&x.id, &x.label, &x.scores), (&y.id, &y.label, &y.scores));
    }
    let report = run(&["eval", arg(&from_index), arg(&index), "--json", "-q"]);
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(report["docs"].as_u64(), Some(A.len() as u64));
}
