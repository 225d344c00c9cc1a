//! Cluster mode on loopback: the real binary started as 1, 2 and 3 processes trains the same
//! naive Bayes models as one process, and faults end every process quickly and clearly.

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::{Duration, Instant};

use bowline::model::Model;
use common::{arg, bowline, outcome};

/// Integer weights and no pruning: the settings under which cluster training is exact.
const EXACT: &[&str] = &[
    "--tf", "count", "--idf", "none", "--norm", "none", "--min-df", "1",
];

/// How long any process may run before the test fails (it is then killed).
const DEADLINE: Duration = Duration::from_secs(60);

/// Processes started by a test, killed when it ends, whether it passed or not.
struct Processes(Vec<Child>);

impl Drop for Processes {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Processes {
    /// Waits for process `p` until `limit`, returning its output, or `None` if it is still
    /// running then.
    fn wait(&mut self, p: usize, limit: Duration) -> Option<Output> {
        let start = Instant::now();
        let child = &mut self.0[p];
        while start.elapsed() < limit {
            if child.try_wait().expect("try_wait").is_some() {
                let stdout = child.stdout.take().map(read_all).unwrap_or_default();
                let stderr = child.stderr.take().map(read_all).unwrap_or_default();
                let status = child.wait().expect("wait");
                return Some(Output {
                    status,
                    stdout,
                    stderr,
                });
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Waits for every process, failing the test after [`DEADLINE`].
    fn wait_all(&mut self) -> Vec<Output> {
        (0..self.0.len())
            .map(|p| {
                self.wait(p, DEADLINE)
                    .unwrap_or_else(|| panic!("process {p} hangs"))
            })
            .collect()
    }
}

fn read_all(mut from: impl std::io::Read) -> Vec<u8> {
    let mut bytes = Vec::new();
    let _ = from.read_to_end(&mut bytes);
    bytes
}

/// A host file of `n` free loopback ports.
fn host_file(dir: &Path, n: usize) -> PathBuf {
    let ports: Vec<u16> = (0..n).map(|_| free_port()).collect();
    let text: String = ports
        .iter()
        .map(|port| format!("127.0.0.1:{port}\n"))
        .collect();
    let path = dir.join(format!("hosts-{}", ports[0]));
    std::fs::write(&path, text).unwrap();
    path
}

/// A loopback port for a test's process to listen on. A port the system hands out (bound to
/// port 0, then released) can be handed out again at once, to another test's host file or as
/// the own port of a process's outgoing connection, and the process meant to listen there then
/// cannot, leaving its peers waiting. So ports come from a counter, never twice in a run, below
/// Linux's ephemeral range (32768 up), in a block of 1,000 chosen by the process id; one found
/// in use is skipped.
fn free_port() -> u16 {
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let block = 20_000 + (std::process::id() % 12) as u16 * 1_000;
    loop {
        let next = NEXT.fetch_add(1, Ordering::Relaxed);
        assert!(next < 1_000, "the test run used up its block of ports");
        let port = block + next;
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
}

/// Starts `n` processes of `bowline ARGS --hostfile H --process P`, with the extra arguments
/// `per_process(P)` and stdin piped (and left open).
fn start(
    dir: &Path,
    n: usize,
    args: &[&str],
    per_process: impl Fn(usize) -> Vec<String>,
) -> Processes {
    let hosts = host_file(dir, n);
    let children = (0..n)
        .map(|p| {
            Command::new(env!("CARGO_BIN_EXE_bowline"))
                .args(args)
                .args(["--hostfile", arg(&hosts), "--process", &p.to_string()])
                .args(per_process(p))
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("bowline starts")
        })
        .collect();
    Processes(children)
}

/// The model with the time it was written blanked: what two runs write differently.
fn timeless(path: &Path) -> Model {
    let mut model = Model::load(path).unwrap();
    model.info.written.clear();
    model
}

/// Runs `args` with `-o FILE` in one process, then as each number of processes in `counts`
/// (2 workers each), and checks that every process succeeds, that process 0 writes what the
/// one process wrote (`same` compares the two files) and that the others write nothing.
fn writes_as_one_process(dir: &Path, args: &[&str], counts: &[usize], same: impl Fn(&Path, &Path)) {
    let name = args.join(" ").replace('/', "_");
    let single = dir.join(format!("{name} single"));
    let (code, _, stderr) = outcome(&bowline(&[args, &["-o", arg(&single)]].concat(), b""));
    assert_eq!(code, 0, "{args:?}: {stderr}");
    for &n in counts {
        let output = |p: usize| dir.join(format!("{name} {n}-{p}"));
        let processes_flag = n.to_string();
        let cluster_args = [args, &["--workers", "2", "--processes", &processes_flag]].concat();
        let mut processes = start(dir, n, &cluster_args, |p| {
            vec!["-o".into(), output(p).display().to_string()]
        });
        for (p, out) in processes.wait_all().iter().enumerate() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success(),
                "{args:?}, {n} processes, process {p}: {stderr}"
            );
        }
        same(&output(0), &single);
        assert!(
            (1..n).all(|p| !output(p).exists()),
            "{args:?}: only process 0 writes"
        );
    }
}

/// A model of `kind` trained on the bundled corpus in one process, in `dir`.
fn trained(dir: &Path, kind: &str) -> PathBuf {
    let model = dir.join(format!("{kind}.model"));
    let train = [
        "train",
        "corpora",
        "-o",
        arg(&model),
        "--classifier",
        kind,
        "-q",
    ];
    let (code, _, stderr) = outcome(&bowline(&train, b""));
    assert_eq!(code, 0, "{stderr}");
    model
}

/// Checks that two model files hold the same model apart from the time each was written.
fn same_model(a: &Path, b: &Path) {
    assert_eq!(
        timeless(a),
        timeless(b),
        "{} and {}",
        a.display(),
        b.display()
    );
}

/// Checks that two files hold the same bytes.
fn same_bytes(a: &Path, b: &Path) {
    // Not assert_eq: the files are too long to print.
    assert!(
        std::fs::read(a).unwrap() == std::fs::read(b).unwrap(),
        "{} differs",
        a.display()
    );
}

#[test]
fn naive_bayes_trained_by_one_two_and_three_processes_equals_one_process() {
    let dir = tempfile::tempdir().unwrap();
    for kind in ["mnb", "cnb", "bnb"] {
        let train = [&["train", "corpora", "--classifier", kind, "-q"][..], EXACT].concat();
        writes_as_one_process(dir.path(), &train, &[1, 2, 3], same_model);
    }
}

#[test]
fn processes_started_with_different_analysis_refuse_to_run() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("model");
    let mut args = vec![
        "train",
        "corpora",
        "-o",
        arg(&model),
        "--classifier",
        "mnb",
        "-q",
    ];
    args.extend(EXACT);
    let mut processes = start(dir.path(), 2, &args, |p| {
        let stemmer = if p == 0 { "english" } else { "none" };
        vec!["--stem".into(), stemmer.into()]
    });
    for (p, out) in processes.wait_all().iter().enumerate() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "process {p}: {stderr}");
        assert!(
            stderr.contains("other settings") && stderr.contains("analysis"),
            "{stderr}"
        );
    }
    assert!(!model.exists());
}

