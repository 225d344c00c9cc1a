//! `train --tune` and `cv --tune`: the search reads the training corpus alone, its choice is
//! saved in the model and shown by `eval`, and `train` with the printed flags makes the same model.

mod common;

use std::path::Path;

use bowline::TextClassifier;
use common::{arg, bowline, outcome};

/// A corpus with a readable `train/` (the bundled corpus) and a `test/` whose every file is a
/// link to nothing: reading any of it fails.
fn corpus_with_an_unreadable_test_split(root: &Path) {
    let train = root.join("train");
    for class in ["computing", "cooking", "space", "sports"] {
        let from = Path::new("corpora").join(class);
        std::fs::create_dir_all(train.join(class)).unwrap();
        for file in std::fs::read_dir(&from).unwrap() {
            let file = file.unwrap().path();
            std::fs::copy(&file, train.join(class).join(file.file_name().unwrap())).unwrap();
        }
        let test = root.join("test").join(class);
        std::fs::create_dir_all(&test).unwrap();
        std::os::unix::fs::symlink(root.join("nowhere"), test.join("1.txt")).unwrap();
    }
}

/// The flags after "chosen (...): " in the trials table.
fn chosen_flags(stdout: &str) -> Vec<String> {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("chosen ("))
        .expect("a chosen line");
    let flags = line.split_once("): ").unwrap().1;
    flags.split_whitespace().map(str::to_string).collect()
}

#[test]
fn tuning_reads_the_training_corpus_alone_and_its_choice_is_reproduced_by_train() {
    let dir = tempfile::tempdir().unwrap();
    corpus_with_an_unreadable_test_split(dir.path());
    let (train, test) = (dir.path().join("train"), dir.path().join("test"));
    let tuned = dir.path().join("tuned.model");
    let args = [
        "train",
        arg(&train),
        "--classifier",
        "mnb",
        "--tune",
        "--tune-budget",
        "30",
        "-o",
        arg(&tuned),
    ];
    let (code, stdout, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("test"), "{stderr}");
    assert!(stdout.contains("every round done"), "{stdout}");
    // The test split cannot be read by anyone: eval reports every file of it.
    let (code, _, stderr) = outcome(&bowline(&["eval", arg(&tuned), arg(&test)], b""));
    assert_ne!(code, 0);
    assert!(stderr.contains("1.txt"), "{stderr}");

    let flags = chosen_flags(&stdout);
    let again = dir.path().join("again.model");
    let mut args = vec![
        "train",
        arg(&train),
        "--classifier",
        "mnb",
        "-o",
        arg(&again),
        "-q",
    ];
    args.extend(flags.iter().map(String::as_str));
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    let (tuned, again) = (
        TextClassifier::load(&tuned).unwrap().into_model(),
        TextClassifier::load(&again).unwrap().into_model(),
    );
    assert_eq!(tuned.vectorizer, again.vectorizer);
    assert_eq!(tuned.labels, again.labels);
    assert_eq!(tuned.classifier, again.classifier);
    let chosen = tuned.info.tuned.expect("the choice is saved");
    assert_eq!(chosen.flags, flags.join(" "));
    assert_eq!((chosen.folds, again.info.tuned), (3, None));
    // Each fold of the search learns its vocabulary and weights from its own training rows, as
    // `cv` does: a fold that saw its held-out rows would score differently from cv's.
    assert_eq!(cv_accuracy(&train, &flags), chosen.accuracy);
}

