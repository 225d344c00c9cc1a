//! The harness of the `bowline serve` tests: the real program listening on a loopback port,
//! and a real HTTP client.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

use super::{terminate, train_quietly};

/// A client that reads every status as an answer, and gives up after 30 s.
pub fn agent() -> ureq::Agent {
    let config = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .build();
    config.into()
}

/// A running server, stopped when dropped.
pub struct Server {
    /// The server's process.
    pub child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The client of [`Server::post`] and [`Server::get`], which keeps its connections.
    pub agent: ureq::Agent,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
        let args = [&["serve"], args, &["--addr", "127.0.0.1:0", "-q"]].concat();
        Server::launch(&args)
    }

    /// Runs `bowline` with `args`, which make it listen on a loopback port, and waits for the
    /// line that gives the address.
    pub fn launch(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bowline"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("bowline starts");
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut line = String::new();
        stderr.read_line(&mut line).expect("the address line");
        let base = line
            .trim()
            .strip_prefix("bowline: listening on ")
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        assert!(base.starts_with("http://127.0.0.1:"), "{base}");
        // The rest of stderr is drained so that the server never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        Server {
            child,
            base,
            agent: agent(),
        }
    }

    /// POSTs `body` (raw bytes) on a connection of its own, since a server closes a connection
    /// whose request body it refused unread, and returns the status and the JSON answer.
    pub fn post_raw(&self, path: &str, body: &[u8]) -> (u16, Value) {
        self.post_with(&agent(), path, body)
    }

    pub fn post_with(&self, agent: &ureq::Agent, path: &str, body: &[u8]) -> (u16, Value) {
        let mut response = agent
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .send(body)
            .expect("the server answers");
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().expect("a body");
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_with(&self.agent, path, body.to_string().as_bytes())
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        let mut response = self
            .agent
            .get(format!("{}{path}", self.base))
            .call()
            .expect("the server answers");
        let status = response.status().as_u16();
        (
            status,
            response.body_mut().read_to_string().expect("a body"),
        )
    }

    /// Asks model `name` to reload and checks that it fails with a message containing `why`.
    pub fn reload_fails_with(&self, name: &str, why: &str) {
        let (status, answer) = self.post(&format!("/v1/models/{name}/reload"), &json!({}));
        assert_eq!(status, 500, "{answer}");
        let message = answer["error"].as_str().unwrap_or_default();
        assert!(message.contains(why), "{answer}");
    }

    /// SIGTERM, then the exit code.
    pub fn stop(mut self) -> i32 {
        terminate(&self.child);
        let status = self.child.wait().expect("the server exits");
        status.code().unwrap_or(-1)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A model of `kind` trained on the `corpora` folder, in `dir`.
pub fn model(dir: &Path, kind: &str) -> std::path::PathBuf {
    let path = dir.join(format!("{kind}.model"));
    train_quietly("corpora", &path, kind);
    path
}
