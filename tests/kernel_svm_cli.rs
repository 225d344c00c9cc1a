//! `bowline train --kernel`: the exact kernel SVM through the real binary on the project's
//! corpus, and through the library, saved and loaded.

mod common;

use common::{arg, bowline, corpus_pairs, fails_with, outcome};

/// Trains `--kernel kernel` with `extra` flags on `corpora` into `model`; returns stderr.
fn train(model: &std::path::Path, kernel: &str, extra: &[&str]) -> String {
    let mut args = vec!["train", "corpora", "-o", arg(model), "--kernel", kernel];
    args.extend_from_slice(extra);
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    stderr
}

/// `eval --json`'s accuracy of `model` on `corpus`.
fn accuracy(model: &std::path::Path, corpus: &str) -> f64 {
    let (code, stdout, stderr) = outcome(&bowline(&["eval", arg(model), corpus, "--json"], b""));
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["docs"], 61);
    report["accuracy"].as_f64().unwrap()
}

#[test]
fn an_rbf_kernel_svm_trains_classifies_evaluates_inspects_and_exports() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("rbf.model");
    let stderr = train(&model, "rbf", &[]);
    assert!(
        stderr.contains("trained svm on 61 documents, 4 classes"),
        "{stderr}"
    );
    // Measured: every training document is classified right (C 1, γ scale).
    assert_eq!(accuracy(&model, "corpora"), 1.0);
    let (code, stdout, stderr) = outcome(&bowline(&["classify", arg(&model), "corpora"], b""));
    assert_eq!(code, 0, "{stderr}");
    // One line per document, after the header line.
    let lines: Vec<&str> = stdout.lines().filter(|l| l.contains(".txt\t")).collect();
    assert_eq!(lines.len(), 61);
    let right = lines
        .iter()
        .filter(|line| {
            let mut fields = line.split('\t');
            let (path, label) = (fields.next().unwrap(), fields.next().unwrap());
            path.contains(&format!("/{label}/"))
        })
        .count();
    assert_eq!(right, 61, "{stdout}");
    let (code, stdout, stderr) = outcome(&bowline(&["inspect", arg(&model)], b""));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("kernel SVM (SMO), one-vs-rest, rbf kernel (gamma "),
        "{stdout}"
    );
    let (code, stdout, stderr) = outcome(&bowline(&["export", arg(&model), "--json"], b""));
    assert_eq!(code, 0, "{stderr}");
    let exported: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let classifier = &exported["classifier"];
    assert_eq!(classifier["type"], "kernel_svm");
    assert_eq!(classifier["kernel"], "rbf");
    assert_eq!(classifier["intercepts"].as_array().unwrap().len(), 4);
    let support = classifier["support_vectors"].as_array().unwrap();
    assert!(!support.is_empty() && support.len() <= 61);
    assert_eq!(support[0]["coefficients"].as_array().unwrap().len(), 4);
}

#[test]
fn held_out_accuracy_of_every_kernel_by_cross_validation() {
    // cv trains on four fifths and scores the fifth left out; the floors are what was measured
    // here, rounded down.
    let floors = [
        ("rbf", 0.65),
        ("linear", 0.65),
        ("poly", 0.40),
        ("cosine", 0.65),
    ];
    for (kernel, floor) in floors {
        let args = ["cv", "corpora", "--kernel", kernel, "--json"];
        let (code, stdout, stderr) = outcome(&bowline(&args, b""));
        assert_eq!(code, 0, "{kernel}: {stderr}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let mean = report["accuracy"]["mean"].as_f64().unwrap();
        assert!(mean >= floor, "{kernel}: {mean}");
    }
}

#[test]
fn a_calibrated_kernel_svm_gives_probabilities() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("calibrated.model");
    train(&model, "rbf", &["--calibrate"]);
    let (code, stdout, stderr) = outcome(&bowline(&["inspect", arg(&model)], b""));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("calibrated (Platt)"), "{stdout}");
    let args = ["classify", arg(&model), "-"];
    let (code, stdout, stderr) = outcome(&bowline(&args, b"the rocket reached orbit\n"));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\tspace"), "{stdout}");
    assert!(accuracy(&model, "corpora") >= 0.9);
}

