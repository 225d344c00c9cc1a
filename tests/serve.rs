//! `bowline serve`, tested as users meet it: the real program listening on a loopback port,
//! and a real HTTP client. Every request goes to 127.0.0.1, and every loop is bounded.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use bowline::TextClassifier;
use common::serve::{model, Server};
use common::{arg, bowline, outcome};
use serde_json::{json, Value};

const TEXTS: [&str; 4] = [
    "the rocket reached orbit around the moon",
    "bake the bread in a hot oven",
    "the striker scored a late goal",
    "compile the kernel and reboot",
];

#[test]
fn batch_classify_equals_bowline_classify() {
    let dir = tempfile::tempdir().unwrap();
    for kind in ["mnb", "svm"] {
        let path = model(dir.path(), kind);
        let stdin = TEXTS.join("\n") + "\n";
        let (code, stdout, stderr) = outcome(&bowline(&["classify", arg(&path)], stdin.as_bytes()));
        assert_eq!(code, 0, "{stderr}");
        let server = Server::start(&[arg(&path)]);
        let (status, answer) = server.post(
            &format!("/v1/models/{kind}/classify"),
            &json!({ "texts": TEXTS, "top_k": 2 }),
        );
        assert_eq!(status, 200, "{answer}");
        assert_eq!(
            (answer["model"].as_str(), answer["version"].as_u64()),
            (Some(kind), Some(1))
        );
        let value = if kind == "svm" {
            "score"
        } else {
            "probability"
        };
        let served: Vec<String> = answer["predictions"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                assert_eq!(p["scores"].as_array().unwrap().len(), 2);
                let (label, value) = (p["label"].as_str().unwrap(), p[value].as_f64().unwrap());
                format!("{}\t{label}\t{value:.6}", i + 1)
            })
            .collect();
        assert_eq!(served, stdout.lines().collect::<Vec<_>>());
        // Documents keep their ids, and a threshold above every value leaves no label.
        let documents = json!({ "documents": [{"id": "a", "text": TEXTS[0]}], "threshold": 2.0 });
        let (status, answer) = server.post(&format!("/v1/models/{kind}/classify"), &documents);
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["predictions"][0]["id"], "a");
        assert_eq!(answer["predictions"][0]["label"], Value::Null);
        // An explanation names the top class's terms, as `classify --explain` does.
        let explained = json!({ "texts": [TEXTS[0]], "explain": 2 });
        let (status, answer) = server.post(&format!("/v1/models/{kind}/classify"), &explained);
        assert_eq!(status, 200, "{answer}");
        let explanation = &answer["predictions"][0]["explanation"];
        assert_eq!(explanation["label"], "space", "{answer}");
        assert_eq!(
            explanation["terms"].as_array().unwrap().len(),
            2,
            "{answer}"
        );
        assert_eq!(server.stop(), 0);
    }
}