#[test]
fn a_peer_killed_mid_run_stops_the_others_within_ten_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("model");
    // Both processes read stdin: process 0's is closed at once, process 1's stays open, so
    // process 1 is still reading when it is killed.
    let mut args = vec!["train", "-", "-o", arg(&model), "--classifier", "mnb", "-q"];
    args.extend(EXACT);
    let mut processes = start(dir.path(), 2, &args, |_| Vec::new());
    drop(processes.0[0].stdin.take());
    std::thread::sleep(Duration::from_secs(2));
    kill_process_1(&mut processes, &model);
}

/// Kills process 1 of two; process 0 must then stop within 10 s, naming it, and write no
/// `model`.
fn kill_process_1(processes: &mut Processes, model: &Path) {
    processes.0[1].kill().unwrap();
    let killed = Instant::now();
    let out = processes
        .wait(0, Duration::from_secs(10))
        .expect("process 0 stops within 10 s");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(killed.elapsed() < Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("lost process 1"), "{stderr}");
    assert!(!model.exists(), "no partial model");
}

/// `bowline train` in cluster mode with `extra` arguments fails with status 2 and `message`.
/// No model is written.
fn refused(extra: &[&str], message: &str) {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("model");
    let mut args = vec!["train", "corpora", "-o", arg(&model), "--classifier", "mnb"];
    args.extend(EXACT);
    args.extend(extra);
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(message), "{message:?} not in {stderr}");
    assert!(!model.exists());
}

