//! Bad input and unlucky timing, one test per case: concurrent updates, outputs that are inputs,
//! links and devices, absurd thread counts, evaluations that score nothing, empty labels, and
//! the exit codes in `--help`.

mod common;

use std::path::Path;

use bowline::TextClassifier;
use common::{arg, bowline, fails_with, outcome, train_quietly};

/// A two-class TSV of `n` documents per class, numbered from `from`.
fn tsv(path: &Path, from: usize, n: usize) {
    let mut text = String::from("label\ttext\n");
    for i in from..from + n {
        text += &format!("space\trocket orbit launch {i}\n");
        text += &format!("food\tbread soup oven {i}\n");
    }
    std::fs::write(path, text).unwrap();
}

fn documents(model: &Path) -> u64 {
    let model = TextClassifier::load(model).unwrap().into_model();
    model.info.docs_per_class.iter().sum()
}

#[test]
fn sixteen_concurrent_updates_of_one_model_are_all_counted() {
    let dir = tempfile::tempdir().unwrap();
    let (first, model) = (dir.path().join("first.tsv"), dir.path().join("m.model"));
    tsv(&first, 0, 5);
    train_quietly(arg(&first), &model, "mnb");
    let batches: Vec<_> = (0..16)
        .map(|b| {
            let path = dir.path().join(format!("batch{b}.tsv"));
            tsv(&path, 100 * (b + 1), 3);
            path
        })
        .collect();
    let children: Vec<_> = batches
        .iter()
        .map(|batch| {
            std::process::Command::new(env!("CARGO_BIN_EXE_bowline"))
                .args(["update", arg(&model), arg(batch), "-q"])
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    assert_eq!(documents(&model), 10 + 16 * 6);
}

#[test]
fn an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("x.tsv");
    tsv(&corpus, 0, 3);
    let before = std::fs::read(&corpus).unwrap();
    fails_with(
        &["train", arg(&corpus), "-o", arg(&corpus)],
        "is also the input",
    );
    let link = dir.path().join("link.tsv");
    std::os::unix::fs::symlink(&corpus, &link).unwrap();
    fails_with(
        &["vectorize", arg(&corpus), "-o", arg(&link)],
        "is also the input",
    );
    assert_eq!(std::fs::read(&corpus).unwrap(), before);
}

#[test]
fn a_link_stays_a_link_and_a_device_stays_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.tsv");
    tsv(&corpus, 0, 3);
    let (target, link) = (dir.path().join("real.model"), dir.path().join("link.model"));
    std::os::unix::fs::symlink("real.model", &link).unwrap();
    train_quietly(arg(&corpus), &link, "mnb");
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink());
    assert_eq!(documents(&target), 6);
    let args = [
        "train",
        arg(&corpus),
        "-o",
        "/dev/null",
        "-q",
        "--classifier",
        "mnb",
    ];
    assert_eq!(outcome(&bowline(&args, b"")).0, 0);
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
}

#[test]
fn absurd_thread_counts_are_refused_at_once() {
    fails_with(
        &["vectorize", "corpora", "-o", "-", "--threads", "100000"],
        "at most 256 threads",
    );
}

#[test]
fn a_bad_value_is_named_by_its_flag_and_rule() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    let train = ["train", "corpora", "-o", arg(&model)];
    for (flags, message) in [
        (
            &["--c", "inf"][..],
            "--c must be a finite number > 0, got inf",
        ),
        (
            &["--tolerance", "0"],
            "--tolerance must be a finite number > 0",
        ),
        (
            &["--ngrams", "3..2"],
            "--ngrams 3..2 must satisfy 1 <= MIN <= MAX",
        ),
        (&["--batch-size", "0"], "--batch-size must be at least 1"),
        (&["--threads", "0"], "--threads must be at least 1"),
    ] {
        fails_with(&[&train[..], flags].concat(), message);
    }
}