/// `serve` and `classify --format jsonl` render a document's result with the same code: the
/// same bytes for the same text, and the same explanation.
#[test]
fn serve_and_classify_render_the_same_json() {
    let dir = tempfile::tempdir().unwrap();
    for kind in ["mnb", "svm"] {
        let path = model(dir.path(), kind);
        let stdin = TEXTS.join("\n") + "\n";
        let args = [
            "classify",
            arg(&path),
            "--format",
            "jsonl",
            "--top",
            "3",
            "-q",
        ];
        let (code, stdout, stderr) = outcome(&bowline(&args, stdin.as_bytes()));
        assert_eq!(code, 0, "{stderr}");
        let server = Server::start(&[arg(&path)]);
        let documents: Vec<Value> = (TEXTS.iter().enumerate())
            .map(|(i, text)| json!({"id": (i + 1).to_string(), "text": text}))
            .collect();
        let url = format!("{}/v1/models/{kind}/classify", server.base);
        let request = json!({ "documents": documents, "top_k": 3 }).to_string();
        let mut response = (server
            .agent
            .post(url)
            .header("content-type", "application/json"))
        .send(request.as_bytes())
        .unwrap();
        let body = response.body_mut().read_to_string().unwrap();
        assert_eq!(stdout.lines().count(), TEXTS.len());
        for line in stdout.lines() {
            let object = line.replacen("\"schema_version\":1,", "", 1);
            assert!(body.contains(&object), "{object} not in {body}");
        }
        // With explanations the shapes differ only in the name: `explanations`, a list of the
        // classes given, against one `explanation`.
        let args = [&args[..], &["--explain", "3"]].concat();
        let (code, stdout, stderr) = outcome(&bowline(&args, stdin.as_bytes()));
        assert_eq!(code, 0, "{stderr}");
        let request = json!({ "documents": documents, "top_k": 3, "explain": 3 });
        let (status, answer) = server.post(&format!("/v1/models/{kind}/classify"), &request);
        assert_eq!(status, 200, "{answer}");
        for (line, served) in stdout
            .lines()
            .zip(answer["predictions"].as_array().unwrap())
        {
            let mut printed: Value = serde_json::from_str(line).unwrap();
            let printed = printed.as_object_mut().unwrap();
            printed.remove("schema_version");
            let explanation = printed.remove("explanations").unwrap()[0].clone();
            printed.insert("explanation".into(), explanation);
            assert_eq!(&Value::Object(printed.clone()), served);
        }
        assert_eq!(server.stop(), 0);
    }
}

/// The parts of a model that learning changes, encoded, so that equal means byte-identical.
fn learned_parts(path: &Path) -> (Vec<u8>, Vec<String>, Vec<u64>) {
    let model = TextClassifier::load(path).unwrap().into_model();
    let encoded = serde_json::to_vec(&(&model.vectorizer, &model.classifier)).unwrap();
    (encoded, model.labels, model.info.docs_per_class)
}

#[test]
fn learn_equals_update_and_sigterm_writes_the_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let served = model(dir.path(), "mnb");
    let updated = dir.path().join("updated.model");
    std::fs::copy(&served, &updated).unwrap();
    let docs = [
        ("space", "the lander touched down on mars"),
        ("chess", "the knight forks the queen and the rook"),
        ("cooking", "simmer the soup with garlic"),
    ];
    let tsv: String = docs.iter().map(|(l, t)| format!("{l}\t{t}\n")).collect();
    let corpus = dir.path().join("more.tsv");
    std::fs::write(&corpus, tsv).unwrap();
    let (code, _, stderr) = outcome(&bowline(
        &["update", arg(&updated), arg(&corpus), "-q"],
        b"",
    ));
    assert_eq!(code, 0, "{stderr}");

    let before = learned_parts(&served);
    let server = Server::start(&[arg(&served), "--checkpoint-every", "1000000"]);
    let documents: Vec<Value> = docs
        .iter()
        .map(|(label, text)| json!({"label": label, "text": text}))
        .collect();
    let (status, answer) = server.post("/v1/models/mnb/learn", &json!({ "documents": documents }));
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        (answer["version"].as_u64(), answer["learned"].as_u64()),
        (Some(2), Some(3))
    );
    // Not checkpointed yet: the file is as it was until the server stops.
    assert_eq!(learned_parts(&served), before);
    assert_eq!(server.stop(), 0);
    assert_eq!(learned_parts(&served), learned_parts(&updated));
}

#[test]
fn a_bad_file_on_reload_keeps_the_old_model_serving_and_sighup_reloads() {
    let dir = tempfile::tempdir().unwrap();
    let path = model(dir.path(), "mnb");
    let server = Server::start(&[arg(&path), "--watch-secs", "0"]);
    std::fs::write(&path, b"not a model").unwrap();
    server.reload_fails_with("mnb", "not a bowline model file");
    let (status, answer) = server.post("/v1/models/mnb/classify", &json!({ "texts": [TEXTS[0]] }));
    assert_eq!(
        (status, answer["version"].as_u64()),
        (200, Some(1)),
        "{answer}"
    );
    assert_eq!(answer["predictions"][0]["label"], "space");
    let (_, models) = server.get("/v1/models");
    assert!(models.contains("not a bowline model file"), "{models}");
    // A good file and SIGHUP: the new model serves.
    std::fs::copy(model(dir.path(), "bnb"), &path).unwrap();
    let hangup = Command::new("kill")
        .args(["-HUP", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(hangup.success());
    let reloaded = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        server.get("/v1/models").1.contains("\"kind\":\"bnb\"")
    });
    assert!(reloaded, "{}", server.get("/v1/models").1);
}

