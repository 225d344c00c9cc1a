//! `bowline vectorize` end to end, on the project's corpus and on small corpora made here.

mod common;

use common::{arg, bowline, outcome, write_tree};

#[test]
fn project_corpus_gives_exact_counts() {
    let dir = tempfile::tempdir().unwrap();
    let (svm, vocab) = (dir.path().join("c.svm"), dir.path().join("c.json"));
    let output = bowline(
        &[
            "vectorize",
            "corpora",
            "-o",
            arg(&svm),
            "--vocab",
            arg(&vocab),
        ],
        b"",
    );
    let (code, _, stderr) = outcome(&output);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("cooking/16-latin1.txt: not valid UTF-8, decoded as Windows-1252"));
    assert!(stderr.contains("61 documents"), "{stderr}");
    assert!(
        stderr.contains("1 decoded as Windows-1252, 0 empty"),
        "{stderr}"
    );
    assert!(
        stderr.contains("4 classes, 1202 terms, 1522 non-zeros"),
        "{stderr}"
    );
    let matrix = std::fs::read_to_string(&svm).unwrap();
    let labels: Vec<&str> = matrix
        .lines()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    let count = |label| labels.iter().filter(|&&l| l == label).count();
    assert_eq!(
        (labels.len(), count("0"), count("1"), count("2"), count("3")),
        (61, 15, 16, 15, 15)
    );
    let file: serde_json::Value = serde_json::from_slice(&std::fs::read(&vocab).unwrap()).unwrap();
    assert_eq!(
        file["labels"],
        serde_json::json!(["computing", "cooking", "space", "sports"])
    );
    assert_eq!(file["vectorizer"]["terms"].as_array().unwrap().len(), 1202);
    // The Windows-1252 recipe's accented words survived decoding, stemming included.
    let terms = file["vectorizer"]["terms"].as_array().unwrap();
    assert!(terms.contains(&serde_json::json!("crème")), "no crème");
    assert!(terms.contains(&serde_json::json!("brûlée")), "no brûlée");
}

#[test]
fn a_saved_vocabulary_reproduces_the_training_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (svm, vocab) = (dir.path().join("c.svm"), dir.path().join("c.json"));
    let fit = bowline(
        &[
            "vectorize",
            "corpora",
            "-o",
            arg(&svm),
            "--vocab",
            arg(&vocab),
            "-q",
        ],
        b"",
    );
    assert_eq!(fit.status.code(), Some(0));
    let transform = bowline(
        &[
            "vectorize",
            "corpora",
            "-o",
            "-",
            "--use-vocab",
            arg(&vocab),
            "-q",
        ],
        b"",
    );
    assert_eq!(transform.status.code(), Some(0));
    assert_eq!(transform.stdout, std::fs::read(&svm).unwrap());
    // Analysis flags would be ignored with a saved vocabulary, so they are refused.
    let clash = bowline(
        &[
            "vectorize",
            "corpora",
            "-o",
            "-",
            "--use-vocab",
            arg(&vocab),
            "--stem",
            "none",
        ],
        b"",
    );
    assert_eq!(clash.status.code(), Some(2));
}

#[test]
fn an_unreadable_file_is_reported_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("corpus");
    write_tree(
        &root,
        &[
            ("a/1.txt", b"apples and pears"),
            ("b/2.txt", b"boats and ships"),
        ],
    );
    // A broken link cannot be read, even by root (tests may run as root, where chmod is no bar).
    std::os::unix::fs::symlink(dir.path().join("missing"), root.join("a/broken.txt")).unwrap();
    write_tree(&root, &[("b/binary.dat", b"PK\x03\x04\0\0binary")]);
    let svm = dir.path().join("out.svm");
    let (code, _, stderr) = outcome(&bowline(&["vectorize", arg(&root), "-o", arg(&svm)], b""));
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("broken.txt"), "{stderr}");
    assert!(
        stderr.contains("b/binary.dat: skipped, looks binary"),
        "{stderr}"
    );
    assert!(
        stderr.contains("2 documents") && stderr.contains("1 binary skipped, 1 failed"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&svm).unwrap().lines().count(), 2);
}

#[test]
fn bad_roots_and_flags_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.svm");
    let (code, _, stderr) = outcome(&bowline(
        &["vectorize", "no/such/dir", "-o", arg(&out)],
        b"",
    ));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("no/such/dir: no such file or folder"),
        "{stderr}"
    );
    let (code, _, stderr) = outcome(&bowline(
        &["vectorize", "corpora/space", "-o", arg(&out)],
        b"",
    ));
    assert_eq!(code, 2);
    assert!(stderr.contains("no class folders"), "{stderr}");
    let (code, _, stderr) = outcome(&bowline(
        &["vectorize", "corpora", "-o", arg(&out), "--ngrams", "3..2"],
        b"",
    ));
    assert_eq!(code, 2);
    assert!(stderr.contains("--ngrams 3..2 must satisfy"), "{stderr}");
    assert!(!out.exists(), "no output is left behind by a failed run");
}