#[test]
fn a_wrong_host_file_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    refused(&["--hostfile", arg(&missing)], "missing");
    let malformed = dir.path().join("malformed");
    std::fs::write(&malformed, "127.0.0.1:4000\n# a comment\nlocalhost\n").unwrap();
    refused(
        &["--hostfile", arg(&malformed)],
        "malformed:3: 'localhost' is not host:port",
    );
    let short = dir.path().join("short");
    std::fs::write(&short, "127.0.0.1:4000\n127.0.0.1:4001\n").unwrap();
    refused(
        &["--hostfile", arg(&short), "--processes", "3"],
        "lists 2 addresses, but 3 processes",
    );
    refused(
        &["--processes", "2", "--process", "2"],
        "process index 2 is not below",
    );
    refused(&["--processes", "1", "--cocoa"], "--cocoa trains the SVM");
}

#[test]
fn any_classifier_and_setting_trained_by_one_two_and_three_processes_equals_one_process() {
    // The defaults (TF-IDF weights) and the SVM cannot be merged from partial models:
    // process 0 fits and trains on the documents its workers counted.
    let dir = tempfile::tempdir().unwrap();
    for kind in ["svm", "mnb", "bnb", "knn"] {
        let train = ["train", "corpora", "--classifier", kind, "-q"];
        writes_as_one_process(dir.path(), &train, &[1, 2, 3], same_model);
    }
}

#[test]
fn a_process_that_never_comes_is_named_after_the_connect_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let hosts = host_file(dir.path(), 2);
    for (me, message) in [("0", "process 1 at"), ("1", "process 0 at")] {
        let model = dir.path().join("model");
        let mut args = vec!["train", "corpora", "-o", arg(&model), "--classifier", "mnb"];
        args.extend(EXACT);
        args.extend([
            "--hostfile",
            arg(&hosts),
            "--process",
            me,
            "--connect-timeout",
            "2",
        ]);
        let started = Instant::now();
        let (code, stdout, stderr) = outcome(&bowline(&args, b""));
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "process {me} waited too long"
        );
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(message) && stderr.contains("within 2 s"),
            "{stderr}"
        );
        assert!(stdout.is_empty(), "nothing on stdout: {stdout}");
        assert!(!model.exists());
    }
}

#[test]
fn a_malformed_line_is_reported_once_by_the_process_that_owns_it() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus.tsv");
    let lines = "space\trocket launch orbit\nfood\tbake bread\nno tab here\nspace\tmoon probe\n";
    std::fs::write(&corpus, format!("{lines}food\troast chicken\n")).unwrap();
    let model = dir.path().join("model");
    let mut args = vec![
        "train",
        arg(&corpus),
        "-o",
        arg(&model),
        "--classifier",
        "mnb",
    ];
    args.extend(EXACT);
    let mut processes = start(dir.path(), 2, &args, |_| Vec::new());
    let outputs = processes.wait_all();
    let reported: Vec<usize> = (0..2)
        .filter(|&p| String::from_utf8_lossy(&outputs[p].stderr).contains("corpus.tsv:3"))
        .collect();
    assert_eq!(reported.len(), 1, "the line is reported by one process");
    for (p, out) in outputs.iter().enumerate() {
        let expected = if reported.contains(&p) { 1 } else { 0 };
        assert_eq!(out.status.code(), Some(expected), "process {p}");
    }
    assert!(model.exists(), "the other documents are learned");
}

#[test]
fn stats_and_cv_by_one_two_and_three_processes_equal_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let tsv = dir.path().join("more.tsv");
    let lines = "space\trocket launch orbit\nfood\tbake bread\nspace\trocket launch orbit\n";
    std::fs::write(&tsv, format!("{lines}sports\tthe match ended late\n")).unwrap();
    let text = ["stats", "corpora", arg(&tsv), "-q"];
    same_output_as_one_process(dir.path(), &text);
    same_output_as_one_process(dir.path(), &[&text[..], &["--json"]].concat());
    same_output_as_one_process(dir.path(), &["cv", "corpora", "-q", "--folds", "3"]);
    let mnb = ["cv", "corpora", "-q", "--classifier", "mnb", "--json"];
    same_output_as_one_process(dir.path(), &mnb);
}