#[test]
fn an_evaluation_that_scores_nothing_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let (corpus, model) = (dir.path().join("c.tsv"), dir.path().join("m.model"));
    tsv(&corpus, 0, 3);
    train_quietly(arg(&corpus), &model, "mnb");
    let other = dir.path().join("other.tsv");
    std::fs::write(&other, "label\ttext\nsports\tthe match\n").unwrap();
    fails_with(&["eval", arg(&model), arg(&other)], "nothing to evaluate");
}

#[test]
fn a_corpus_of_empty_files_trains_no_model() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    for class in ["a", "b"] {
        std::fs::create_dir_all(corpus.join(class)).unwrap();
        std::fs::write(corpus.join(class).join("1.txt"), "").unwrap();
    }
    let model = dir.path().join("m.model");
    for kind in ["mnb", "svm", "knn"] {
        fails_with(
            &[
                "train",
                arg(&corpus),
                "-o",
                arg(&model),
                "--classifier",
                kind,
            ],
            "the 2 documents hold no terms",
        );
        assert!(!model.exists(), "{kind}");
    }
}

#[test]
fn a_multi_label_evaluation_of_unknown_labels_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    let (code, _, stderr) = outcome(&bowline(
        &["train", "corpora", "--multi-label", "-q", "-o", arg(&model)],
        b"",
    ));
    assert_eq!(code, 0, "{stderr}");
    let other = dir.path().join("other.tsv");
    std::fs::write(&other, "zzz\tthe rocket\nyyy\tthe soup\n").unwrap();
    fails_with(
        &["eval", arg(&model), arg(&other)],
        "nothing to evaluate: none of its labels is a label of the model (yyy, zzz)",
    );
}

#[test]
fn learning_nothing_into_a_new_model_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("new.model");
    fails_with(
        &["learn", arg(&model)],
        "no labelled document was learned, so no model was created",
    );
    assert!(!model.exists());
}

#[test]
fn an_empty_label_is_a_bad_line_not_a_class() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c.tsv");
    std::fs::write(&corpus, "a\tone text\n\tno label\nb\tother text\n").unwrap();
    let args = ["vectorize", arg(&corpus), "-o", "-"];
    let (code, stdout, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("c.tsv:2: empty label"), "{stderr}");
    assert_eq!(stdout.lines().count(), 2);
}

#[test]
fn learn_names_the_kind_it_cannot_learn_into() {
    let dir = tempfile::tempdir().unwrap();
    let (corpus, model) = (dir.path().join("c.tsv"), dir.path().join("m.model"));
    tsv(&corpus, 0, 3);
    train_quietly(arg(&corpus), &model, "knn");
    let (code, _, stderr) = outcome(&bowline(&["learn", arg(&model)], b"space\tx\n"));
    assert_eq!(code, 2);
    assert!(stderr.contains("this is a knn model"), "{stderr}");
}

#[test]
fn every_help_lists_the_exit_codes() {
    for args in [
        &["--help"][..],
        &["train", "--help"],
        &["classify", "--help"],
    ] {
        let (code, stdout, _) = outcome(&bowline(args, b""));
        assert_eq!(code, 0);
        assert!(
            stdout.contains("Exit codes:") && stdout.contains("128+N"),
            "{stdout}"
        );
    }
}

#[test]
fn pruning_every_term_or_an_empty_df_range_is_an_error() {
    fails_with(
        &["vectorize", "corpora", "-o", "-", "--min-df", "1000"],
        "--min-df 1000 and --max-df 1 leave none of the 1202 terms of 61 documents",
    );
    fails_with(
        &[
            "vectorize",
            "corpora",
            "-o",
            "-",
            "--min-df",
            "5",
            "--max-df",
            "3",
        ],
        "--min-df is above --max-df",
    );
}

#[test]
fn a_full_disk_is_reported_as_one() {
    let args = ["train", "corpora", "--classifier", "mnb", "-o", "/dev/full"];
    fails_with(&args, "/dev/full: No space left on device");
}

