//! `bowline label` on a real server on 127.0.0.1: the API (labels, undo, a new class, skips and
//! restarts), labels answered as saved surviving SIGKILL, and the page driven by its keys in
//! headless Chromium.

mod common;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde_json::{json, Value};

use common::{arg, bowline, outcome};

/// The pool's topics, each with its words; a document is eight of its topic's words.
const TOPICS: &[(&str, &str)] = &[
    (
        "sport",
        "ball goal team match player score coach league referee stadium",
    ),
    (
        "food",
        "bread cook oven salt pepper recipe soup bake garlic kitchen",
    ),
    (
        "space",
        "rocket orbit planet moon star launch galaxy comet telescope astronaut",
    ),
];

/// Held by each test while it runs. Run side by side, the three tests once lost a connection to
/// a server mid-run (in CI, and once in about 80 local runs of the three under load; never in 47
/// runs of one test alone), with no panic from the server. The cause is not established: the
/// tests start and SIGKILL servers on ports the kernel hands out again, which is the suspect.
/// One test at a time keeps them apart.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn one_at_a_time() -> MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes a pool of `n` documents, topics in turn, and returns each id's topic: the oracle.
fn pool(dir: &Path, n: usize) -> (PathBuf, HashMap<String, String>) {
    let mut lines = String::new();
    let mut oracle = HashMap::new();
    for i in 0..n {
        let (topic, words) = TOPICS[i % TOPICS.len()];
        let words: Vec<&str> = words.split(' ').collect();
        // A fixed stride through the words, so that documents differ without a random source.
        let text: Vec<&str> = (0..8)
            .map(|k| words[(i * 7 + k * 3) % words.len()])
            .collect();
        let id = format!("doc{i:03}");
        let line = json!({"id": id, "text": format!("{} and the", text.join(" "))});
        lines += &format!("{line}\n");
        oracle.insert(id, topic.to_string());
    }
    let path = dir.join("pool.jsonl");
    std::fs::write(&path, lines).unwrap();
    (path, oracle)
}

/// A running `bowline label` over `pool`, killed when dropped.
struct Labeller(common::serve::Server);

impl std::ops::Deref for Labeller {
    type Target = common::serve::Server;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl Labeller {
    fn start(pool: &Path, labels: &Path) -> Labeller {
        let (pool, labels) = (arg(pool), arg(labels));
        let args = ["label", pool, "--labels", labels, "--classes", "sport,food"];
        Labeller(common::serve::Server::launch(
            &[&args[..], &["--addr", "127.0.0.1:0"]].concat(),
        ))
    }

    fn state(&self) -> Value {
        let (status, body) = self.get("/api/state");
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).expect("JSON")
    }

    /// POSTs `body` to `path`: the status and the answer.
    fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.0.post(path, &body)
    }

    fn kill(self) {}
}

fn post(agent: &ureq::Agent, base: &str, path: &str, body: Value) -> Option<(u16, Value)> {
    let mut response = (agent.post(format!("{base}{path}")))
        .header("content-type", "application/json")
        .send(body.to_string().as_bytes())
        .ok()?;
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().ok()?;
    Some((
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    ))
}

/// The id of the document the state asks about.
fn asked(state: &Value) -> String {
    state["document"]["id"]
        .as_str()
        .expect("a document")
        .to_string()
}

