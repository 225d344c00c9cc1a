//! `bowline train` and `bowline eval` on the project's corpus and on broken inputs.

mod common;

use common::{arg, bowline, fails_with, outcome, write_tree};

fn train(classifier: &str, model: &std::path::Path) -> (i32, String) {
    let output = bowline(
        &[
            "train",
            "corpora",
            "-o",
            arg(model),
            "--classifier",
            classifier,
        ],
        b"",
    );
    let (code, _, stderr) = outcome(&output);
    (code, stderr)
}

#[test]
fn every_classifier_trains_and_evaluates_on_the_project_corpus() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["mnb", "cnb", "bnb", "svm"] {
        let model = dir.path().join(format!("{name}.model"));
        let (code, stderr) = train(name, &model);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stderr.contains(&format!("trained {name} on 61 documents, 4 classes")),
            "{stderr}"
        );
        let (code, stdout, stderr) =
            outcome(&bowline(&["eval", arg(&model), "corpora", "--json"], b""));
        assert_eq!(code, 0, "{stderr}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(report["docs"], 61);
        assert_eq!(
            report["confusion"]["labels"],
            serde_json::json!(["computing", "cooking", "space", "sports"])
        );
        let matrix = report["confusion"]["matrix"].as_array().unwrap();
        let total: u64 = matrix
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .map(|n| n.as_u64().unwrap())
            .sum();
        assert_eq!(total, 61);
        let support: Vec<u64> = report["per_class"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["support"].as_u64().unwrap())
            .collect();
        assert_eq!(support, [15, 16, 15, 15]);
        // On its own training data every model separates these four topics well.
        assert!(
            report["accuracy"].as_f64().unwrap() >= 0.85,
            "{name}: {}",
            report["accuracy"]
        );
        for key in ["macro_f1", "micro_f1"] {
            assert!(report[key].is_f64(), "{key}");
        }
    }
}

#[test]
fn eval_prints_aligned_tables_and_reports_unknown_labels() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    assert_eq!(train("mnb", &model).0, 0);
    let test = dir.path().join("test.tsv");
    std::fs::write(
        &test,
        "space\tthe rocket reached orbit\ngardening\tplant the tulips in autumn\n",
    )
    .unwrap();
    let (code, stdout, stderr) = outcome(&bowline(&["eval", arg(&model), arg(&test)], b""));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.starts_with("documents 1  accuracy 1.0000"),
        "{stdout}"
    );
    assert!(
        stdout.contains("class      precision  recall      F1  support"),
        "{stdout}"
    );
    assert!(
        stderr.contains("labels the model does not know were not scored: gardening (1)"),
        "{stderr}"
    );
}

#[test]
fn bad_models_and_bad_training_input_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    assert_eq!(train("svm", &model).0, 0);
    let bytes = std::fs::read(&model).unwrap();
    let truncated = dir.path().join("truncated.model");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    fails_with(
        &["eval", arg(&truncated), "corpora"],
        "truncated.model: truncated model file",
    );
    fails_with(
        &["eval", "README.md", "corpora"],
        "README.md: not a bowline model file",
    );
    // A training run that fails leaves the previous model intact.
    fails_with(
        &["train", "no/such/corpus", "-o", arg(&model)],
        "no/such/corpus",
    );
    assert_eq!(std::fs::read(&model).unwrap(), bytes);
    let unlabeled = dir.path().join("lines.txt");
    std::fs::write(&unlabeled, "one\ntwo\n").unwrap();
    let out = arg(&model);
    fails_with(
        &["train", arg(&unlabeled), "-o", out],
        "training needs a label on every document",
    );
    let one_class = dir.path().join("one");
    write_tree(
        &one_class,
        &[
            ("only/a.txt", b"alpha beta"),
            ("only/b.txt", b"gamma delta"),
        ],
    );
    fails_with(
        &["train", arg(&one_class), "-o", out],
        "at least two classes",
    );
    let svm_alpha = [
        "train",
        "corpora",
        "-o",
        out,
        "--classifier",
        "svm",
        "--alpha",
        "1",
    ];
    fails_with(&svm_alpha, "--alpha is a naive Bayes flag");
    let zero_alpha = [
        "train",
        "corpora",
        "-o",
        out,
        "--classifier",
        "mnb",
        "--alpha",
        "0",
    ];
    fails_with(
        &zero_alpha,
        "--alpha (the smoothing) must be a finite number > 0",
    );
    let train_with = |kind, alpha| {
        [
            "train",
            "corpora",
            "-o",
            out,
            "--classifier",
            kind,
            "--alpha",
            alpha,
        ]
    };
    fails_with(&train_with("cnb", "auto"), "--alpha auto is for mnb");
    fails_with(
        &train_with("mnb", "some"),
        "'some' is neither a number nor auto",
    );
    let nb_calibrate = [
        "train",
        "corpora",
        "-o",
        out,
        "--classifier",
        "mnb",
        "--calibrate",
    ];
    fails_with(&nb_calibrate, "--calibrate are SVM flags");
    let weighed = |extra: &[&'static str]| {
        let mut args = vec!["train", "corpora", "-o", out, "--ngram-weight"];
        args.extend_from_slice(extra);
        args
    };
    fails_with(&weighed(&["0"]), "--ngram-weight must be in (0, 1], got 0");
    fails_with(
        &weighed(&["nan"]),
        "--ngram-weight must be in (0, 1], got NaN",
    );
    fails_with(
        &weighed(&["0.5", "--hash-bits", "12"]),
        "--ngram-weight cannot be used with --hash-bits",
    );
    fails_with(
        &weighed(&["0.5", "--classifier", "knn"]),
        "--ngram-weight does not apply to knn",
    );
    // Hashing alone weighs n-grams like words, whatever the classifier's default.
    let hashed = ["train", "corpora", "-o", out, "--hash-bits", "12", "-q"];
    assert_eq!(outcome(&bowline(&hashed, b"")).0, 0);
}