#[test]
fn completions_and_a_manual_page_are_printed() {
    let (code, stdout, _) = outcome(&bowline(&["completions", "bash"], b""));
    assert_eq!(code, 0);
    assert!(stdout.contains("_bowline()") && stdout.contains("--char-ngrams"));
    let (code, stdout, _) = outcome(&bowline(&["man"], b""));
    assert_eq!(code, 0);
    assert!(stdout.contains(".TH bowline 1") && stdout.contains("Exit codes"));
}

#[test]
fn json_outputs_carry_a_schema_version_and_an_svm_score_is_no_probability() {
    let dir = tempfile::tempdir().unwrap();
    let (corpus, model) = (dir.path().join("c.tsv"), dir.path().join("m.model"));
    tsv(&corpus, 0, 3);
    train_quietly(arg(&corpus), &model, "svm");
    let args = [
        "classify",
        arg(&model),
        "--format",
        "jsonl",
        "--top",
        "2",
        "-q",
    ];
    let (code, stdout, _) = outcome(&bowline(&args, b"rocket orbit\n"));
    assert_eq!(code, 0);
    let line: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(line["schema_version"], 1);
    assert!(
        line.get("probability").is_none() && line["score"].is_f64(),
        "{line}"
    );
    let scores = line["scores"].as_array().unwrap();
    assert_eq!((scores.len(), &scores[0]["label"]), (2, &line["label"]));
    for args in [
        &["eval", arg(&model), arg(&corpus), "--json", "-q"][..],
        &["cv", arg(&corpus), "--folds", "2", "--json", "-q"],
        &["rank", arg(&corpus), "--json", "-q"],
        &["stats", arg(&corpus), "--json", "-q"],
    ] {
        let (code, stdout, stderr) = outcome(&bowline(args, b""));
        assert_eq!(code, 0, "{args:?}: {stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(json["schema_version"], 1, "{args:?}");
    }
}

#[test]
fn warnings_are_capped_listed_with_v_and_silenced_with_q() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..8 {
        let class = if i % 2 == 0 { "a" } else { "b" };
        let path = dir.path().join(class).join(format!("{i}.txt"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        // "café" in Windows-1252: not valid UTF-8.
        std::fs::write(&path, b"caf\xe9 au lait").unwrap();
    }
    let run = |flag: &str| {
        let mut args = vec!["vectorize", arg(dir.path()), "-o", "-"];
        args.extend((!flag.is_empty()).then_some(flag));
        let (code, _, stderr) = outcome(&bowline(&args, b""));
        assert_eq!(code, 0, "{stderr}");
        let warnings = stderr.matches("not valid UTF-8").count();
        (warnings, stderr)
    };
    let (shown, stderr) = run("");
    assert_eq!(shown, 5, "{stderr}");
    assert!(
        stderr.contains("3 more warnings not shown (-v lists them)"),
        "{stderr}"
    );
    assert_eq!(run("-v").0, 8);
    let (_, quiet) = run("-q");
    assert_eq!(quiet, "");
}

#[test]
fn a_line_far_over_the_size_limit_is_cut_counted_and_the_next_line_read() {
    let dir = tempfile::tempdir().unwrap();
    let (corpus, model) = (dir.path().join("c.tsv"), dir.path().join("m.model"));
    tsv(&corpus, 0, 3);
    train_quietly(arg(&corpus), &model, "mnb");
    let mut stdin = "rocket ".repeat(300_000).into_bytes();
    stdin.extend_from_slice(b"\nbread soup oven\n");
    let args = ["classify", arg(&model), "--max-doc-bytes", "1000"];
    let (code, stdout, stderr) = outcome(&bowline(&args, &stdin));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("-:1: truncated from 2100000 to 1000 bytes"),
        "{stderr}"
    );
    let labels: Vec<&str> = stdout
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(labels, ["space", "food"]);
    // A JSON record cut short cannot be parsed: it is a bad line, and the next one is read.
    let mut jsonl = format!("{{\"text\": \"{}\"}}\n", "x".repeat(200_000)).into_bytes();
    jsonl.extend_from_slice(b"{\"text\": \"bread soup\"}\n");
    let args = [
        "classify",
        arg(&model),
        "--input",
        "jsonl",
        "--max-doc-bytes",
        "1000",
    ];
    let (code, stdout, stderr) = outcome(&bowline(&args, &jsonl));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("-:1: a JSON record longer than"),
        "{stderr}"
    );
    assert_eq!(stdout.lines().count(), 1);
}

