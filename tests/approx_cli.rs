//! `bowline train --approx nystroem|rff --components M`: the linear SVM over an approximation of
//! the RBF kernel, through the real binary on the project's corpus, and through the library,
//! saved and loaded.

mod common;

use common::{arg, bowline, corpus_pairs, fails_with, outcome};

/// Trains `--approx approx` with `extra` flags on `corpus` into `model`; returns stderr.
fn train(corpus: &str, model: &std::path::Path, approx: &str, extra: &[&str]) -> String {
    let mut args = vec!["train", corpus, "-o", arg(model), "--approx", approx];
    args.extend_from_slice(extra);
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    stderr
}

/// `eval --json`'s accuracy of `model` on the 61 documents of `corpora`.
fn accuracy(model: &std::path::Path) -> f64 {
    let (code, stdout, stderr) = outcome(&bowline(&["eval", arg(model), "corpora", "--json"], b""));
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["docs"], 61);
    report["accuracy"].as_f64().unwrap()
}

/// How many of `corpora`'s documents `classify` puts in their folder's class.
fn classified_right(model: &std::path::Path) -> usize {
    let (code, stdout, stderr) = outcome(&bowline(&["classify", arg(model), "corpora"], b""));
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().filter(|l| l.contains(".txt\t")).collect();
    assert_eq!(lines.len(), 61);
    let right = lines.iter().filter(|line| {
        let mut fields = line.split('\t');
        let (path, label) = (fields.next().unwrap(), fields.next().unwrap());
        path.contains(&format!("/{label}/"))
    });
    right.count()
}

#[test]
fn approximated_models_train_classify_evaluate_and_inspect() {
    let dir = tempfile::tempdir().unwrap();
    // Measured: of the 61 training documents, 53 right with Nyström, 59 with Fourier
    // features, at M = 40 (γ scale, C 3, seed 1). Random Fourier features drawn by the
    // ziggurat are written in a format of their own.
    let cases = [
        (
            "nystroem",
            "over a Nyström approximation of the rbf kernel (gamma ",
            53,
            bowline::model::APPROX_FORMAT_VERSION,
        ),
        (
            "rff",
            "over random Fourier features of the rbf kernel (gamma ",
            59,
            bowline::model::FOURIER_FORMAT_VERSION,
        ),
    ];
    for (approx, words, right, format) in cases {
        let model = dir.path().join(format!("{approx}.model"));
        let stderr = train("corpora", &model, approx, &["--components", "40"]);
        assert!(
            stderr.contains("trained svm on 61 documents, 4 classes"),
            "{stderr}"
        );
        let bytes = std::fs::read(&model).unwrap();
        assert_eq!(bytes[8..12], format.to_le_bytes(), "{approx}");
        // classify and eval score the same way.
        let accuracy = accuracy(&model);
        assert_eq!((accuracy * 61.0).round() as usize, right, "{approx}");
        assert_eq!(classified_right(&model), right, "{approx}");
        let (code, stdout, stderr) = outcome(&bowline(&["inspect", arg(&model)], b""));
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains(words), "{stdout}");
        assert!(stdout.contains("linear SVM, one-vs-rest"), "{stdout}");
        let (code, stdout, stderr) = outcome(&bowline(&["inspect", arg(&model), "--json"], b""));
        assert_eq!(code, 0, "{stderr}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        let parameters = &report["classifier"];
        assert_eq!(parameters["approx"], approx, "{stdout}");
        assert_eq!(parameters["components"], 40, "{stdout}");
    }
}

#[test]
fn the_same_seed_gives_the_same_model_and_another_seed_another() {
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<_> = ["a", "b", "c"].iter().map(|n| dir.path().join(n)).collect();
    train("corpora", &paths[0], "rff", &["--components", "20", "-q"]);
    train("corpora", &paths[1], "rff", &["--components", "20", "-q"]);
    train(
        "corpora",
        &paths[2],
        "rff",
        &["--components", "20", "--seed", "2", "-q"],
    );
    let model = |p: &std::path::Path| {
        bowline::TextClassifier::load(p)
            .unwrap()
            .model()
            .classifier
            .clone()
    };
    assert_eq!(model(&paths[0]), model(&paths[1]));
    assert_ne!(model(&paths[0]), model(&paths[2]));
}