#[test]
fn a_saved_kernel_model_reloads_with_identical_decision_values() {
    use bowline::model::kernel_svm::{Gamma, Kernel, KernelKind};
    use bowline::model::KernelSvmParams;
    let params = KernelSvmParams {
        kernel: Kernel {
            gamma: Gamma::Value(0.5),
            degree: 2,
            coef0: 1.0,
            ..Kernel::new(KernelKind::Poly)
        },
        c: 10.0,
        ..KernelSvmParams::default()
    };
    let builder = bowline::Builder::new(bowline::Kind::Svm)
        .kernel(params)
        .unwrap();
    let classifier = builder.fit(corpus_pairs()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("poly.model");
    classifier.save(&path).unwrap();
    let loaded = bowline::TextClassifier::load(&path).unwrap();
    assert_eq!(loaded.model(), classifier.model());
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(
        bytes[8..12],
        bowline::model::KERNEL_FORMAT_VERSION.to_le_bytes()
    );
    for text in [
        "the rocket reached orbit",
        "simmer the garlic",
        "a goal in the match",
    ] {
        let (mut before, mut after) = ([0.0; 4], [0.0; 4]);
        let row = classifier.vectorize(text).row;
        classifier
            .model()
            .classifier
            .scores(&row.indices, &row.values, &mut before);
        loaded
            .model()
            .classifier
            .scores(&row.indices, &row.values, &mut after);
        assert_eq!(before, after, "{text}");
        assert!(before.iter().any(|&v| v != 0.0));
    }
    // Only the SVM has a kernel.
    let error = bowline::Builder::new(bowline::Kind::Mnb)
        .kernel(params)
        .unwrap_err();
    assert!(
        error.to_string().contains("a kernel is for the SVM"),
        "{error}"
    );
}

#[test]
fn explain_refuses_a_kernel_model_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("rbf.model");
    train(&model, "rbf", &["-q"]);
    fails_with(
        &["classify", arg(&model), "corpora", "--explain", "3"],
        "a kernel SVM cannot be explained by term",
    );
}

/// Documents `part` (in name order) of each of `classes` in `corpora`, copied into `root`.
fn part_of_corpora(root: &std::path::Path, classes: &[&str], part: std::ops::Range<usize>) {
    for class in classes {
        let mut files: Vec<_> = std::fs::read_dir(format!("corpora/{class}"))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .collect();
        files.sort();
        std::fs::create_dir_all(root.join(class)).unwrap();
        let part = part.start.min(files.len())..part.end.min(files.len());
        for file in &files[part] {
            std::fs::copy(file, root.join(class).join(file.file_name().unwrap())).unwrap();
        }
    }
}

/// Two corpora under `root`: `first` holds 8 documents of each of three classes, `later` the
/// other documents of those classes and every document of a fourth.
fn first_and_later(root: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (first, later) = (root.join("first"), root.join("later"));
    part_of_corpora(&first, &["computing", "cooking", "space"], 0..8);
    part_of_corpora(&later, &["computing", "cooking", "space"], 8..100);
    part_of_corpora(&later, &["sports"], 0..100);
    (first, later)
}

#[test]
fn update_adds_documents_and_a_class_to_a_kernel_model() {
    let dir = tempfile::tempdir().unwrap();
    let (first, later) = first_and_later(dir.path());
    let model = dir.path().join("rbf.model");
    let mut args = vec![
        "train",
        arg(&first),
        "-o",
        arg(&model),
        "--kernel",
        "rbf",
        "-q",
    ];
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) =
        outcome(&bowline(&["eval", arg(&model), "corpora", "--json"], b""));
    assert_eq!(code, 0, "{stderr}");
    let before: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let (code, _, stderr) = outcome(&bowline(&["update", arg(&model), arg(&later)], b""));
    assert_eq!(code, 0, "{stderr}");
    let (_, inspected, _) = outcome(&bowline(&["inspect", arg(&model)], b""));
    assert!(inspected.contains("classes     4"), "{inspected}");
    let after = accuracy(&model, "corpora");
    // Before the update the model knows 3 classes from 24 documents; eval leaves out the 15
    // documents of the fourth, and measured, gets 39 of the other 46 right. After it, every
    // document is classified right, as with the same flags trained on every document at once.
    assert_eq!(before["docs"], 46);
    assert_eq!((before["accuracy"].as_f64().unwrap() * 46.0).round(), 39.0);
    assert_eq!(after, 1.0);
    args[1] = "corpora";
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(accuracy(&model, "corpora"), 1.0);
}

