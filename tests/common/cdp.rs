//! Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`):
//! Chromium reads commands on file descriptor 3 and writes answers and events on 4, each a JSON
//! message ended by a NUL byte. No websocket, no port: a test types keys into a real page,
//! reads its state, lists its network requests and takes screenshots.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::FromRawFd;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};

/// A Chromium attached to one page.
pub struct Browser {
    child: Child,
    commands: File,
    answers: BufReader<File>,
    next: u64,
    session: String,
    /// Every event seen so far, in order.
    pub events: Vec<Value>,
}

/// A pipe's (read, write) ends, both closed on exec.
fn pipe() -> (i32, i32) {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the array it is given.
    let made = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(made, 0, "pipe2");
    (fds[0], fds[1])
}

impl Browser {
    /// Starts `chromium` headless with its profile in `profile`, with every network request
    /// but loopback's pointed at nothing, and attaches to its blank page.
    pub fn open(chromium: &Path, profile: &Path) -> Browser {
        let (command_read, command_write) = pipe();
        let (answer_read, answer_write) = pipe();
        let mut command = Command::new(chromium);
        command
            .args(super::browser::QUIET)
            .args(["--remote-debugging-pipe", "--window-size=900,700"])
            .args(["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: between fork and exec the closure only calls async-signal-safe functions
        // (fcntl, dup2) on descriptors this process owns.
        unsafe {
            command.pre_exec(move || {
                // Moved above 10 first, so that placing them at 3 and 4 cannot overwrite one.
                let commands = libc::fcntl(command_read, libc::F_DUPFD, 10);
                let answers = libc::fcntl(answer_write, libc::F_DUPFD, 10);
                if commands < 0 || answers < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                if libc::dup2(commands, 3) < 0 || libc::dup2(answers, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("chromium starts");
        // SAFETY: each descriptor came from pipe2 above and is owned by exactly one File.
        let (commands, answers) = unsafe {
            libc::close(command_read);
            libc::close(answer_write);
            (
                File::from_raw_fd(command_write),
                File::from_raw_fd(answer_read),
            )
        };
        let mut browser = Browser {
            child,
            commands,
            answers: BufReader::new(answers),
            next: 0,
            session: String::new(),
            events: Vec::new(),
        };
        browser.attach();
        browser
    }

    fn attach(&mut self) {
        let page = (0..100)
            .find_map(|_| {
                let targets = self.send(None, "Target.getTargets", json!({}));
                let infos = targets["targetInfos"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                let page = infos.into_iter().find(|t| t["type"] == "page");
                if page.is_none() {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                page
            })
            .expect("a page");
        let params = json!({"targetId": page["targetId"], "flatten": true});
        let attached = self.send(None, "Target.attachToTarget", params);
        self.session = attached["sessionId"].as_str().unwrap().to_string();
        for domain in ["Page.enable", "Network.enable", "Runtime.enable"] {
            self.call(domain, json!({}));
        }
    }

    /// Calls `method` on the page, and returns its result.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let session = self.session.clone();
        self.send(Some(&session), method, params)
    }

    fn send(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next += 1;
        let mut message = json!({"id": self.next, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.commands
            .write_all(format!("{message}\0").as_bytes())
            .expect("chromium reads commands");
        loop {
            let mut bytes = Vec::new();
            let read = self.answers.read_until(0, &mut bytes).expect("an answer");
            assert!(read > 0, "chromium closed its pipe");
            bytes.pop();
            let answer: Value = serde_json::from_slice(&bytes).expect("JSON");
            if answer["id"] == self.next {
                assert!(answer["error"].is_null(), "{method}: {answer}");
                return answer["result"].clone();
            }
            self.events.push(answer);
        }
    }

    /// The value of a JavaScript expression in the page, promises awaited.
    pub fn eval(&mut self, expression: &str) -> Value {
        let params = json!({"expression": expression, "returnByValue": true, "awaitPromise": true});
        let result = self.call("Runtime.evaluate", params);
        assert!(
            result["exceptionDetails"].is_null(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// Goes to `url`, and waits until `ready` (an expression) is true.
    pub fn navigate(&mut self, url: &str, ready: &str) {
        self.call("Page.navigate", json!({"url": url}));
        self.wait_for(ready);
    }

    /// Waits, a bounded number of times, until the expression `ready` is true.
    pub fn wait_for(&mut self, ready: &str) {
        for _ in 0..400 {
            if self.eval(ready) == json!(true) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(25));
        }
        panic!("never true: {ready}");
    }

    /// Presses and releases the key `key` (`"1"`, `"u"`, `"Enter"`, ...).
    pub fn key(&mut self, key: &str) {
        let text = match key {
            "Enter" => "\r",
            other => other,
        };
        let down = json!({"type": "keyDown", "key": key, "text": text});
        self.call("Input.dispatchKeyEvent", down);
        self.call(
            "Input.dispatchKeyEvent",
            json!({"type": "keyUp", "key": key}),
        );
    }

    /// Types `text` into the focused field.
    pub fn type_text(&mut self, text: &str) {
        self.call("Input.insertText", json!({"text": text}));
    }

    /// The page as a PNG, `width` by `height` CSS pixels.
    pub fn screenshot(&mut self, width: u32, height: u32) -> Vec<u8> {
        let metrics =
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false});
        self.call("Emulation.setDeviceMetricsOverride", metrics);
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        base64(shot["data"].as_str().expect("PNG data"))
    }

    /// The URL of every request the page made.
    pub fn requests(&self) -> Vec<String> {
        (self.events.iter())
            .filter(|e| e["method"] == "Network.requestWillBeSent")
            .map(|e| {
                e["params"]["request"]["url"]
                    .as_str()
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Decodes standard base64.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let bits =
            chunk.iter().fold(0u32, |acc, &d| (acc << 6) | d as u32) << (6 * (4 - chunk.len()));
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}