#[test]
fn bad_requests_get_a_4xx_and_the_server_keeps_serving() {
    let dir = tempfile::tempdir().unwrap();
    let path = model(dir.path(), "mnb");
    let server = Server::start(&[arg(&path), "--max-body-bytes", "2000", "--max-batch", "3"]);
    let classify = "/v1/models/mnb/classify";
    let cases: [(&[u8], u16); 5] = [
        (b"{\"texts\": [", 400),
        (b"[1, 2]", 422),
        (&[b'x'; 5000], 413),
        (b"{\"texts\": [\"a\", \"b\", \"c\", \"d\"]}", 413),
        (b"{\"texts\": [\"a\"], \"documents\": []}", 422),
    ];
    for (body, expected) in cases {
        let (status, answer) = server.post_raw(classify, body);
        assert_eq!(status, expected, "{answer}");
        assert!(answer["error"].is_string(), "{answer}");
    }
    let (status, answer) = server.post("/v1/models/nope/classify", &json!({ "texts": ["a"] }));
    assert_eq!(status, 404, "{answer}");
    let (status, answer) = server.post(classify, &json!({ "texts": [TEXTS[1]] }));
    assert_eq!(
        (status, answer["predictions"][0]["label"].as_str()),
        (200, Some("cooking"))
    );
    let (status, metrics) = server.get("/metrics");
    assert_eq!(status, 200);
    assert!(metrics.contains("bowline_errors_total 6"), "{metrics}");
    assert!(metrics.contains("bowline_documents_total{model=\"mnb\",endpoint=\"classify\"} 1"));
    assert_eq!(server.get("/healthz"), (200, "ok\n".to_string()));
    assert_eq!(server.get("/readyz"), (200, "ready\n".to_string()));
}

