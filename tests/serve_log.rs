//! `bowline serve`'s write-ahead log: a document acknowledged by a learn request (a 200) stays
//! in the model, exactly once, through reloads (POST, SIGHUP, the file watcher after `bowline
//! update`), crashes (SIGKILL) and restarts. The real program on a loopback port, a real HTTP
//! client; every loop is bounded.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use bowline::model::{wal, Model};
use bowline::TextClassifier;
use common::serve::{agent, model, Server};
use common::{arg, bowline, outcome};
use serde_json::{json, Value};

/// The documents per class in the model file.
fn counts(path: &Path) -> BTreeMap<String, u64> {
    let model = TextClassifier::load(path).unwrap().into_model();
    model
        .labels
        .into_iter()
        .zip(model.info.docs_per_class)
        .collect()
}

/// The classes the server serves now.
fn classes(server: &Server) -> Vec<String> {
    let models: Value = serde_json::from_str(&server.get("/v1/models").1).unwrap();
    serde_json::from_value(models["models"][0]["classes"].clone()).unwrap()
}

fn learn_one(label: &str) -> Value {
    json!({ "documents": [{ "label": label, "text": format!("a document about {label}") }] })
}

/// Waits (at most 10 s) until `done` holds.
fn eventually(mut done: impl FnMut() -> bool) -> bool {
    (0..200).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        done()
    })
}

