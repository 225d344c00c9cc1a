//! `bowline rank`, `cv` and `select` on small corpora made on the fly.

mod common;

use common::{arg, bowline, outcome, write_tree};

/// Two classes of eight documents; only "zebra" tells them apart (it is in every document of
/// class a and in none of class b); the other words are spread over both.
fn corpus(root: &std::path::Path) {
    let noise = [
        "river stone",
        "stone cloud",
        "cloud river",
        "paper stone",
        "river paper",
        "cloud paper",
        "stone river",
        "paper cloud",
    ];
    let mut files = Vec::new();
    for (i, words) in noise.iter().enumerate() {
        files.push((format!("a/{i}.txt"), format!("zebra {words}")));
        files.push((
            format!("b/{i}.txt"),
            format!("{words} {}", noise[(i + 3) % 8]),
        ));
    }
    let files: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_bytes()))
        .collect();
    write_tree(root, &files);
}

fn json(args: &[&str]) -> serde_json::Value {
    let (code, stdout, stderr) = outcome(&bowline(args, b""));
    assert_eq!(code, 0, "{args:?}: {stderr}");
    serde_json::from_str(&stdout).unwrap()
}

#[test]
fn rank_puts_the_informative_term_first_by_every_score() {
    let dir = tempfile::tempdir().unwrap();
    corpus(dir.path());
    let root = arg(dir.path());
    for by in ["chi2", "ig", "mi"] {
        let ranked = json(&["rank", root, "--by", by, "--top", "3", "--json", "-q"]);
        let first = &ranked["listings"][0]["features"][0];
        assert_eq!(first["term"], "zebra", "{by}: {ranked}");
        assert_eq!(first["df"], 8);
    }
    // Perfect separation of 16 documents: χ² = N.
    let ranked = json(&["rank", root, "--json", "-q"]);
    assert_eq!(ranked["listings"][0]["features"][0]["score"], 16.0);
    let per_class = json(&["rank", root, "--per-class", "--top", "1", "--json", "-q"]);
    assert_eq!(per_class["listings"][1]["class"], "b");
    let by_df = json(&["rank", root, "--by", "df", "--top", "1", "--json", "-q"]);
    assert_eq!(by_df["listings"][0]["features"][0]["df"], 12);
    common::fails_with(
        &["rank", root, "--by", "ig", "--per-class"],
        "--per-class needs --by chi2 or mi",
    );
}

#[test]
fn cv_reports_each_fold_and_is_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    corpus(dir.path());
    let args = [
        "cv",
        arg(dir.path()),
        "--folds",
        "4",
        "--classifier",
        "bnb",
        "--json",
        "-q",
    ];
    let report = json(&args);
    let folds = report["folds"].as_array().unwrap();
    assert_eq!(folds.len(), 4);
    // Stratified: each fold holds two documents of each class.
    assert!(folds.iter().all(|f| f["docs"] == 4), "{report}");
    assert_eq!(
        report["accuracy"]["mean"], 1.0,
        "zebra decides every document: {report}"
    );
    // Reproducible where it could fail to be: on the bundled corpus the folds score apart.
    let args = [
        "cv",
        "corpora",
        "--folds",
        "5",
        "--classifier",
        "mnb",
        "--json",
        "-q",
    ];
    let report = json(&args);
    let folds = report["folds"].as_array().unwrap();
    let docs: Vec<u64> = folds.iter().map(|f| f["docs"].as_u64().unwrap()).collect();
    // 61 documents (computing 15, cooking 16, space 15, sports 15: `ls corpora/*/`) stratified
    // into 5 folds of 12 or 13.
    assert_eq!(docs.iter().sum::<u64>(), 61, "{report}");
    assert!(docs.iter().all(|&d| d == 12 || d == 13), "{report}");
    let accuracies: Vec<f64> = (folds.iter())
        .map(|f| f["accuracy"].as_f64().unwrap())
        .collect();
    assert!(accuracies.iter().any(|&a| a < 1.0), "{report}");
    assert_eq!(json(&args), report);
    common::fails_with(
        &["cv", arg(dir.path()), "--folds", "1"],
        "--folds must be between 2",
    );
}

#[test]
fn select_finds_the_informative_term_first_and_writes_model_report_and_curve() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("corpus");
    corpus(&root);
    let (model, report, plot) = (
        dir.path().join("m.model"),
        dir.path().join("r.json"),
        dir.path().join("c.svg"),
    );
    for classifier in ["bnb", "mnb", "svm"] {
        let args = [
            "select",
            arg(&root),
            "-o",
            arg(&model),
            "--classifier",
            classifier,
            "--dev-split",
            "0.25",
            "--max-features",
            "4",
            "--patience",
            "4",
            "--report",
            arg(&report),
            "--plot",
            arg(&plot),
            "-q",
        ];
        let (code, _, stderr) = outcome(&bowline(&args, b""));
        assert_eq!(code, 0, "{classifier}: {stderr}");
        let selection: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        assert_eq!(
            selection["steps"][0]["term"], "zebra",
            "{classifier}: {selection}"
        );
        assert_eq!(selection["selected_dev"], 1.0, "{classifier}: {selection}");
        let svg = std::fs::read_to_string(&plot).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("<polyline"),
            "{svg}"
        );
    }
    let probes = "zebra paper\nriver stone cloud\n";
    let (code, stdout, stderr) = outcome(&bowline(
        &["classify", arg(&model), "-q"],
        probes.as_bytes(),
    ));
    assert_eq!(code, 0, "{stderr}");
    let labels: Vec<&str> = stdout
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(labels, ["a", "b"]);
    let refusal = format!("{}: a model from `select` keeps only", model.display());
    common::fails_with(&["update", arg(&model), arg(&root)], &refusal);
}