#[test]
fn classify_labels_files_and_trees_in_a_deterministic_order() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    assert_eq!(train("cnb", &model).0, 0);
    let docs = dir.path().join("docs");
    write_tree(
        &docs,
        &[
            ("b.txt", b"the astronauts launched the rocket into orbit"),
            ("a/1.txt", b"bake the bread dough and roast the chicken"),
            ("a/2.txt", b"the striker scored a goal in the match"),
        ],
    );
    std::os::unix::fs::symlink(dir.path().join("gone"), docs.join("a/broken.txt")).unwrap();
    let (code, stdout, stderr) = outcome(&bowline(&["classify", arg(&model), arg(&docs)], b""));
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("broken.txt"), "{stderr}");
    let rows: Vec<Vec<&str>> = stdout.lines().map(|l| l.split('\t').collect()).collect();
    let ids: Vec<String> = rows
        .iter()
        .map(|r| r[0].rsplit("docs/").next().unwrap().to_string())
        .collect();
    assert_eq!(ids, ["a/1.txt", "a/2.txt", "b.txt"]);
    let labels: Vec<&str> = rows.iter().map(|r| r[1]).collect();
    assert_eq!(labels, ["cooking", "sports", "space"]);
    for row in &rows {
        let p: f64 = row[2].parse().unwrap();
        assert!((0.0..=1.0).contains(&p), "{row:?}");
    }
    let (code, stdout, _) = outcome(&bowline(
        &[
            "classify",
            arg(&model),
            arg(&docs.join("b.txt")),
            "--format",
            "jsonl",
        ],
        b"",
    ));
    assert_eq!(code, 0);
    let result: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(result["label"], "space");
    assert!(result["id"].as_str().unwrap().ends_with("b.txt"));
}

#[test]
fn a_calibrated_svm_reports_probabilities_and_calibration_is_svm_only() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("cal.model");
    let (code, _, stderr) = outcome(&bowline(
        &["train", "corpora", "-o", arg(&model), "--calibrate"],
        b"",
    ));
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, _) = outcome(&bowline(
        &["classify", arg(&model), "corpora/space", "-q"],
        b"",
    ));
    assert_eq!(code, 0);
    assert_eq!(stdout.lines().count(), 15);
    for line in stdout.lines() {
        let p: f64 = line.rsplit('\t').next().unwrap().parse().unwrap();
        assert!(p > 0.0 && p < 1.0, "{line}");
    }
}

#[test]
fn naive_bayes_trained_in_two_passes_predicts_as_in_one() {
    let dir = tempfile::tempdir().unwrap();
    for kind in ["mnb", "cnb", "bnb"] {
        let evals: Vec<String> = ["1", "2"]
            .iter()
            .map(|passes| {
                let model = dir.path().join(format!("{kind}-{passes}"));
                let args = ["train", "corpora", "--classifier", kind, "--passes", passes];
                let (code, _, stderr) = outcome(&bowline(
                    &[&args[..], &["-o", arg(&model), "-q"]].concat(),
                    b"",
                ));
                assert_eq!(code, 0, "{stderr}");
                let eval = ["eval", arg(&model), "corpora", "--json", "-q"];
                outcome(&bowline(&eval, b"")).1
            })
            .collect();
        assert!(evals[0].contains("\"accuracy\""), "{}", evals[0]);
        assert_eq!(evals[0], evals[1], "{kind}");
    }
}