/// `bowline cv` of `corpus` with the 3 folds tuning uses and `flags`: the mean accuracy.
fn cv_accuracy(corpus: &Path, flags: &[String]) -> f64 {
    let mut args = vec![
        "cv",
        arg(corpus),
        "--classifier",
        "mnb",
        "--folds",
        "3",
        "--json",
        "-q",
    ];
    args.extend(flags.iter().map(String::as_str));
    let (code, stdout, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    report["accuracy"]["mean"].as_f64().unwrap()
}

/// The rows of the trials table: (round, share, accuracy, flags).
fn trials(stdout: &str) -> Vec<(u32, f64, f64, Vec<String>)> {
    let rows = stdout.lines().skip(1).take_while(|l| !l.is_empty());
    rows.map(|row| {
        let cells: Vec<&str> = row.split_whitespace().collect();
        let flags = cells[3..].iter().map(|f| f.to_string()).collect();
        (
            cells[0].parse().unwrap(),
            cells[1].parse().unwrap(),
            cells[2].parse().unwrap(),
            flags,
        )
    })
    .collect()
}

#[test]
fn eval_shows_what_tuning_chose_and_cv_reports_the_trials() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m");
    let args = [
        "train",
        "corpora",
        "--classifier",
        "mnb",
        "--tune",
        "-o",
        arg(&model),
    ];
    let (code, table, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    // The best trial on all the data, and what `cv` gives its flags on the same folds.
    let trials = trials(&table);
    let full = trials.iter().filter(|t| t.1 == 1.0);
    let best = full.max_by(|a, b| a.2.total_cmp(&b.2)).unwrap();
    let best_cv = cv_accuracy(Path::new("corpora"), &best.3);
    let (_, stdout, _) = outcome(&bowline(&["eval", arg(&model), "corpora", "-q"], b""));
    assert!(stdout.contains("\ntuned: --"), "{stdout}");
    // On 61 documents the best trial's lead is within chance, so the defaults stayed; eval
    // says so, and what the best scored.
    let kept = format!(
        " s): the starting configuration, kept because the best of {} trials ({best_cv:.4}) \
         was not better by 1.96 standard errors\n",
        trials.len()
    );
    assert!(stdout.contains(&kept), "{kept} not in {stdout}");
    let (_, json, _) = outcome(&bowline(&["eval", arg(&model), "corpora", "--json"], b""));
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["tuned"]["folds"], 3);
    assert_eq!(json["tuned"]["best_not_taken"].as_f64().unwrap(), best_cv);
    assert!(json["tuned"]["accuracy"].as_f64().unwrap() < best_cv);

    let cv = [
        "cv",
        "corpora",
        "--classifier",
        "svm",
        "--tune",
        "--tune-trials",
        "12",
        "--json",
    ];
    let (code, stdout, stderr) = outcome(&bowline(&cv, b""));
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let trials = report["trials"].as_array().unwrap();
    let incumbent = report["incumbent"]["setting"]["flags"].as_str().unwrap();
    assert!(incumbent.ends_with("--c 3"), "{incumbent}");
    // 12 configurations (the starting one among them), then each round the best third of the
    // round before, and the starting configuration if it was not among them.
    let round = |r: u64| -> Vec<&str> {
        let trials = trials.iter().filter(|t| t["round"] == r);
        trials
            .map(|t| t["setting"]["flags"].as_str().unwrap())
            .collect()
    };
    assert_eq!(round(1).len(), 12);
    for r in 2..=4 {
        let before = round(r - 1);
        let best = &before[..before.len().div_ceil(3)];
        let expected = best.len() + usize::from(!best.contains(&incumbent));
        assert_eq!(round(r).len(), expected, "round {r}");
        assert!(round(r).contains(&incumbent), "round {r}");
    }
    assert!(report["chosen"].as_str().unwrap().contains("--c "));
}

#[test]
fn bad_tuning_flags_are_refused() {
    common::fails_with(
        &[
            "train",
            "corpora",
            "--tune",
            "--tune-folds",
            "1",
            "-o",
            "/tmp/x",
        ],
        "--tune-folds must be at least 2",
    );
    // The bundled corpus has 61 documents.
    common::fails_with(
        &[
            "train",
            "corpora",
            "--tune",
            "--tune-folds",
            "62",
            "-o",
            "/tmp/x",
        ],
        "62 tuning folds need as many documents; there are 61",
    );
    common::fails_with(
        &["train", "corpora", "--tune-budget", "5", "-o", "/tmp/x"],
        "--tune",
    );
}