#[test]
fn readers_see_whole_models_while_one_learns_and_a_reload_happens() {
    let dir = tempfile::tempdir().unwrap();
    let path = model(dir.path(), "mnb");
    let start = learned_parts(&path).2.iter().sum::<u64>();
    let server = Server::start(&[arg(&path), "--checkpoint-every", "1", "--watch-secs", "0"]);
    let (batches, per_batch) = (20, 5);
    // Every reader has its first answer before learning starts, and goes on until learning is
    // done (at most 500 requests each), so the readers overlap the learning.
    let (ready, done) = (
        std::sync::Barrier::new(65),
        std::sync::atomic::AtomicBool::new(false),
    );
    let answers: Vec<Vec<(u64, Value)>> = std::thread::scope(|scope| {
        let readers: Vec<_> = (0..64)
            .map(|client| {
                let (server, ready, done) = (&server, &ready, &done);
                scope.spawn(move || {
                    let mut answers = Vec::new();
                    for i in 0..500 {
                        let text = TEXTS[(client + i) % TEXTS.len()];
                        let body = json!({ "texts": [text], "top_k": 4 });
                        let (status, answer) = server.post("/v1/models/mnb/classify", &body);
                        assert_eq!(status, 200, "{answer}");
                        let version = answer["version"].as_u64().unwrap();
                        answers.push((version, json!([text, answer["predictions"][0]])));
                        if i == 0 {
                            ready.wait();
                        } else if done.load(std::sync::atomic::Ordering::SeqCst) {
                            break;
                        }
                    }
                    answers
                })
            })
            .collect();
        ready.wait();
        for batch in 0..batches {
            let documents: Vec<Value> = (0..per_batch)
                .map(|i| json!({"label": "space", "text": format!("probe {batch} {i} orbit")}))
                .collect();
            let (status, answer) =
                server.post("/v1/models/mnb/learn", &json!({ "documents": documents }));
            assert_eq!(status, 200, "{answer}");
            if batch == batches / 2 {
                let (status, answer) = server.post("/v1/models/mnb/reload", &json!({}));
                assert_eq!(status, 200, "{answer}");
            }
        }
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        readers.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let versions: std::collections::BTreeSet<u64> = answers
        .iter()
        .flatten()
        .map(|(version, _)| *version)
        .collect();
    assert!(
        versions.len() > 1 && versions.first() == Some(&1),
        "the readers saw versions {versions:?}: they did not overlap the learning"
    );
    // A torn model would answer one text two ways under one version number.
    let mut seen = std::collections::HashMap::new();
    for (version, answer) in answers.into_iter().flatten() {
        let key = (version, answer[0].to_string());
        let first = seen.entry(key).or_insert_with(|| answer[1].clone());
        assert_eq!(*first, answer[1]);
    }
    assert_eq!(server.stop(), 0);
    let end = learned_parts(&path).2.iter().sum::<u64>();
    assert_eq!(end, start + batches * per_batch as u64);
}

#[test]
fn a_changed_file_is_reloaded_and_a_slow_client_is_cut_off() {
    let dir = tempfile::tempdir().unwrap();
    let (path, other) = (model(dir.path(), "mnb"), model(dir.path(), "bnb"));
    let server = Server::start(&[arg(&path), "--watch-secs", "0.1", "--timeout", "1"]);
    std::fs::copy(&other, dir.path().join("next")).unwrap();
    std::fs::rename(dir.path().join("next"), &path).unwrap();
    let reloaded = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        server.get("/v1/models").1.contains("\"kind\":\"bnb\"")
    });
    assert!(reloaded, "{}", server.get("/v1/models").1);
    // A client that announces a body and sends half of it is answered 408 after the timeout.
    use std::io::{Read, Write};
    let address = server.base.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let head = format!(
        "POST /v1/models/mnb/classify HTTP/1.1\r\nHost: {address}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"texts\": ["
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert_eq!(server.get("/healthz").0, 200);
    // A client that never finishes its headers is disconnected after the timeout, long before
    // its own read timeout of 20 seconds would end the wait.
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let head = format!("POST /v1/models/mnb/classify HTTP/1.1\r\nHost: {address}\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut rest = Vec::new();
    let closed = stream.read_to_end(&mut rest);
    assert!(closed.is_ok(), "the connection stayed open: {closed:?}");
    assert_eq!(server.get("/healthz").0, 200);
}

/// The served model maps its file under a lease: a program that opens the file to rewrite it
/// in place waits until the server has copied the model into memory, so that requests made
/// while the file is empty (which would raise SIGBUS in a mapping) get the old model's answers.
#[test]
fn a_file_rewritten_in_place_is_copied_out_before_it_changes() {
    let dir = tempfile::tempdir().unwrap();
    let (path, other) = (model(dir.path(), "mnb"), model(dir.path(), "bnb"));
    let server = Server::start(&[arg(&path), "--watch-secs", "0.1"]);
    let storage = |server: &Server| {
        let models: Value = serde_json::from_str(&server.get("/v1/models").1).unwrap();
        let model = &models["models"][0];
        (model["kind"].clone(), model["storage"].clone())
    };
    assert_eq!(storage(&server), (json!("mnb"), json!("mapped")));
    // A learned document is in the copy too: it is the served model that is copied.
    let learned = json!({ "documents": [{ "label": "space", "text": "a comet passed" }] });
    assert_eq!(server.post("/v1/models/mnb/learn", &learned).0, 200);
    let classify =
        |server: &Server| server.post("/v1/models/mnb/classify", &json!({ "texts": TEXTS }));
    let before = classify(&server);
    assert_eq!(
        (before.0, before.1["version"].as_u64()),
        (200, Some(2)),
        "{}",
        before.1
    );
    // Opening for writing truncates the file to nothing, once the server has let go of it.
    let mut file = std::fs::File::create(&path).unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
    assert_eq!(classify(&server), before);
    assert_eq!(storage(&server), (json!("mnb"), json!("memory")));
    assert!(server
        .get("/v1/models")
        .1
        .contains("\"unsaved_documents\":1"));
    // A file open for writing may be half written: it is not read until it is closed.
    server.reload_fails_with("mnb", "open for writing");
    std::io::Write::write_all(&mut file, &std::fs::read(&other).unwrap()).unwrap();
    drop(file);
    let reloaded = (0..100).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        storage(&server) == (json!("bnb"), json!("mapped"))
    });
    assert!(reloaded, "{}", server.get("/v1/models").1);
    assert_eq!(server.stop(), 0);
}