/// Runs `args` as one process and as 1, 2 and 3 processes of 2 workers each, and checks that
/// process 0 prints what the one process printed, and the others nothing; an entry that cannot
/// be read makes the process that owns it exit with 1, as it does the one process.
fn same_output_as_one_process(dir: &Path, args: &[&str]) {
    let (code, single, stderr) = outcome(&bowline(args, b""));
    assert!(code == 0 || code == 1, "{args:?}: {stderr}");
    for n in 1..=3 {
        let processes_flag = n.to_string();
        let mut cluster_args = args.to_vec();
        cluster_args.extend(["--workers", "2", "--processes", &processes_flag]);
        let mut processes = start(dir, n, &cluster_args, |_| Vec::new());
        let outputs = processes.wait_all();
        let codes = outputs.iter().map(|out| out.status.code().unwrap_or(-1));
        assert_eq!(codes.max(), Some(code), "{args:?}, {n} processes");
        for (p, out) in outputs.iter().enumerate() {
            let stdout = String::from_utf8_lossy(&out.stdout);
            if p == 0 {
                assert!(
                    stdout == single,
                    "{args:?}, {n} processes: {stdout}\n{single}"
                );
            } else {
                assert!(stdout.is_empty(), "process {p} printed");
            }
        }
    }
}

#[test]
fn classify_and_eval_by_one_two_and_three_processes_equal_one_process() {
    let dir = tempfile::tempdir().unwrap();
    // Two inputs, one with a line that cannot be read: every entry is written once, in
    // input order, the failed line too.
    let tsv = dir.path().join("more.tsv");
    std::fs::write(
        &tsv,
        "a\trocket launch orbit\nb\tbake bread\nno tab\nc\tthe match\n",
    )
    .unwrap();
    for kind in ["svm", "cnb"] {
        let model = trained(dir.path(), kind);
        let classify = ["classify", arg(&model), "corpora", arg(&tsv), "-q"];
        same_output_as_one_process(dir.path(), &classify);
        let mut jsonl = classify.to_vec();
        jsonl.extend(["--format", "jsonl", "--explain", "3", "--input", "tsv"]);
        jsonl.retain(|a| *a != "corpora");
        same_output_as_one_process(dir.path(), &jsonl);
        same_output_as_one_process(dir.path(), &["eval", arg(&model), "corpora", "-q"]);
        let curves = ["eval", arg(&model), "corpora", "--json", "--curves", "-q"];
        same_output_as_one_process(dir.path(), &curves);
    }
}

#[test]
fn cluster_classify_refuses_stdin_and_other_models() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (trained(dir.path(), "svm"), trained(dir.path(), "mnb"));
    let stdin = bowline(&["classify", arg(&a), "--processes", "1"], b"rocket\n");
    let (code, _, stderr) = outcome(&stdin);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("not stdin"), "{stderr}");
    let mut processes = start(dir.path(), 2, &["classify"], |p| {
        let model = if p == 0 { &a } else { &b };
        vec![model.display().to_string(), "corpora".into(), "-q".into()]
    });
    for (p, out) in processes.wait_all().iter().enumerate() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "process {p}");
        if p == 0 {
            assert!(stderr.contains("the model is"), "{stderr}");
        }
    }
}

#[test]
fn vectorize_by_one_two_and_three_processes_equals_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let tsv = dir.path().join("labelled.tsv");
    let lines = "space\trocket launch orbit\nfood\tbake bread\nspace\trocket orbit\n";
    std::fs::write(
        &tsv,
        format!("{lines}sports\tthe match ended\nfood\tbread oven\n"),
    )
    .unwrap();
    for corpus in ["corpora", arg(&tsv)] {
        same_output_as_one_process(dir.path(), &["vectorize", corpus, "-o", "-", "-q"]);
        let pruned = ["--min-df", "2", "--max-features", "40", "--ngrams", "1..3"];
        let args = [&["vectorize", corpus, "-o", "-", "-q"][..], &pruned].concat();
        same_output_as_one_process(dir.path(), &args);
    }
    // The vocabulary file too, written by process 0 alone.
    let single = dir.path().join("single.json");
    let args = [
        "vectorize",
        "corpora",
        "-o",
        "-",
        "-q",
        "--vocab",
        arg(&single),
    ];
    assert_eq!(outcome(&bowline(&args, b"")).0, 0);
    let vocab = |p: usize| dir.path().join(format!("vocab-{p}.json"));
    let mut processes = start(
        dir.path(),
        2,
        &["vectorize", "corpora", "-o", "-", "-q"],
        |p| vec!["--vocab".into(), vocab(p).display().to_string()],
    );
    for (p, out) in processes.wait_all().iter().enumerate() {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(vocab(p).exists(), p == 0, "process {p}");
    }
    let read = |path: &Path| std::fs::read_to_string(path).unwrap();
    assert_eq!(read(&vocab(0)), read(&single));
}