#[test]
fn a_saved_approx_model_reloads_with_identical_scores() {
    use bowline::analyze::{AnalyzerConfig, Tokenizer};
    use bowline::model::approx::{ApproxParams, Approximation};
    use bowline::model::kernel_svm::Gamma;
    // The last case is written in the format of random Fourier features, which also holds
    // the tokenizer.
    let cases = [
        (Approximation::Nystroem, Tokenizer::Unicode),
        (Approximation::Fourier, Tokenizer::Unicode),
        (Approximation::Fourier, Tokenizer::WordRuns),
    ];
    for (approximation, tokenizer) in cases {
        let params = ApproxParams {
            components: 25,
            gamma: Gamma::Value(1.0),
            ..ApproxParams::new(approximation)
        };
        let builder = bowline::Builder::new(bowline::Kind::Svm)
            .analysis(AnalyzerConfig {
                tokenizer,
                ..AnalyzerConfig::default()
            })
            .approx(params)
            .unwrap();
        let classifier = builder.fit(corpus_pairs()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("approx.model");
        classifier.save(&path).unwrap();
        let loaded = bowline::TextClassifier::load(&path).unwrap();
        assert_eq!(loaded.model(), classifier.model());
        assert_eq!(loaded.model().vectorizer.analyzer().tokenizer, tokenizer);
        for text in [
            "the rocket reached orbit",
            "simmer the garlic",
            "a goal in the match",
        ] {
            let (mut before, mut after) = ([0.0; 4], [0.0; 4]);
            let row = classifier.vectorize(text).row;
            let scores = |m: &bowline::TextClassifier, out: &mut [f64]| {
                m.model().classifier.scores(&row.indices, &row.values, out)
            };
            scores(&classifier, &mut before);
            scores(&loaded, &mut after);
            assert_eq!(before, after, "{text}");
            assert!(before.iter().any(|&v| v != 0.0));
        }
        // With 25 features of 61 documents the label is a matter of the draw (the random
        // Fourier features call this document sports); the round trip keeps it.
        let label = |m: &bowline::TextClassifier| m.predict("the rocket reached orbit").unwrap();
        assert_eq!(label(&loaded).label, label(&classifier).label);
    }
    let error = bowline::Builder::new(bowline::Kind::Mnb)
        .approx(ApproxParams::new(Approximation::Fourier))
        .unwrap_err();
    assert!(
        error.to_string().contains("--approx is for the linear SVM"),
        "{error}"
    );
}

#[test]
fn update_continues_an_approx_model_with_its_map_fixed() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    let extra = dir.path().join("extra");
    // The first model knows three classes; the update brings the fourth, with new words.
    for class in ["computing", "cooking", "space"] {
        copy_dir(
            &std::path::Path::new("corpora").join(class),
            &corpus.join(class),
        );
    }
    copy_dir(
        std::path::Path::new("corpora/sports"),
        &extra.join("sports"),
    );
    for approx in ["nystroem", "rff"] {
        let model = dir.path().join(format!("{approx}.model"));
        train(arg(&corpus), &model, approx, &["--components", "40", "-q"]);
        let before = bowline::TextClassifier::load(&model).unwrap();
        let (code, _, stderr) = outcome(&bowline(&["update", arg(&model), arg(&extra)], b""));
        assert_eq!(code, 0, "{stderr}");
        let after = bowline::TextClassifier::load(&model).unwrap();
        assert_eq!(after.model().labels.len(), 4);
        assert!(after.model().vectorizer.n_features() > before.model().vectorizer.n_features());
        assert!(accuracy(&model) >= 0.9, "{approx}");
    }
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
}

#[test]
fn explain_export_and_learn_refuse_an_approx_model_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("nystroem.model");
    train("corpora", &model, "nystroem", &["--components", "10", "-q"]);
    fails_with(
        &["classify", arg(&model), "corpora", "--explain", "3"],
        "cannot be explained by term: its features are kernel values or Fourier features",
    );
    // learn teaches naive Bayes one document at a time; update teaches this model.
    fails_with(
        &["learn", arg(&model)],
        "learn works on naive Bayes models, and this is a svm model; teach it more documents \
         with `update`",
    );
    fails_with(
        &["export", arg(&model), "--json"],
        "a linear SVM over a kernel approximation (--approx) cannot be exported",
    );
}

#[test]
fn bad_approx_flag_values_stop_naming_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("never.model");
    let out = arg(&model);
    let cases: &[(&[&str], &str)] = &[
        (&["--approx", "cholesky"], "--approx"),
        (&["--approx", "rff", "--components", "0"], "--components"),
        (
            &["--approx", "rff", "--components", "10001"],
            "--components",
        ),
        (&["--approx", "rff", "--components=-3"], "--components"),
        (
            &["--approx", "rff", "--components", "99999999999999999999999"],
            "--components",
        ),
        (&["--approx", "nystroem", "--gamma", "0"], "--gamma"),
        (&["--approx", "nystroem", "--gamma", "nan"], "--gamma"),
        (&["--components", "10"], "give --approx"),
        (
            &["--approx", "rff", "--kernel", "rbf"],
            "exclude each other",
        ),
        (&["--approx", "rff", "--degree", "2"], "give --kernel"),
        (&["--approx", "rff", "--classifier", "mnb"], "are SVM flags"),
        (
            &["--approx", "rff", "--tune"],
            "--tune cannot be used with --approx",
        ),
        (&["--approx", "rff", "--multi-label"], "no multi-label form"),
    ];
    for (flags, message) in cases {
        let mut args = vec!["train", "corpora", "-o", out, "-q"];
        args.extend_from_slice(flags);
        fails_with(&args, message);
    }
    assert!(!model.exists());
}
