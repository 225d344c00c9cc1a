//! `bowline classify` on stdin: lines, TSV and JSONL in, one result per document out, in input
//! order, promptly, with bad lines reported and skipped, a closed stdout and signals handled.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use common::{arg, bowline, outcome};

/// A multinomial model of `corpora/` (computing, cooking, space, sports).
fn model(dir: &std::path::Path) -> std::path::PathBuf {
    let model = dir.join("m.model");
    common::train_quietly("corpora", &model, "mnb");
    model
}

fn classify(model: &std::path::Path, flags: &[&str], stdin: &[u8]) -> (i32, String, String) {
    outcome(&bowline(
        &[&["classify", arg(model), "-q"], flags].concat(),
        stdin,
    ))
}

/// (id, label) of each TSV result line.
fn results(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            assert_eq!(cells.len(), 3, "{line}");
            (cells[0].to_string(), cells[1].to_string())
        })
        .collect()
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(i, l)| (i.to_string(), l.to_string()))
        .collect()
}

#[test]
fn lines_tsv_and_jsonl_keep_input_order_and_ids() {
    let dir = tempfile::tempdir().unwrap();
    let model = model(dir.path());
    let lines =
        b"the rocket reached orbit\n\nbake the bread in the oven\nthe striker scored a goal\n";
    let (code, stdout, stderr) = classify(&model, &[], lines);
    assert_eq!(code, 0, "{stderr}");
    // Plain lines: the id is the line number, and an empty line is still a document.
    let got = results(&stdout);
    assert_eq!(got.len(), 4);
    assert_eq!(got[0], ("1".into(), "space".into()));
    assert_eq!(got[2], ("3".into(), "cooking".into()));
    assert_eq!(got[3], ("4".into(), "sports".into()));

    let tsv =
        b"id\ttext\nm-7\tthe striker scored a goal\nm-8\tcompile the program and fix the bug\n";
    let (code, stdout, _) = classify(&model, &["-", "--input", "tsv"], tsv);
    assert_eq!(code, 0);
    let expected = [("m-7", "sports"), ("m-8", "computing")];
    assert_eq!(results(&stdout), pairs(&expected));

    let jsonl = b"{\"id\": \"a\", \"text\": \"the rocket reached orbit\", \"lang\": \"en\"}\n{\"text\": \"bake the bread\"}\n";
    let (code, stdout, _) = classify(&model, &["--input", "jsonl", "--format", "jsonl"], jsonl);
    assert_eq!(code, 0);
    let records: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records[0]["id"], "a");
    assert_eq!(records[0]["label"], "space");
    assert_eq!(records[1]["id"], "2");
    assert_eq!(records[1]["label"], "cooking");
    // The top 3 classes, most probable first, with the chosen one's probability.
    let scores = records[0]["scores"].as_array().unwrap();
    assert_eq!(scores.len(), 3);
    assert_eq!(scores[0]["label"], "space");
    assert_eq!(scores[0]["probability"], records[0]["probability"]);
    let value = |i: usize| scores[i]["probability"].as_f64().unwrap();
    assert!(value(0) >= value(1) && value(1) >= value(2));
    assert_eq!(records[0]["schema_version"], 1);
}

#[test]
fn a_malformed_line_is_reported_and_the_lines_after_it_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let model = model(dir.path());
    let jsonl = b"{\"text\": \"the rocket reached orbit\"}\n{\"text\": oops\n{\"text\": \"the striker scored a goal\"}\n";
    // Not quiet: -q would silence the error on the line.
    let args = [
        "classify",
        arg(&model),
        "--input",
        "jsonl",
        "--format",
        "jsonl",
    ];
    let (code, stdout, stderr) = outcome(&bowline(&args, jsonl));
    assert_eq!(code, 1, "a failed line makes the exit status non-zero");
    assert!(stderr.contains("-:2: invalid JSON record"), "{stderr}");
    let records: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 3);
    assert_eq!(records[1]["id"], "2");
    assert!(records[1]["error"]
        .as_str()
        .unwrap()
        .contains("invalid JSON"));
    assert_eq!(records[2]["label"], "sports");
    // In TSV output the failed line has no row; the others keep their ids.
    let (code, stdout, _) = classify(&model, &["--input", "jsonl"], jsonl);
    assert_eq!(code, 1);
    let ids: Vec<String> = results(&stdout).into_iter().map(|r| r.0).collect();
    assert_eq!(ids, ["1", "3"]);
}

#[test]
fn a_closed_stdout_ends_the_stream_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let model = model(dir.path());
    let big = "the striker scored a goal in the final match\n".repeat(200_000);
    let input = dir.path().join("big.txt");
    std::fs::write(&input, big).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_bowline"))
        .args(["classify", arg(&model)])
        .stdin(std::fs::File::open(&input).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(
        first,
        "1\tsports\t".to_string() + first.rsplit('\t').next().unwrap()
    );
    // The reader is dropped here, as `head -n 1` exits.
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("error"), "{stderr}");
}