#[test]
#[ignore = "needs ../shared/corpora"]
fn twenty_newsgroups_by_two_processes_equals_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let (train, test) = (
        "../shared/corpora/20news-bydate/train",
        "../shared/corpora/20news-bydate/test",
    );
    let model = dir.path().join("svm.model");
    let args = ["train", train, "-o", arg(&model), "-q"];
    assert_eq!(outcome(&bowline(&args, b"")).0, 0);
    // Written to files: the processes' pipes are not read until they end.
    writes_as_one_process(dir.path(), &["vectorize", train, "-q"], &[2], same_bytes);
    let classify = ["classify", arg(&model), test, "-q"];
    writes_as_one_process(dir.path(), &classify, &[2], same_bytes);
    same_output_as_one_process(dir.path(), &["eval", arg(&model), test, "-q"]);
}

#[test]
fn update_by_one_two_and_three_processes_equals_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let tsv = dir.path().join("more.tsv");
    let lines = "space\tthe probe left orbit\nfood\tknead the dough\ngardening\tprune the roses\n";
    std::fs::write(&tsv, format!("{lines}space\ta comet passed the probe\n")).unwrap();
    for kind in ["svm", "mnb", "cnb", "knn"] {
        let model = trained(dir.path(), kind);
        let update = ["update", arg(&model), arg(&tsv), "-q"];
        writes_as_one_process(dir.path(), &update, &[1, 2, 3], same_model);
    }
}

#[test]
fn hashed_terms_by_one_two_and_three_processes_equal_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let hashed = ["--hash-bits", "12"];
    let exact = [
        &["train", "corpora", "--classifier", "mnb", "-q"][..],
        EXACT,
        &hashed,
    ]
    .concat();
    writes_as_one_process(dir.path(), &exact, &[1, 2, 3], same_model);
    let counted = [
        &["train", "corpora", "--classifier", "cnb", "-q"][..],
        &hashed,
    ]
    .concat();
    writes_as_one_process(dir.path(), &counted, &[1, 2, 3], same_model);
    let vectorize = [&["vectorize", "corpora", "-q"][..], &hashed].concat();
    writes_as_one_process(dir.path(), &vectorize, &[1, 2, 3], same_bytes);
    let model = dir.path().join("hashed.model");
    let train = [
        &[
            "train",
            "corpora",
            "-q",
            "--classifier",
            "mnb",
            "-o",
            arg(&model),
        ][..],
        &hashed,
    ];
    assert_eq!(outcome(&bowline(&train.concat(), b"")).0, 0);
    let update = ["update", arg(&model), "corpora", "-q"];
    writes_as_one_process(dir.path(), &update, &[1, 2, 3], same_model);
    let cv = [&["cv", "corpora", "-q", "--classifier", "mnb"][..], &hashed].concat();
    same_output_as_one_process(dir.path(), &cv);
}

/// The dual objective (summed over classes) of the default SVM trained on `corpus` in one
/// process, through the library.
fn single_process_dual_objective(corpus: &Path) -> f64 {
    use bowline::analyze::Analyzer;
    use bowline::model::{LinearSvm, SvmParams};
    let source = bowline::Source::open(corpus, &Default::default()).unwrap();
    let analyzer = Analyzer::new(bowline::Kind::Svm.default_analysis()).unwrap();
    let config = bowline::Kind::Svm.default_vectorizer();
    let pipeline = Default::default();
    let fitted = bowline::flow::fit_corpus(source, &analyzer, &config, &pipeline, |_| {}).unwrap();
    let ids = fitted.training_ids(corpus, "training").unwrap();
    let classes = fitted.classes.len();
    let params = SvmParams::default();
    let (_, objectives) =
        LinearSvm::train_with_objectives(&fitted.matrix, &ids, classes, params).unwrap();
    objectives.iter().sum()
}