fn hang_up(server: &Server) {
    let hangup = Command::new("kill")
        .args(["-HUP", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(hangup.success());
}

/// `bowline update` of `path` with one document of each label.
fn update(path: &Path, labels: &[String]) {
    let corpus = path.with_extension(format!("{}.tsv", labels[0]));
    let tsv: String = labels
        .iter()
        .map(|l| format!("{l}\tan update about {l}\n"))
        .collect();
    std::fs::write(&corpus, tsv).unwrap();
    let (code, _, stderr) = outcome(&bowline(&["update", arg(path), arg(&corpus), "-q"], b""));
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn learned_documents_survive_every_kind_of_reload() {
    let dir = tempfile::tempdir().unwrap();
    let path = model(dir.path(), "mnb");
    let server = Server::start(&[
        arg(&path),
        "--checkpoint-every",
        "1000000",
        "--watch-secs",
        "0.1",
    ]);
    let learn = |label: &str| {
        let (status, answer) = server.post("/v1/models/mnb/learn", &learn_one(label));
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["checkpointed"], false, "{answer}");
    };
    learn("astronomy");
    let (status, answer) = server.post("/v1/models/mnb/reload", &json!({}));
    assert_eq!(status, 200, "{answer}");
    assert!(classes(&server).contains(&"astronomy".to_string()));

    learn("geology");
    hang_up(&server);
    let version = |server: &Server| {
        let models: Value = serde_json::from_str(&server.get("/v1/models").1).unwrap();
        models["models"][0]["version"].as_u64().unwrap()
    };
    let before = version(&server);
    assert!(eventually(|| version(&server) > before));
    assert!(classes(&server).contains(&"geology".to_string()));

    // `bowline update` rewrites the served file; the watcher reloads it, and the documents
    // learned since the last checkpoint are learned again on top of it.
    learn("botany");
    update(&path, &["updated".to_string()]);
    assert!(eventually(
        || classes(&server).contains(&"updated".to_string())
    ));
    let served = classes(&server);
    for label in ["astronomy", "geology", "botany"] {
        assert!(served.contains(&label.to_string()), "{label}: {served:?}");
    }
    assert_eq!(server.stop(), 0);
    let counts = counts(&path);
    for label in ["astronomy", "geology", "botany", "updated"] {
        assert_eq!(counts.get(label), Some(&1), "{label}: {counts:?}");
    }
}

#[test]
fn concurrent_learns_and_reloads_keep_every_document() {
    let dir = tempfile::tempdir().unwrap();
    let path = model(dir.path(), "mnb");
    let server = Server::start(&[arg(&path), "--checkpoint-every", "3", "--watch-secs", "0"]);
    std::thread::scope(|scope| {
        for i in 0..20 {
            let server = &server;
            scope.spawn(move || {
                let (status, answer) = server.post_with(
                    &agent(),
                    "/v1/models/mnb/learn",
                    learn_one(&format!("class{i}")).to_string().as_bytes(),
                );
                assert_eq!(status, 200, "{answer}");
            });
        }
        for _ in 0..5 {
            let server = &server;
            scope.spawn(move || {
                let (status, answer) = server.post_with(&agent(), "/v1/models/mnb/reload", b"{}");
                assert_eq!(status, 200, "{answer}");
            });
        }
    });
    assert_eq!(server.stop(), 0);
    let counts = counts(&path);
    for i in 0..20 {
        assert_eq!(counts.get(&format!("class{i}")), Some(&1), "{counts:?}");
    }
}

/// A model whose server learned two documents (astronomy, geology) without a checkpoint, then
/// was killed: the folder, the model and its log.
fn killed_after_two_learns() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = model(dir.path(), "mnb");
    let server = Server::start(&[arg(&path), "--checkpoint-every", "1000000"]);
    for label in ["astronomy", "geology"] {
        let (status, answer) = server.post("/v1/models/mnb/learn", &learn_one(label));
        assert_eq!(status, 200, "{answer}");
    }
    drop(server);
    let log = dir.path().join("mnb.model.wal");
    (dir, path, log)
}

#[test]
fn a_killed_server_learns_its_log_again_once() {
    let (_dir, path, log) = killed_after_two_learns();
    let args = [arg(&path), "--checkpoint-every", "1000000"];
    assert!(log.exists());
    assert!(!counts(&path).contains_key("astronomy"));
    // The restart writes the logged documents to the file; a second kill and restart finds
    // them there and learns nothing again.
    let server = Server::start(&args);
    assert!(classes(&server).contains(&"geology".to_string()));
    drop(server);
    let server = Server::start(&args);
    assert_eq!(
        server.post("/v1/models/mnb/learn", &learn_one("botany")).0,
        200
    );
    drop(server);
    let server = Server::start(&args);
    assert_eq!(server.stop(), 0);
    let counts = counts(&path);
    for label in ["astronomy", "geology", "botany"] {
        assert_eq!(counts.get(label), Some(&1), "{label}: {counts:?}");
    }
}

/// A server killed inside a checkpoint, after renaming the new file into place and before
/// starting its log afresh, leaves a log that ends with a checkpoint naming the file. `bowline
/// update` then rewrites the file: the restarted server learns nothing twice.
#[test]
fn an_update_after_a_checkpoint_cut_short_learns_nothing_twice() {
    let (_dir, path, log) = killed_after_two_learns();
    let labels = ["astronomy".to_string(), "geology".to_string()];
    update(&path, &labels);
    let contents = wal::read(&std::fs::read(&log).unwrap(), &log).unwrap();
    let fingerprint = Model::fingerprint(&path).unwrap().into_bytes();
    let checkpoint = wal::Record::Checkpoint(contents.last_seq(), fingerprint);
    let mut file = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    std::io::Write::write_all(&mut file, &checkpoint.encode()).unwrap();
    update(&path, &["botany".to_string()]);
    let server = Server::start(&[arg(&path)]);
    assert_eq!(server.stop(), 0);
    let counts = counts(&path);
    for label in ["astronomy", "geology", "botany"] {
        assert_eq!(counts.get(label), Some(&1), "{label}: {counts:?}");
    }
}

#[test]
fn a_damaged_log_stops_the_start_with_its_offset() {
    let (_dir, path, log) = killed_after_two_learns();
    let mut bytes = std::fs::read(&log).unwrap();
    // The first document record follows the magic and the opening checkpoint record.
    let first = 8 + 8 + u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    bytes[first + 12] ^= 0x55;
    std::fs::write(&log, bytes).unwrap();
    let (code, _, stderr) = outcome(&bowline(
        &["serve", arg(&path), "--addr", "127.0.0.1:0"],
        b"",
    ));
    assert_ne!(code, 0);
    let expected = format!("the record at offset {first} fails its checksum");
    assert!(stderr.contains(&expected), "{stderr}");
    assert!(stderr.contains("mnb.model.wal"), "{stderr}");
}

/// A small seeded generator (xorshift), so that the kill loop's moments repeat.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// POSTs `body`, giving `None` when the server does not answer (it was killed).
fn try_post(agent: &ureq::Agent, url: &str, body: &Value) -> Option<(u16, Value)> {
    let mut response = agent
        .post(url)
        .header("content-type", "application/json")
        .send(body.to_string().as_bytes())
        .ok()?;
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().ok()?;
    Some((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

/// One round of the kill loop: learners, reloads and `bowline update`s against the server
/// until it is killed after `life`; every label acknowledged is added to `acknowledged`.
fn round(
    server: Server,
    path: &Path,
    round: u64,
    life: Duration,
    acknowledged: &Mutex<Vec<String>>,
) {
    let learn_url = format!("{}/v1/models/mnb/learn", server.base);
    let reload_url = format!("{}/v1/models/mnb/reload", server.base);
    let ended = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        for client in 0..3 {
            let (learn_url, ended) = (&learn_url, &ended);
            scope.spawn(move || {
                let agent = agent();
                for n in 0.. {
                    let label = format!("r{round}c{client}n{n}");
                    match try_post(&agent, learn_url, &learn_one(&label)) {
                        Some((200, _)) => acknowledged.lock().unwrap().push(label),
                        Some((status, answer)) => panic!("{status} {answer}"),
                        None if ended.load(std::sync::atomic::Ordering::SeqCst) => break,
                        None => panic!("no answer from a live server"),
                    }
                }
            });
        }
        let (reload_url, ended) = (&reload_url, &ended);
        scope.spawn(move || {
            let agent = agent();
            for n in 0.. {
                if ended.load(std::sync::atomic::Ordering::SeqCst) {
                    break;
                }
                if n % 4 == 3 {
                    let label = format!("r{round}u{n}");
                    update(path, std::slice::from_ref(&label));
                    acknowledged.lock().unwrap().push(label);
                } else if let Some((status, answer)) = try_post(&agent, reload_url, &json!({})) {
                    assert_eq!(status, 200, "{answer}");
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        std::thread::sleep(life);
        ended.store(true, std::sync::atomic::Ordering::SeqCst);
        drop(server);
    });
}

/// 50 SIGKILLs of `bowline serve` at seeded random moments while clients learn, reload and
/// rewrite the file with `bowline update`: after every restart, each acknowledged document is
/// in the model file exactly once, and no document is there twice. About 25 s in a debug
/// build.
#[test]
fn a_serve_kill_loop_keeps_every_acknowledged_document_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = model(dir.path(), "mnb");
    let start = Instant::now();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let acknowledged = Mutex::new(Vec::new());
    let initial = counts(&path);
    let kills = 50;
    for kill in 0..kills {
        let every = (1 + rng.below(20)).to_string();
        let server = Server::start(&[
            arg(&path),
            "--checkpoint-every",
            &every,
            "--watch-secs",
            "0.05",
        ]);
        check(&path, &initial, &acknowledged.lock().unwrap());
        let life = Duration::from_millis(50 + rng.below(400));
        round(server, &path, kill, life, &acknowledged);
    }
    let server = Server::start(&[arg(&path)]);
    assert_eq!(server.stop(), 0);
    let acknowledged = acknowledged.into_inner().unwrap();
    check(&path, &initial, &acknowledged);
    eprintln!(
        "{kills} kills, {} acknowledged documents, {:.1} s",
        acknowledged.len(),
        start.elapsed().as_secs_f64()
    );
}

/// Every label in `acknowledged` is in the file once; no label is there more than once
/// (besides the model's own classes, which keep their counts).
fn check(path: &Path, initial: &BTreeMap<String, u64>, acknowledged: &[String]) {
    let counts = counts(path);
    for label in acknowledged {
        assert_eq!(counts.get(label), Some(&1), "{label}");
    }
    for (label, count) in &counts {
        let expected = initial.get(label).copied().unwrap_or(1);
        assert!(*count <= expected, "{label}: {count} documents");
    }
}

#[test]
fn a_file_that_cannot_learn_the_documents_is_refused_with_409() {
    let dir = tempfile::tempdir().unwrap();
    let path = model(dir.path(), "mnb");
    let selected = dir.path().join("selected.model");
    let (code, _, stderr) = outcome(&bowline(
        &["select", "corpora", "-o", arg(&selected), "-q"],
        b"",
    ));
    assert_eq!(code, 0, "{stderr}");
    let server = Server::start(&[
        arg(&path),
        "--checkpoint-every",
        "1000000",
        "--watch-secs",
        "0",
    ]);
    assert_eq!(
        server
            .post("/v1/models/mnb/learn", &learn_one("astronomy"))
            .0,
        200
    );
    std::fs::copy(&selected, &path).unwrap();
    let (status, answer) = server.post("/v1/models/mnb/reload", &json!({}));
    assert_eq!(status, 409, "{answer}");
    let message = answer["error"].as_str().unwrap_or_default();
    assert!(
        message.contains("cannot learn the documents learned since the last checkpoint (1)"),
        "{answer}"
    );
    assert!(classes(&server).contains(&"astronomy".to_string()));
}