#[test]
fn a_multi_label_model_answers_every_label_above_its_threshold() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tags.model");
    let mut pairs: Vec<(Vec<&str>, String)> = Vec::new();
    for i in 0..12 {
        pairs.push((vec!["space"], format!("rocket orbit launch {i}")));
        pairs.push((vec!["food"], format!("bread soup oven {i}")));
        pairs.push((
            vec!["space", "food"],
            format!("astronaut food rocket soup {i}"),
        ));
    }
    let model = TextClassifier::builder(bowline::Kind::Svm)
        .fit_multi(pairs)
        .unwrap();
    model.save(&path).unwrap();
    let expected: Vec<String> = model
        .predict_labels("rocket soup")
        .unwrap()
        .into_iter()
        .map(|l| l.label)
        .collect();
    let server = Server::start(&[arg(&path)]);
    let (status, answer) = server.post(
        "/v1/models/tags/classify",
        &json!({ "texts": ["rocket soup"] }),
    );
    assert_eq!(status, 200, "{answer}");
    let served: Vec<&str> = answer["predictions"][0]["labels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["label"].as_str().unwrap())
        .collect();
    assert_eq!(served, expected);
    assert!(!served.is_empty());
}

#[test]
fn a_hashed_model_classifies_as_bowline_classify_and_learns() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hashed.model");
    let train = [
        "train",
        "corpora",
        "-o",
        arg(&path),
        "--hash-bits",
        "12",
        "-q",
    ];
    assert_eq!(outcome(&bowline(&train, b"")).0, 0);
    let stdin = TEXTS.join("\n") + "\n";
    let (code, stdout, stderr) = outcome(&bowline(&["classify", arg(&path)], stdin.as_bytes()));
    assert_eq!(code, 0, "{stderr}");
    let expected: Vec<&str> = stdout
        .lines()
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    let server = Server::start(&[arg(&path)]);
    let (status, answer) = server.post("/v1/models/hashed/classify", &json!({ "texts": TEXTS }));
    assert_eq!(status, 200, "{answer}");
    let served: Vec<&str> = (answer["predictions"].as_array().unwrap().iter())
        .map(|p| p["label"].as_str().unwrap())
        .collect();
    assert_eq!(served, expected);
    // An explanation names each hashed column by the document's terms that fall in it.
    let explained = json!({ "texts": [TEXTS[0]], "explain": 3 });
    let (status, answer) = server.post("/v1/models/hashed/classify", &explained);
    assert_eq!(status, 200, "{answer}");
    let expected = TextClassifier::load(&path)
        .unwrap()
        .explain(TEXTS[0], 3)
        .unwrap();
    let served = &answer["predictions"][0]["explanation"];
    assert_eq!(*served, serde_json::to_value(&expected).unwrap());
    assert!(
        served["terms"][0]["term"].as_str().unwrap().contains('='),
        "{served}"
    );
    let learned = json!({ "documents": [{ "label": "space", "text": "a comet passed" }] });
    let (status, answer) = server.post("/v1/models/hashed/learn", &learned);
    assert_eq!(
        (status, answer["version"].as_u64()),
        (200, Some(2)),
        "{answer}"
    );
    assert_eq!(server.stop(), 0);
}