/// The dual objective that process 0 of a cluster training reports on stderr.
fn reported_dual_objective(stderr: &str) -> f64 {
    let (_, after) = stderr
        .split_once("dual objective ")
        .unwrap_or_else(|| panic!("no dual objective in {stderr}"));
    let figure = after.split_whitespace().next().unwrap_or_default();
    let figure = figure.trim_end_matches(|c: char| !c.is_ascii_digit());
    figure
        .parse()
        .unwrap_or_else(|_| panic!("'{figure}' in {stderr}"))
}

#[test]
fn the_svm_trained_by_one_two_and_three_processes_reaches_one_process_s_dual_objective() {
    let dir = tempfile::tempdir().unwrap();
    let single = dir.path().join("svm.model");
    let (code, _, stderr) = outcome(&bowline(
        &["train", "corpora", "-o", arg(&single), "-q"],
        b"",
    ));
    assert_eq!(code, 0, "{stderr}");
    let expected = single_process_dual_objective(Path::new("corpora"));
    let probes = "the rocket reached orbit\nbake the bread slowly\nthe team won the match\n\
                  a quiet evening with soup\n";
    let (_, labels, _) = outcome(&bowline(
        &["classify", arg(&single), "-q"],
        probes.as_bytes(),
    ));
    for n in 1..=3 {
        let output = |p: usize| dir.path().join(format!("svm-{n}-{p}.model"));
        let processes_flag = n.to_string();
        let args = [
            "train",
            "corpora",
            "--cocoa",
            "--processes",
            &processes_flag,
        ];
        let mut processes = start(dir.path(), n, &args, |p| {
            vec!["-o".into(), output(p).display().to_string()]
        });
        let outputs = processes.wait_all();
        for (p, out) in outputs.iter().enumerate() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "{n} processes, process {p}: {stderr}");
        }
        let stderr = String::from_utf8_lossy(&outputs[0].stderr);
        let reached = reported_dual_objective(&stderr);
        assert!(
            (reached - expected).abs() <= 1e-3 * expected.abs(),
            "{n} processes: {reached} against {expected}"
        );
        let model_path = output(0);
        let model = arg(&model_path);
        let (code, theirs, stderr) =
            outcome(&bowline(&["classify", model, "-q"], probes.as_bytes()));
        assert_eq!(code, 0, "{stderr}");
        let label = |line: &str| line.split('\t').nth(1).map(str::to_string);
        let ours: Vec<_> = labels.lines().map(label).collect();
        assert_eq!(
            theirs.lines().map(label).collect::<Vec<_>>(),
            ours,
            "{n} processes"
        );
        let (code, report, _) = outcome(&bowline(&["eval", model, "corpora", "-q"], b""));
        assert_eq!(code, 0);
        assert!(report.contains("accuracy 1.0000"), "{report}");
        // The reservoir holds every training row (61, under its capacity), merged from the
        // workers' samples, and `update` continues from it.
        let (_, inspected, _) = outcome(&bowline(&["inspect", model], b""));
        assert!(inspected.contains("61 training rows kept"), "{inspected}");
        let more = dir.path().join("more.tsv");
        std::fs::write(&more, "space\trocket orbit launch pad\nfood\tbake bread\n").unwrap();
        let (code, _, stderr) = outcome(&bowline(&["update", model, arg(&more), "-q"], b""));
        assert_eq!(code, 0, "{stderr}");
        for p in 1..n {
            assert!(!output(p).exists(), "process {p} of {n} wrote a model");
        }
    }
}