#[test]
fn each_line_of_a_slow_stream_is_answered_at_once_and_sigterm_flushes_and_exits() {
    let dir = tempfile::tempdir().unwrap();
    let model = model(dir.path());
    let (mut child, mut stdin) = common::start(&["classify", arg(&model), "-q"], "");
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    // One line at a time, stdin kept open: each answer must come before the next line is sent.
    for (text, label) in [
        ("the rocket reached orbit", "space"),
        ("bake the bread", "cooking"),
    ] {
        writeln!(stdin, "{text}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        stdout.read_line(&mut answer).unwrap();
        assert_eq!(answer.split('\t').nth(1), Some(label), "{answer}");
    }
    common::terminate(&child);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    assert_eq!(rest, "");
    assert_eq!(child.wait().unwrap().code(), Some(128 + 15));
    drop(stdin);
}

/// SIGTERM while a burst is in flight: the documents read before it are classified and written
/// whole, in order, and the rest of the stream is left unread.
#[test]
fn sigterm_in_the_middle_of_a_burst_writes_what_was_read_and_nothing_half() {
    const BURST: usize = 200_000;
    let dir = tempfile::tempdir().unwrap();
    let model = model(dir.path());
    let (mut child, mut stdin) = common::start(&["classify", arg(&model), "-q"], "");
    // The burst is far more than a pipe holds, so it is still arriving when the signal comes;
    // once the process has gone, the writes fail, and the writer stops.
    let writer = std::thread::spawn(move || {
        for i in 0..BURST {
            if writeln!(stdin, "the rocket reached orbit {i}").is_err() {
                break;
            }
        }
    });
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    common::terminate(&child);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(128 + 15));
    writer.join().unwrap();
    let answered = results(&(first + &rest));
    assert!(answered.len() < BURST, "the stream was not cut");
    for (n, (id, label)) in answered.iter().enumerate() {
        assert_eq!(
            (id.as_str(), label.as_str()),
            (&*(n + 1).to_string(), "space")
        );
    }
}

#[test]
fn costs_and_thresholds_change_decisions_and_eval_reports_the_cost() {
    let dir = tempfile::tempdir().unwrap();
    let spam = dir.path().join("spam.tsv");
    let mut train = String::from("label\ttext\n");
    for i in 0..20 {
        train += &format!("ham\tsee you at lunch tomorrow {i}\n");
        train += &format!("spam\twin a free prize now call {i}\n");
    }
    // An ambiguous message: both words of both classes.
    train += "ham\tfree lunch tomorrow\n";
    std::fs::write(&spam, &train).unwrap();
    let model = dir.path().join("spam.model");
    common::train_quietly(arg(&spam), &model, "mnb");
    let costs = common::spam_costs(dir.path());
    let doubtful = b"free prize see lunch\n";
    let (_, plain, _) = classify(&model, &[], doubtful);
    assert_eq!(plain.split('\t').nth(1), Some("spam"), "{plain}");
    let (_, costed, _) = classify(&model, &["--costs", arg(&costs)], doubtful);
    assert_eq!(costed.split('\t').nth(1), Some("ham"), "{costed}");
    let (_, strict, _) = classify(&model, &["--threshold", "0.999"], doubtful);
    assert_eq!(strict.split('\t').nth(1), Some("ham"), "{strict}");
    let eval = [
        "eval",
        arg(&model),
        arg(&spam),
        "--json",
        "--costs",
        arg(&costs),
        "-q",
    ];
    let (code, stdout, stderr) = outcome(&bowline(&eval, b""));
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    // The cost counted here from classify's decisions under the same matrix: a ham called spam
    // costs 10, a spam called ham 1.
    let texts: String = (train.lines().skip(1))
        .enumerate()
        .map(|(i, line)| format!("{i}\t{}\n", line.split_once('\t').unwrap().1))
        .collect();
    let (_, decided, _) = classify(
        &model,
        &["--costs", arg(&costs), "--input", "tsv"],
        texts.as_bytes(),
    );
    let truth = train
        .lines()
        .skip(1)
        .map(|line| line.split('\t').next().unwrap());
    let cost: f64 = (results(&decided).iter().zip(truth))
        .map(
            |((_, predicted), actual)| match (predicted.as_str(), actual) {
                ("spam", "ham") => 10.0,
                ("ham", "spam") => 1.0,
                _ => 0.0,
            },
        )
        .sum();
    assert_eq!(report["total_cost"].as_f64().unwrap(), cost, "{report}");
    assert!((report["mean_cost"].as_f64().unwrap() - cost / 41.0).abs() < 1e-12);
    let three_classes = [
        "classify",
        arg(&model),
        "--threshold",
        "0.5",
        "--positive",
        "eggs",
    ];
    common::fails_with(&three_classes, "'eggs' is not a class of the model");
}

#[test]
fn a_line_that_is_not_utf8_is_decoded_and_reported_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let model = model(dir.path());
    let lines = b"the rocket reached orbit\ncaf\xe9 and cr\xe8me br\xfbl\xe9e\n";
    let (code, stdout, stderr) = outcome(&bowline(&["classify", arg(&model)], lines));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(results(&stdout).len(), 2);
    assert!(
        stderr.contains("-:2: not valid UTF-8, decoded as Windows-1252"),
        "{stderr}"
    );
    // In JSONL the line is decoded before it is parsed; the warning still names it.
    let jsonl = b"{\"text\": \"caf\xe9\"}\n";
    let args = ["classify", arg(&model), "--input", "jsonl"];
    let (code, stdout, stderr) = outcome(&bowline(&args, jsonl));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(results(&stdout).len(), 1);
    assert!(
        stderr.contains("-:1: not valid UTF-8, decoded as Windows-1252"),
        "{stderr}"
    );
}
