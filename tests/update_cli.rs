//! `bowline update`: naive Bayes learns more documents, new terms and new classes included.

mod common;

use common::{arg, bowline, outcome, write_tree, NEW_DOCS as B, PROBES};

const A: &[(&str, &[u8])] = &[
    ("space/1.txt", b"rocket launch orbit satellite"),
    ("space/2.txt", b"the probe reached orbit around the moon"),
    ("food/1.txt", b"bake bread with flour and butter"),
    ("food/2.txt", b"roast the chicken and bake potatoes"),
];
// Raw counts and no pruning: a weighting that depends on the document alone.
const EXACT: &[&str] = &[
    "--classifier",
    "mnb",
    "--tf",
    "count",
    "--idf",
    "none",
    "--norm",
    "none",
    "--min-df",
    "1",
    "--alpha",
    "0.01",
    "-q",
];

fn run(args: &[&str]) -> String {
    let (code, stdout, stderr) = outcome(&bowline(args, b""));
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

/// `classify --format jsonl` results as (id file name, label, probability or, for an
/// uncalibrated SVM, score).
fn classify(model: &std::path::Path, probes: &std::path::Path) -> Vec<(String, String, f64)> {
    let out = run(&[
        "classify",
        arg(model),
        arg(probes),
        "--format",
        "jsonl",
        "-q",
    ]);
    out.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let id = v["id"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string();
            (
                id,
                v["label"].as_str().unwrap().to_string(),
                v["probability"].as_f64().or(v["score"].as_f64()).unwrap(),
            )
        })
        .collect()
}

/// Writes A, B, both and the probes under `dir`; returns their folders and two model paths.
fn corpora(dir: &std::path::Path) -> [std::path::PathBuf; 6] {
    let names = ["a", "b", "both", "probes", "updated.model", "whole.model"];
    let paths = names.map(|name| dir.join(name));
    write_tree(&paths[0], A);
    write_tree(&paths[1], B);
    write_tree(&paths[2], A);
    write_tree(&paths[2], B);
    write_tree(&paths[3], PROBES);
    paths
}

#[test]
fn updating_with_b_after_a_equals_training_on_both() {
    let dir = tempfile::tempdir().unwrap();
    let [a, b, both, probes, updated, whole] = corpora(dir.path());
    run(&[&["train", arg(&a), "-o", arg(&updated)], EXACT].concat());
    run(&["update", arg(&updated), arg(&b), "-q"]);
    run(&[&["train", arg(&both), "-o", arg(&whole)], EXACT].concat());
    let (incremental, from_scratch) = (classify(&updated, &probes), classify(&whole, &probes));
    assert_eq!(incremental.len(), 4);
    for (i, (x, y)) in incremental.iter().zip(&from_scratch).enumerate() {
        assert_eq!((&x.0, &x.1), (&y.0, &y.1), "probe {i}");
        assert!((x.2 - y.2).abs() < 1e-9, "probe {i}: {} vs {}", x.2, y.2);
    }
    // New terms and the new class work: the sport probe is recognised.
    let labels: Vec<&str> = incremental.iter().map(|r| r.1.as_str()).collect();
    assert_eq!(labels, ["space", "food", "sport", "space"]);
}

#[test]
fn update_writes_elsewhere_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    write_tree(&a, A);
    write_tree(&b, B);
    let (model, copy) = (dir.path().join("m.model"), dir.path().join("m2.model"));
    run(&[
        "train",
        arg(&a),
        "-o",
        arg(&model),
        "--classifier",
        "cnb",
        "-q",
    ]);
    let before = std::fs::read(&model).unwrap();
    let (code, _, stderr) = outcome(&bowline(
        &["update", arg(&model), arg(&b), "-o", arg(&copy)],
        b"",
    ));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("updated with 4 documents: 3 classes"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(&model).unwrap(),
        before,
        "the original is untouched"
    );
}

#[test]
fn an_svm_that_kept_every_document_updates_to_what_retraining_gives() {
    let dir = tempfile::tempdir().unwrap();
    let [a, b, both, probes, updated, whole] = corpora(dir.path());
    // Every document fits in the default reservoir, so the update optimizes the union's whole
    // problem; raw counts keep the earlier rows' values unchanged by the new documents.
    let flags: &[&str] = &[
        "--min-df",
        "1",
        "--idf",
        "none",
        "--tolerance",
        "1e-6",
        "-q",
    ];
    run(&[&["train", arg(&a), "-o", arg(&updated)], flags].concat());
    run(&["update", arg(&updated), arg(&b), "-q"]);
    run(&[&["train", arg(&both), "-o", arg(&whole)], flags].concat());
    let (incremental, from_scratch) = (classify(&updated, &probes), classify(&whole, &probes));
    for (i, (x, y)) in incremental.iter().zip(&from_scratch).enumerate() {
        assert_eq!((&x.0, &x.1), (&y.0, &y.1), "probe {i}");
        assert!((x.2 - y.2).abs() < 1e-4, "probe {i}: {} vs {}", x.2, y.2);
    }
    let labels: Vec<&str> = incremental.iter().map(|r| r.1.as_str()).collect();
    assert_eq!(labels, ["space", "food", "sport", "space"]);
}

#[test]
fn an_update_without_documents_is_refused_and_leaves_the_model_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let (a, model) = (dir.path().join("a"), dir.path().join("m.model"));
    write_tree(&a, A);
    run(&[&["train", arg(&a), "-o", arg(&model)], EXACT].concat());
    let (before, written) = (std::fs::read(&model).unwrap(), modified(&model));
    // Class folders without files, and an empty TSV file: each reads as no document.
    let folders = dir.path().join("folders");
    for class in ["space", "sport"] {
        std::fs::create_dir_all(folders.join(class)).unwrap();
    }
    let tsv = dir.path().join("new.tsv");
    std::fs::write(&tsv, b"").unwrap();
    for corpus in [&folders, &tsv] {
        let (code, _, stderr) = outcome(&bowline(&["update", arg(&model), arg(corpus)], b""));
        assert_eq!(code, 2, "{stderr}");
        let refusal = format!(
            "bowline: {}: no labelled document to learn, so the model was not updated",
            corpus.display()
        );
        assert!(stderr.contains(&refusal), "{stderr}");
        assert!(!stderr.contains("updated with"), "{stderr}");
        assert_eq!(std::fs::read(&model).unwrap(), before, "{corpus:?}");
        assert_eq!(modified(&model), written, "{corpus:?}");
    }
}

fn modified(path: &std::path::Path) -> std::time::SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}