#[test]
fn a_peer_killed_during_the_svm_s_rounds_stops_the_others_within_ten_seconds() {
    let dir = tempfile::tempdir().unwrap();
    // 4,000 documents of 40 random words from 5,000, in classes that the words do not tell
    // apart: rounds that go on for many seconds.
    let corpus = dir.path().join("corpus.tsv");
    let mut state = 7u64;
    let mut next = move |bound: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % bound
    };
    let lines: String = (0..4000)
        .map(|i| {
            let words: Vec<String> = (0..40).map(|_| format!("w{}", next(5000))).collect();
            format!("c{}\t{}\n", i % 4, words.join(" "))
        })
        .collect();
    std::fs::write(&corpus, lines).unwrap();
    let model = dir.path().join("model");
    let args = [
        "train",
        arg(&corpus),
        "-o",
        arg(&model),
        "-q",
        "--cocoa",
        "--max-iterations",
        "100000",
    ];
    let mut processes = start(dir.path(), 2, &args, |_| Vec::new());
    // Process 0 is in its rounds once it has done a second of work: CPU time, which a busy
    // machine delays but does not shorten, unlike a wait on the clock.
    let pid = processes.0[0].id();
    let start = Instant::now();
    while cpu_seconds(pid) < 1.0 && start.elapsed() < DEADLINE {
        assert!(
            processes.0[0].try_wait().unwrap().is_none(),
            "the rounds ended within a second of work"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    kill_process_1(&mut processes, &model);
}

/// The CPU time, user and system, that process `pid` has used so far.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name (which may hold spaces) start at the state, field 3;
    // utime and stime are fields 14 and 15, in clock ticks.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<f64> = after
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0.0))
        .collect();
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    (fields.get(11).copied().unwrap_or(0.0) + fields.get(12).copied().unwrap_or(0.0)) / ticks
}

/// 20 Newsgroups bydate, beside this repository.
const NEWS: &str = "../shared/corpora/20news-bydate";

/// Accuracy on 20 Newsgroups bydate test of a model that `train` writes into `dir` from its
/// training split, with `cluster` flags in `processes` processes (0: one ordinary process), and
/// what process 0 printed on stderr.
fn news_accuracy(dir: &Path, processes: usize, cluster: &[&str]) -> (f64, String) {
    let (train, test) = (format!("{NEWS}/train"), format!("{NEWS}/test"));
    let model = dir.join(format!("news-{processes}.model"));
    let args = ["train", &train, "-o", arg(&model)];
    let stderr = if processes == 0 {
        let (code, _, stderr) = outcome(&bowline(&args, b""));
        assert_eq!(code, 0, "{stderr}");
        stderr
    } else {
        let all = [&args[..], cluster].concat();
        let mut started = start(dir, processes, &all, |_| Vec::new());
        let outputs: Vec<Output> = (0..processes)
            .map(|p| {
                started
                    .wait(p, Duration::from_secs(300))
                    .expect("training ends")
            })
            .collect();
        for (p, out) in outputs.iter().enumerate() {
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(out.status.success(), "process {p}: {stderr}");
        }
        String::from_utf8_lossy(&outputs[0].stderr).into_owned()
    };
    let eval = ["eval", arg(&model), &test, "--json", "-q"];
    let (code, stdout, eval_stderr) = outcome(&bowline(&eval, b""));
    assert_eq!(code, 0, "{eval_stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    (report["accuracy"].as_f64().unwrap(), stderr)
}

#[test]
#[ignore = "needs ../shared/corpora"]
fn the_svm_trained_by_two_processes_on_20_newsgroups_reaches_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let (single, _) = news_accuracy(dir.path(), 0, &[]);
    // Forty rounds (about 60 s in release on two busy cores) rather than the duality gap's
    // stop, which takes far more rounds on these rows: see benches/README.md.
    let (two, stderr) = news_accuracy(dir.path(), 2, &["--cocoa", "--max-iterations", "40"]);
    assert!((single - two).abs() <= 0.002, "{two} against {single}");
    let reached = reported_dual_objective(&stderr);
    let expected = single_process_dual_objective(&Path::new(NEWS).join("train"));
    assert!(
        (reached - expected).abs() <= 1e-3 * expected,
        "{reached} against {expected}"
    );
}

#[test]
fn a_document_without_a_label_stops_every_process_training_the_svm() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus.jsonl");
    let mut lines: String = (0..20)
        .map(|i| {
            format!(
                "{{\"id\": \"{i}\", \"label\": \"c{}\", \"text\": \"word{i} common\"}}\n",
                i % 2
            )
        })
        .collect();
    lines.push_str("{\"id\": \"x\", \"text\": \"no label here\"}\n");
    std::fs::write(&corpus, lines).unwrap();
    let model = dir.path().join("model");
    let args = ["train", arg(&corpus), "-o", arg(&model), "-q", "--cocoa"];
    let mut processes = start(dir.path(), 2, &args, |_| Vec::new());
    for (p, out) in processes.wait_all().iter().enumerate() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "process {p}: {stderr}");
        assert!(
            stderr.contains("needs a label on every document"),
            "{stderr}"
        );
    }
    assert!(!model.exists());
}
