//! `bowline learn`: a naive Bayes model learns a labelled stream on stdin, exactly, with
//! checkpoints that survive a killed run, and prequential figures.

mod common;

use std::io::{BufRead, BufReader};

use common::{arg, bowline, outcome, write_tree};

const FIRST: &str = "label\ttext\nspace\trocket launch orbit satellite\nfood\tbake bread with flour and butter\nspace\tthe probe reached orbit around the moon\n";
// New terms and a class the first part never saw.
const SECOND: &str = "food\tsimmer the soup with garlic and bread\nsport\tthe striker scored a goal in the match\nsport\tthe team won the match after a late goal\n";
// Raw counts and every term: the model then depends on the counts alone.
const EXACT: &[&str] = &["--tf", "count", "--idf", "none", "--norm", "none", "-q"];

fn learn(model: &std::path::Path, flags: &[&str], stdin: &str) -> (i32, String, String) {
    outcome(&bowline(
        &[&["learn", arg(model)], flags].concat(),
        stdin.as_bytes(),
    ))
}

/// `classify` of the probes as (label, probability) pairs.
fn classify(model: &std::path::Path, probes: &str) -> Vec<(String, f64)> {
    let (code, stdout, stderr) =
        outcome(&bowline(&["classify", arg(model), "-q"], probes.as_bytes()));
    assert_eq!(code, 0, "{stderr}");
    stdout
        .lines()
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            (cells[1].to_string(), cells[2].parse().unwrap())
        })
        .collect()
}

#[test]
fn learning_a_stream_in_two_runs_equals_training_on_all_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let (learned, trained) = (
        dir.path().join("learned.model"),
        dir.path().join("trained.model"),
    );
    let (code, _, stderr) = learn(&learned, &[EXACT, &["--classifier", "cnb"]].concat(), FIRST);
    assert_eq!(code, 0, "{stderr}");
    // The second run continues the saved model: new terms, a new class.
    let (code, _, stderr) = learn(&learned, &["-q"], SECOND);
    assert_eq!(code, 0, "{stderr}");
    let all = dir.path().join("all.tsv");
    std::fs::write(&all, format!("{FIRST}{SECOND}")).unwrap();
    let train = [
        &[
            "train",
            arg(&all),
            "-o",
            arg(&trained),
            "--classifier",
            "cnb",
            "--min-df",
            "1",
        ],
        EXACT,
    ]
    .concat();
    assert_eq!(outcome(&bowline(&train, b"")).0, 0);
    let probes = "a galaxy seen from orbit\ngarlic soup and bread\nwho scored the goal\n";
    let (ours, theirs) = (classify(&learned, probes), classify(&trained, probes));
    assert_eq!(
        ours.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(),
        ["space", "food", "sport"]
    );
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(a.0, b.0);
        assert!((a.1 - b.1).abs() < 1e-9, "{ours:?} vs {theirs:?}");
    }
}

#[test]
fn a_run_killed_after_its_first_checkpoint_leaves_a_loadable_model() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    let args = ["learn", arg(&model), "--checkpoint-every", "2", "-q"];
    let (mut child, _stdin) = common::start(&args, FIRST);
    let waited = std::time::Instant::now();
    while !model.exists() && waited.elapsed().as_secs() < 20 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(model.exists(), "no checkpoint was written");
    let results = classify(&model, "rocket to the moon\n");
    assert_eq!(results[0].0, "space");
}

#[test]
fn sigterm_ends_the_stream_and_saves_what_was_learned() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    let args = ["learn", arg(&model), "--prequential", "--window", "1"];
    let (mut child, stdin) = common::start(&args, FIRST);
    // One prequential line per document: after the third, all three have been learned.
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    for _ in 0..3 {
        line.clear();
        stderr.read_line(&mut line).unwrap();
        assert!(line.contains("prequential"), "{line}");
    }
    assert!(line.contains("3 documents"), "{line}");
    common::terminate(&child);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(128 + 15), "{rest}");
    assert!(rest.contains("learned 3 documents: 2 classes"), "{rest}");
    assert_eq!(classify(&model, "bread and butter\n")[0].0, "food");
    drop(stdin);
}

#[test]
fn bad_flags_and_models_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    assert_eq!(learn(&model, &["-q"], FIRST).0, 0);
    let (code, _, stderr) = learn(&model, &["--alpha", "2"], SECOND);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("its classifier, analysis and weighting are fixed"),
        "{stderr}"
    );
    let (code, _, stderr) = learn(&dir.path().join("new.model"), &["--min-df", "2"], FIRST);
    assert_eq!(code, 2);
    assert!(stderr.contains("a stream keeps every term"), "{stderr}");
    let svm = dir.path().join("svm.model");
    let (code, _, stderr) = learn(&svm, &["--classifier", "svm"], FIRST);
    assert_eq!(code, 2);
    assert!(stderr.contains("learn trains naive Bayes"), "{stderr}");
    let corpus = dir.path().join("c");
    write_tree(
        &corpus,
        &[("a/1.txt", b"rocket orbit"), ("b/1.txt", b"bread butter")],
    );
    common::train_quietly(arg(&corpus), &svm, "svm");
    let (code, _, stderr) = learn(&svm, &[], FIRST);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("this is a svm model; teach it more documents with `update`"),
        "{stderr}"
    );
    // A JSONL record without a label is reported and skipped; the rest is learned.
    let jsonl = "{\"label\": \"space\", \"text\": \"rocket\"}\n{\"text\": \"no label\"}\n";
    let (code, _, stderr) = learn(&model, &["--input", "jsonl"], jsonl);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("-:2: no label"), "{stderr}");
}