/// `serve` learns labelled documents into a kernel model by the same warm-started update, a new
/// class among them, and writes them to the file when it stops. A real server on 127.0.0.1.
#[test]
fn serve_learns_documents_and_a_class_into_a_kernel_model() {
    let dir = tempfile::tempdir().unwrap();
    let (first, later) = first_and_later(dir.path());
    let model = dir.path().join("rbf.model");
    let args = ["train", arg(&first), "-o", arg(&model), "--kernel", "rbf"];
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    let mut documents = Vec::new();
    for class in std::fs::read_dir(&later).unwrap() {
        let class = class.unwrap().path();
        for file in std::fs::read_dir(&class).unwrap() {
            // One file is Windows-1252; a client sends it as UTF-8 text.
            let bytes = std::fs::read(file.unwrap().path()).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            let label = class.file_name().unwrap().to_str().unwrap();
            documents.push(serde_json::json!({ "label": label, "text": text }));
        }
    }
    assert_eq!(documents.len(), 37);
    let server = common::serve::Server::start(&[arg(&model)]);
    let learn = serde_json::json!({ "documents": documents });
    let (status, answer) = server.post("/v1/models/rbf/learn", &learn);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["learned"], 37);
    let texts = ["the striker scored a goal in the cup final"];
    let url = "/v1/models/rbf/classify";
    let (status, answer) = server.post(url, &serde_json::json!({ "texts": texts }));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["predictions"][0]["label"], "sports", "{answer}");
    assert_eq!(server.stop(), 0);
    // As `update` with the same documents: every document of the corpus is classified right.
    assert_eq!(accuracy(&model, "corpora"), 1.0);
}

#[test]
fn bad_kernel_flag_values_stop_with_status_2_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("never.model");
    let out = arg(&model);
    let cases: &[(&[&str], &str)] = &[
        (&["--kernel", "sigmoid"], "--kernel"),
        (&["--kernel", "rbf", "--gamma", "0"], "--gamma"),
        (&["--kernel", "rbf", "--gamma=-1"], "--gamma"),
        (&["--kernel", "rbf", "--gamma", "wide"], "--gamma"),
        (&["--kernel", "rbf", "--gamma", "nan"], "--gamma"),
        (&["--kernel", "rbf", "--gamma", "inf"], "--gamma"),
        (&["--kernel", "poly", "--degree", "0"], "--degree"),
        (&["--kernel", "poly", "--degree=-2"], "--degree"),
        (&["--kernel", "poly", "--degree", "3000000000"], "--degree"),
        (&["--kernel", "poly", "--degree", "99999999999"], "--degree"),
        (&["--kernel", "poly", "--coef0", "nan"], "--coef0"),
        (&["--kernel", "poly", "--coef0", "inf"], "--coef0"),
        (&["--kernel", "rbf", "--cache-mb", "0"], "--cache-mb"),
        (&["--kernel", "rbf", "--cache-mb=-5"], "--cache-mb"),
        (
            &["--kernel", "rbf", "--cache-mb", "18446744073709551615"],
            "--cache-mb",
        ),
        (&["--kernel", "rbf", "--c", "0"], "--c"),
        (&["--kernel", "rbf", "--tolerance", "nan"], "--c"),
        (&["--gamma", "1"], "give --kernel"),
        (&["--cache-mb", "10"], "give --kernel"),
        (&["--kernel", "rbf", "--classifier", "mnb"], "are SVM flags"),
        (&["--kernel", "rbf", "--loss", "hinge"], "--loss"),
        (&["--kernel", "rbf", "--reservoir", "10"], "--reservoir"),
        (&["--kernel", "rbf", "--multi-label"], "no multi-label form"),
    ];
    for (flags, message) in cases {
        let mut args = vec!["train", "corpora", "-o", out, "-q"];
        args.extend_from_slice(flags);
        fails_with(&args, message);
    }
    assert!(!model.exists());
}