/// The records of a labels file.
fn records(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Labels documents as the oracle says (space, which `--classes` lacks, comes as a new class)
/// until `wanted` labels are in force, with an undo after the 5th and 12th label and a skip,
/// undone, after the 8th label given. Returns every id answered as labelled.
fn label_run(server: &Labeller, oracle: &HashMap<String, String>, wanted: usize) -> Vec<String> {
    let mut labelled: Vec<String> = Vec::new();
    let mut state = server.state();
    for step in 1..200 {
        if state["labelled"].as_u64() == Some(wanted as u64) {
            return labelled;
        }
        let id = asked(&state);
        let (status, next) = server.post("/api/label", json!({"id": id, "label": oracle[&id]}));
        assert_eq!(status, 200, "{next}");
        labelled.push(id.clone());
        state = next;
        if step == 5 || step == 12 {
            let (status, undone) = server.post("/api/undo", json!({}));
            assert_eq!(status, 200, "{undone}");
            labelled.pop();
            state = undone;
        }
        if step == 8 {
            let skipped = asked(&state);
            let (status, _) = server.post("/api/skip", json!({"id": skipped}));
            assert_eq!(status, 200);
            let (status, undone) = server.post("/api/undo", json!({}));
            assert_eq!((status, asked(&undone)), (200, skipped));
            state = undone;
        }
    }
    panic!("{wanted} labels were not reached in 200 requests");
}

#[test]
fn labels_undo_and_a_new_class_leave_exactly_the_labels_in_force_and_a_restart_resumes() {
    let _alone = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let (pool, oracle) = pool(dir.path(), 90);
    let labels = dir.path().join("labels.jsonl");
    let server = Labeller::start(&pool, &labels);
    let first = server.state();
    let names: Vec<&str> = (first["classes"].as_array().unwrap().iter())
        .map(|c| c[0].as_str().unwrap())
        .collect();
    assert_eq!(names, ["sport", "food"]);
    let labelled = label_run(&server, &oracle, 30);
    let kept = records(&labels);
    assert_eq!(kept.len(), 30);
    let ids: Vec<&str> = kept.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids.iter().collect::<HashSet<_>>().len(),
        30,
        "an id labelled twice"
    );
    assert_eq!(ids, labelled.iter().map(String::as_str).collect::<Vec<_>>());
    for record in &kept {
        let id = record["id"].as_str().unwrap();
        assert_eq!(record["label"], oracle[id].as_str(), "{record}");
        assert!(record["text"].as_str().unwrap().ends_with(" and the"));
    }
    let state = server.state();
    let counts: HashMap<&str, u64> = (state["classes"].as_array().unwrap().iter())
        .map(|c| (c[0].as_str().unwrap(), c[1].as_u64().unwrap()))
        .collect();
    assert_eq!(counts.values().sum::<u64>(), 30);
    assert!(counts["space"] > 0, "the new class: {counts:?}");
    assert_eq!(state["curve"].as_array().unwrap().len() as u64, 29);
    assert_eq!(state["remaining"], 60);
    // A document labelled already is refused, and the file is unchanged.
    let (status, _) = server.post("/api/label", json!({"id": ids[0], "label": "food"}));
    assert_eq!(status, 409);
    assert_eq!(records(&labels).len(), 30);
    server.kill();

    let server = Labeller::start(&pool, &labels);
    let resumed = server.state();
    assert_eq!(
        (resumed["labelled"].as_u64(), &resumed["curve"]),
        (Some(30), &state["curve"])
    );
    assert_eq!(resumed["document"]["id"], state["document"]["id"]);
    let more = label_run(&server, &oracle, 40);
    assert!(
        more.iter().all(|id| !ids.contains(&id.as_str())),
        "asked twice"
    );
    assert_eq!(records(&labels).len(), 40);

    // The labels file is a corpus that `train` reads.
    let model = dir.path().join("labels.model");
    let trained = bowline(&["train", arg(&labels), "-o", arg(&model), "-q"], b"");
    assert_eq!(outcome(&trained).0, 0, "{}", outcome(&trained).2);
}

#[test]
fn every_label_answered_as_saved_survives_sigkill() {
    let _alone = one_at_a_time();
    let dir = tempfile::tempdir().unwrap();
    let (pool, oracle) = pool(dir.path(), 1000);
    let labels = dir.path().join("labels.jsonl");
    let mut saved: Vec<String> = Vec::new();
    for kill in 0..10 {
        let server = Labeller::start(&pool, &labels);
        let state = server.state();
        assert_eq!(
            state["labelled"].as_u64(),
            Some(saved.len() as u64),
            "kill {kill}"
        );
        if let Some(id) = state["document"]["id"].as_str() {
            assert!(
                !saved.iter().any(|s| s == id),
                "{id} asked again after kill {kill}"
            );
        }
        let answered = Arc::new(Mutex::new(Vec::new()));
        let (base, agent, oracle) = (server.base.clone(), server.agent.clone(), oracle.clone());
        let record = Arc::clone(&answered);
        let client = std::thread::spawn(move || {
            let mut next = state;
            // Bounded: the server is killed long before, and a refused connection ends it. A
            // fast build can label the whole pool before a late kill; then nothing is asked.
            for _ in 0..1000 {
                let Some(id) = next["document"]["id"].as_str().map(str::to_string) else {
                    return;
                };
                let body = json!({"id": id, "label": oracle[&id]});
                let Some((200, answer)) = post(&agent, &base, "/api/label", body) else {
                    return;
                };
                record.lock().unwrap().push(id);
                next = answer;
            }
        });
        // The kill lands at a different point of the run each time, as often mid-request.
        std::thread::sleep(std::time::Duration::from_millis(40 + 23 * kill));
        server.kill();
        client.join().unwrap();
        saved.extend(answered.lock().unwrap().drain(..));
        let kept: Vec<String> = (records(&labels).iter())
            .map(|r| r["id"].as_str().unwrap().to_string())
            .collect();
        for id in &saved {
            assert!(kept.contains(id), "{id} was answered as saved but is lost");
        }
        // A label written but killed before its answer is kept too; it is then saved.
        saved = kept;
    }
    assert!(saved.len() >= 10, "too few labels: {}", saved.len());
    let distinct: HashSet<&String> = saved.iter().collect();
    assert_eq!(distinct.len(), saved.len(), "a document labelled twice");
}