#[test]
fn appending_a_document_whose_id_is_over_64_kb_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let (corpus, index) = (dir.path().join("c.jsonl"), dir.path().join("index"));
    let long_id = "d".repeat(70_000);
    let line =
        |text: &str| format!("{{\"id\": \"{long_id}\", \"label\": \"a\", \"text\": \"{text}\"}}\n");
    let run = |append: bool| {
        let mut args = vec!["index", arg(&corpus), "--index", arg(&index), "-q"];
        if append {
            args.push("--append");
        }
        let (code, _, stderr) = outcome(&bowline(&args, b""));
        assert_eq!(code, 0, "{stderr}");
    };
    std::fs::write(&corpus, line("first text") + &line("short")).unwrap();
    run(false);
    std::fs::write(&corpus, line("second text")).unwrap();
    run(true);
    let read = bowline::index::read(&index).unwrap();
    let texts: Vec<(&str, &str)> = read
        .entries
        .iter()
        .map(|e| (&e.doc.id[..3], e.doc.text.as_str()))
        .collect();
    assert_eq!(texts, [("ddd", "second text")]);
}

#[test]
fn every_command_that_reads_documents_prints_stage_counters_with_v() {
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let (corpus, model) = (out("c.tsv"), out("m.model"));
    tsv(Path::new(&corpus), 0, 4);
    train_quietly(&corpus, Path::new(&model), "mnb");
    let commands: Vec<Vec<String>> = [
        vec!["train", &corpus, "-o", &out("t.model")],
        vec!["eval", &model, &corpus],
        vec!["classify", &model],
        vec!["update", &model, &corpus],
        vec!["learn", &out("l.model")],
        vec!["cv", &corpus, "--folds", "2"],
        vec!["rank", &corpus],
        vec!["select", &corpus, "-o", &out("s.model")],
        vec!["stats", &corpus],
        vec!["index", &corpus, "--index", &out("index")],
        vec!["vectorize", &corpus, "-o", &out("v.svm")],
    ]
    .iter()
    .map(|c| c.iter().map(|s| s.to_string()).collect())
    .collect();
    for command in commands {
        let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
        args.push("-v");
        let (code, _, stderr) = outcome(&bowline(&args, b"space\trocket orbit\n"));
        assert_eq!(code, 0, "{command:?}: {stderr}");
        assert!(
            stderr.contains("pipeline stages, "),
            "{command:?}: {stderr}"
        );
        assert!(
            stderr.contains("\nstage      threads"),
            "{command:?}: {stderr}"
        );
        args.push("-q");
        let (_, _, stderr) = outcome(&bowline(&args, b"space\trocket orbit\n"));
        assert!(!stderr.contains("pipeline stages"), "{command:?}: {stderr}");
    }
}

#[test]
fn counts_far_beyond_the_vocabulary_are_taken_as_everything() {
    let dir = tempfile::tempdir().unwrap();
    let (corpus, model) = (dir.path().join("c.tsv"), dir.path().join("m.model"));
    tsv(&corpus, 0, 3);
    train_quietly(arg(&corpus), &model, "mnb");
    let huge = u64::MAX.to_string();
    let args = ["inspect", arg(&model), "--top", &huge, "--json"];
    let (code, stdout, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("\"rocket\""), "{stdout}");
    let args = ["classify", arg(&model), "--explain", &huge, "-q"];
    let (code, stdout, stderr) = outcome(&bowline(&args, b"rocket orbit\n"));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("rocket +"), "{stdout}");
}

#[test]
fn an_empty_label_separator_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (corpus, model) = (dir.path().join("c.tsv"), dir.path().join("m.model"));
    tsv(&corpus, 0, 3);
    let args = ["train", arg(&corpus), "--label-sep", "", "-o", arg(&model)];
    fails_with(&args, "--label-sep must not be empty");
}