/// `train --kernel rbf --tune` searches kernels, γ and C with the analyses, by 3-fold
/// cross-validation of the training corpus: `cv` with a trial's printed flags scores what the
/// search scored, and `train` with the chosen flags makes the tuned model's classifier.
#[test]
fn tuning_a_kernel_svm_chooses_flags_that_cv_and_train_reproduce() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("tuned.model");
    let args = ["train", "corpora", "-o", arg(&model), "--kernel", "rbf"];
    let tune = ["--tune", "--tune-trials", "24", "--json"];
    let (code, stdout, stderr) = outcome(&bowline(&[&args[..], &tune].concat(), b""));
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let flags = |t: &serde_json::Value| t["setting"]["flags"].as_str().unwrap().to_string();
    let trials = report["trials"].as_array().unwrap();
    let first: Vec<String> = (trials.iter().filter(|t| t["round"] == 1))
        .map(flags)
        .collect();
    assert_eq!(first.len(), 24);
    for kernel in [
        "--kernel linear --c",
        "--kernel rbf --gamma",
        "--kernel poly",
    ] {
        assert!(first.iter().any(|f| f.contains(kernel)), "{kernel}");
    }
    let last = trials.iter().filter(|t| t["share"] == 1.0);
    let best = last
        .max_by(|a, b| {
            a["accuracy"]
                .as_f64()
                .partial_cmp(&b["accuracy"].as_f64())
                .unwrap()
        })
        .unwrap();
    let mut cv = vec!["cv", "corpora", "--folds", "3", "--json", "-q"];
    let best_flags = flags(best);
    cv.extend(best_flags.split_whitespace());
    let (code, stdout, stderr) = outcome(&bowline(&cv, b""));
    assert_eq!(code, 0, "{stderr}");
    let scored: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(scored["accuracy"]["mean"], best["accuracy"], "{best_flags}");

    let again = dir.path().join("again.model");
    let chosen = report["chosen"].as_str().unwrap();
    let mut args = vec!["train", "corpora", "-o", arg(&again), "-q"];
    args.extend(chosen.split_whitespace());
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    let load = |m| bowline::TextClassifier::load(m).unwrap().into_model();
    let (tuned, again) = (load(&model), load(&again));
    assert_eq!(tuned.vectorizer, again.vectorizer);
    assert_eq!(tuned.classifier, again.classifier, "{chosen}");
    assert_eq!(tuned.info.tuned.unwrap().flags, chosen);
}

/// `serve` answers with the kernel model's classes, as `classify` does, and refuses an
/// explanation with 422 and the reason. A real server on 127.0.0.1.
#[test]
fn serve_classifies_with_a_kernel_model_and_refuses_to_explain() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("rbf.model");
    train(&model, "rbf", &[]);
    let texts = [
        "the rocket reached orbit around the moon",
        "bake the bread in a hot oven",
    ];
    let stdin = texts.join("\n") + "\n";
    let (code, stdout, stderr) = outcome(&bowline(&["classify", arg(&model)], stdin.as_bytes()));
    assert_eq!(code, 0, "{stderr}");
    let server = common::serve::Server::start(&[arg(&model)]);
    let url = "/v1/models/rbf/classify";
    let (status, answer) = server.post(url, &serde_json::json!({ "texts": texts }));
    assert_eq!(status, 200, "{answer}");
    let served: Vec<String> = (answer["predictions"].as_array().unwrap().iter())
        .enumerate()
        .map(|(i, p)| {
            format!(
                "{}\t{}\t{:.6}",
                i + 1,
                p["label"].as_str().unwrap(),
                p["score"].as_f64().unwrap()
            )
        })
        .collect();
    assert_eq!(served, stdout.lines().collect::<Vec<_>>());
    let (status, answer) = server.post(url, &serde_json::json!({ "texts": texts, "explain": 2 }));
    assert_eq!(status, 422, "{answer}");
    assert!(
        answer.to_string().contains("cannot be explained by term"),
        "{answer}"
    );
    assert_eq!(server.stop(), 0);
}