/// The key that labels `id` as the oracle says: its class's number, or none for a new class.
fn key_for(classes: &Value, class: &str) -> Option<String> {
    let names = classes.as_array().unwrap().iter();
    let index = names
        .map(|c| c[0].as_str().unwrap())
        .position(|c| c == class)?;
    Some((index + 1).to_string())
}

#[test]
fn the_page_labels_by_keyboard_draws_its_chart_and_fetches_nothing_from_the_network() {
    let _alone = one_at_a_time();
    let Some(chromium) = common::browser::chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (pool, oracle) = pool(dir.path(), 90);
    let labels = dir.path().join("labels.jsonl");
    let server = Labeller::start(&pool, &labels);
    let mut browser = common::cdp::Browser::open(&chromium, &dir.path().join("profile"));
    let idle = "window.busy === false";
    browser.navigate(&format!("{}/", server.base), idle);
    let mut given = Vec::new();
    for step in 1..200 {
        let view = browser.eval("view");
        if view["labelled"] == 30 {
            break;
        }
        let id = view["document"]["id"].as_str().unwrap().to_string();
        match key_for(&view["classes"], &oracle[&id]) {
            Some(key) => browser.key(&key),
            None => {
                browser.key("n");
                browser.type_text(&oracle[&id]);
                browser.key("Enter");
            }
        }
        browser.wait_for(idle);
        let status = browser.eval("document.getElementById('status').textContent");
        assert_eq!(status, format!("saved: {}", oracle[&id]));
        given.push(id);
        if step == 5 {
            browser.key("u");
            browser.wait_for(idle);
            given.pop();
        }
        if step == 8 {
            browser.key("s");
            browser.wait_for(idle);
            browser.key("u");
            browser.wait_for(idle);
        }
    }
    let kept: Vec<String> = (records(&labels).iter())
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kept, given);
    assert_eq!(kept.len(), 30);
    browser.key("?");
    let help = "getComputedStyle(document.getElementById('help')).display";
    assert_eq!(browser.eval(help), "block");
    let drawn = "[...document.querySelectorAll('#curve .data')].map(e => e.getBBox().width).join()";
    let width: f64 = browser.eval(drawn).as_str().unwrap().parse().unwrap();
    assert!(width > 100.0, "the learning curve is {width} wide");
    let marked = browser.eval("document.querySelectorAll('#doc mark').length");
    assert!(
        marked.as_u64().unwrap() > 0,
        "no term of the guess is highlighted"
    );

    let shot = browser.screenshot(900, 620);
    assert_eq!(&shot[..8], b"\x89PNG\r\n\x1a\n");
    std::fs::write(
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("label.png"),
        &shot,
    )
    .unwrap();
    browser.screenshot(320, 640);
    let overflow = "document.documentElement.scrollWidth";
    assert!(
        browser.eval(overflow).as_u64().unwrap() <= 320,
        "wider than 320 px"
    );

    let requests = browser.requests();
    assert!(requests.len() > 30, "{requests:?}");
    for url in &requests {
        assert!(
            url.starts_with(&server.base),
            "a request off the server: {url}"
        );
    }
    let fetched = "performance.getEntriesByType('resource').map(e => e.name)";
    for url in browser.eval(fetched).as_array().unwrap() {
        assert!(url.as_str().unwrap().starts_with(&server.base), "{url}");
    }
}