#[test]
fn tsv_with_header_and_a_malformed_line() {
    let dir = tempfile::tempdir().unwrap();
    let tsv = dir.path().join("msgs.tsv");
    let text = b"Label\tSMS\nspam\tWin a free prize now\nno tab on this line\nham\tsee you at lunch\n\nham\tcaf\xe9 at noon\n";
    std::fs::write(&tsv, text).unwrap();
    let out = dir.path().join("out.svm");
    let (code, _, stderr) = outcome(&bowline(
        &[
            "vectorize",
            arg(&tsv),
            "-o",
            arg(&out),
            "--vocab",
            arg(&dir.path().join("v.json")),
        ],
        b"",
    ));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("msgs.tsv:3: expected label<TAB>text"),
        "{stderr}"
    );
    assert!(stderr.contains("6: not valid UTF-8"), "{stderr}");
    assert!(
        stderr.contains("3 documents") && stderr.contains("2 classes"),
        "{stderr}"
    );
    assert!(stderr.contains("see the errors above"), "{stderr}");
    let quiet = ["vectorize", arg(&tsv), "-o", arg(&out), "-q"];
    let (code, _, stderr) = outcome(&bowline(&quiet, b""));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        stderr,
        "bowline: 1 input(s) could not be read; run without -q to see why\n"
    );
    let labels: Vec<String> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| l[..1].to_string())
        .collect();
    assert_eq!(labels, ["1", "0", "0"]);
}

#[test]
fn jsonl_and_stdin_lines() {
    let dir = tempfile::tempdir().unwrap();
    let jsonl = dir.path().join("docs.jsonl");
    let text = "{\"id\": \"a\", \"label\": \"x\", \"text\": \"rockets launch\"}\n{broken\n{\"id\": 7, \"label\": \"y\", \"text\": \"cooking pasta\", \"extra\": 1}\n";
    std::fs::write(&jsonl, text).unwrap();
    let (code, stdout, stderr) = outcome(&bowline(
        &[
            "vectorize",
            arg(&jsonl),
            "-o",
            "-",
            "--ngrams",
            "1",
            "--tf",
            "count",
            "--idf",
            "none",
            "--norm",
            "none",
        ],
        b"",
    ));
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("docs.jsonl:2: invalid JSON record"),
        "{stderr}"
    );
    // Terms in order: cook, launch, pasta, rocket.
    assert_eq!(stdout, "0 2:1 4:1\n1 1:1 3:1\n");
    let (code, stdout, stderr) = outcome(&bowline(
        &[
            "vectorize",
            "-",
            "-o",
            "-",
            "--ngrams",
            "1",
            "--idf",
            "none",
            "--norm",
            "none",
            "--tf",
            "count",
        ],
        b"one fish\n\ntwo fish\n",
    ));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("3 documents") && stderr.contains("1 empty"),
        "{stderr}"
    );
    assert_eq!(stdout, "0 1:1 2:1\n0\n0 1:1 3:1\n");
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let tsv = dir.path().join("big.tsv");
    let lines: String = (0..20_000)
        .map(|i| format!("c{}\tword{i} other{} text\n", i % 3, i % 97))
        .collect();
    std::fs::write(&tsv, lines).unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bowline"))
        .args(["vectorize", arg(&tsv), "-o", "-", "-q"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn word_runs_tokenize_as_scikit_learns_pattern_through_train_and_classify() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(
        dir.path(),
        &[
            (
                "corpus/a/1.txt",
                b"Can't stop at 3.14, e.g. john.doe@example.com",
            ),
            ("corpus/b/1.txt", b"snake_case __ x 1,000"),
        ],
    );
    let corpus = dir.path().join("corpus");
    let (root, vocab) = (arg(&corpus), dir.path().join("v.json"));
    let words = ["--stem", "none", "--ngrams", "1", "-q"];
    let terms = |tokenizer: &str| {
        let mut flags = vec!["vectorize", root, "--vocab", arg(&vocab), "-o", "/dev/null"];
        flags.extend(["--tokenizer", tokenizer]);
        let (code, _, stderr) = outcome(&bowline(&[flags, words.to_vec()].concat(), b""));
        assert_eq!(code, 0, "{stderr}");
        let file: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&vocab).unwrap()).unwrap();
        let mut terms: Vec<String> = file["vectorizer"]["terms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        terms.sort();
        terms
    };
    // re.findall(r"(?u)\b\w\w+\b", text.lower()) over both files, deduplicated and sorted.
    let runs = "000 14 __ at can com doe example john snake_case stop";
    assert_eq!(terms("word-runs").join(" "), runs);
    let unicode = "1,000 3.14 at can't e.g example.com john.doe snake_case stop";
    assert_eq!(terms("unicode").join(" "), unicode);

    let model = dir.path().join("m.model");
    let train = ["train", root, "-o", arg(&model), "--tokenizer", "word-runs"];
    let (code, _, stderr) = outcome(&bowline(&[&train[..], &words].concat(), b""));
    assert_eq!(code, 0, "{stderr}");
    let (code, shown, stderr) = outcome(&bowline(&["inspect", arg(&model)], b""));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        shown.contains("tokens (runs of letters, digits and _)"),
        "{shown}"
    );
    let (code, labels, stderr) = outcome(&bowline(
        &["classify", arg(&model), &format!("{root}/b")],
        b"",
    ));
    assert_eq!(code, 0, "{stderr}");
    let row: Vec<&str> = labels.trim_end().split('\t').collect();
    assert_eq!(row[..2], [&format!("{root}/b/1.txt"), "b"], "{labels}");
}
