//! Helpers shared by the integration tests: run the real binary and look at what it did.

#![allow(dead_code)]

pub mod browser;
pub mod cdp;
pub mod serve;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// Documents for an update after a corpus of space and food documents (`space/1.txt`,
/// `space/2.txt`, `food/1.txt`, `food/2.txt` at least): new terms (telescope, soup, ...) and a
/// class the first model never saw (sport).
pub const NEW_DOCS: &[(&str, &[u8])] = &[
    (
        "space/3.txt",
        b"the telescope saw a distant galaxy beyond orbit",
    ),
    ("food/3.txt", b"simmer the soup with garlic and bread"),
    (
        "sport/1.txt",
        b"the striker scored a goal in the final match",
    ),
    ("sport/2.txt", b"the team won the match after a late goal"),
];

/// Unlabelled documents, one for each class of [`NEW_DOCS`] and a space one on older terms.
pub const PROBES: &[(&str, &[u8])] = &[
    ("p1.txt", b"a galaxy seen by the telescope"),
    ("p2.txt", b"garlic soup and fresh bread"),
    ("p3.txt", b"who scored the goal in the match"),
    ("p4.txt", b"orbit of the moon and the satellite"),
];

/// Runs `bowline` with `args`, feeding `stdin`.
pub fn bowline(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = spawn(args);
    let mut input = child.stdin.take().expect("stdin");
    let stdin = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        // The command may exit without reading all of its input; that is not a test failure.
        let _ = input.write_all(&stdin);
    });
    let output = child.wait_with_output().expect("bowline runs");
    feeder.join().expect("stdin feeder");
    output
}

/// Starts `bowline` with `args` and all three standard streams piped.
fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_bowline"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bowline starts")
}

/// The exit code, stdout and stderr as text.
pub fn outcome(output: &Output) -> (i32, String, String) {
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Writes `files` (relative path, contents) below `root`.
pub fn write_tree(root: &Path, files: &[(&str, &[u8])]) {
    for (path, contents) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, contents).expect("write");
    }
}

/// The path as a `&str` for an argument list.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("UTF-8 temp path")
}

/// Runs `bowline` and checks that it stops with exit status 2 and `message` on stderr.
pub fn fails_with(args: &[&str], message: &str) {
    let (code, _, stderr) = outcome(&bowline(args, b""));
    assert_eq!(code, 2, "{args:?}: {stderr}");
    assert!(
        stderr.contains(message),
        "{args:?}: expected '{message}' in: {stderr}"
    );
}

/// Trains `--classifier name` on `corpus` into `model`, checking that it succeeds.
pub fn train_quietly(corpus: &str, model: &Path, name: &str) {
    let args = [
        "train",
        corpus,
        "-o",
        arg(model),
        "--classifier",
        name,
        "-q",
    ];
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
}

/// Writes a ham/spam cost matrix in `dir` where a false spam costs 10 and a missed spam 1.
pub fn spam_costs(dir: &Path) -> std::path::PathBuf {
    let costs = dir.join("costs.tsv");
    let matrix = "predicted\\true\tham\tspam\nham\t0\t1\nspam\t10\t0\n";
    std::fs::write(&costs, matrix).expect("write costs");
    costs
}

/// Starts `bowline` with `args` and piped stdin, stdout and stderr, for tests that talk to it
/// while it runs, and sends it `text` on stdin, flushed.
pub fn start(args: &[&str], text: &str) -> (std::process::Child, std::process::ChildStdin) {
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(text.as_bytes()).expect("write stdin");
    stdin.flush().expect("flush stdin");
    (child, stdin)
}

/// Sends SIGTERM to a child.
pub fn terminate(child: &std::process::Child) {
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
}

/// `builder` with a fixed smoothing: multinomial NB's default is chosen on the documents it is
/// trained on, so two trainings on different documents could differ in it.
pub fn fixed_smoothing(builder: bowline::Builder) -> bowline::Builder {
    let trainer = builder.trainer_config().clone().with_fixed_smoothing();
    builder.trainer(trainer)
}

/// Raw counts over every term: the weighting under which an update equals retraining.
pub fn raw_counts() -> bowline::vectorize::VectorizerConfig {
    use bowline::vectorize::{DfBound, Idf, Norm, Tf, VectorizerConfig, Weighting};
    VectorizerConfig {
        min_df: DfBound::Count(1),
        weighting: Weighting {
            tf: Tf::Count,
            idf: Idf::None,
            norm: Norm::None,
        },
        ..VectorizerConfig::default()
    }
}

/// The bundled corpus's documents as `(label, text)` pairs, in corpus order.
pub fn corpus_pairs() -> Vec<(String, String)> {
    let options = bowline::corpus::ReadOptions::default();
    let source = bowline::Source::open(Path::new("corpora"), &options).unwrap();
    source
        .entries
        .map(|mut entry| {
            bowline::corpus::load_pending(&mut entry, u64::MAX);
            (entry.doc.label.unwrap(), entry.doc.text)
        })
        .collect()
}

/// A sparse matrix of a fixture's dense rows (a JSON array of arrays of numbers), zeros left out.
pub fn dense_matrix(rows: &serde_json::Value) -> bowline::vectorize::Matrix {
    let rows = rows.as_array().unwrap();
    let mut builder = bowline::vectorize::MatrixBuilder::default();
    for row in rows {
        let mut sparse = bowline::vectorize::SparseRow::default();
        for (j, value) in row.as_array().unwrap().iter().enumerate() {
            let value = value.as_f64().unwrap();
            if value != 0.0 {
                sparse.indices.push(j as u32);
                sparse.values.push(value);
            }
        }
        builder.push(&sparse);
    }
    builder.finish(rows[0].as_array().unwrap().len()).unwrap()
}
