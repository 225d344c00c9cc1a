//! The served models: each is read by many requests at once and changed by one writer.
//!
//! Readers take the current [`Version`] (an `Arc`) and keep it for the whole request, so a
//! response always comes from one whole model, the old or the new. The writer owns a private
//! copy that it updates, then publishes a clone as the next version: a learn costs one copy of
//! the model, and no reader ever waits for learning.
//!
//! A model file is mapped, not read, when the kernel grants a read lease on it (see
//! [`super::lease`]): loading then costs a few milliseconds whatever the model's size. When
//! another program comes to write the file in place, the model is copied into memory before
//! the program may go on.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Instant, SystemTime};

use serde::Serialize;

use super::lease;
use crate::error::{Error, Result};
/// When the writer saves the model file: the rule `learn` follows too.
pub use crate::jobs::learn::Checkpoints;
use crate::model::Model;
use crate::TextClassifier;

/// One state of a served model, as readers see it.
#[derive(Debug)]
pub struct Version {
    /// The model.
    pub classifier: TextClassifier,
    /// Counts from 1 at start; every learn and reload makes the next one.
    pub number: u64,
}

/// What identifies the file on disk as the one last read or written, so that the watcher
/// reloads only when someone else changed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    modified: Option<SystemTime>,
    len: u64,
}

fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    Some(Stamp {
        modified: meta.modified().ok(),
        len: meta.len(),
    })
}

/// The single writer's state.
#[derive(Debug)]
struct Writer {
    /// The writer's own copy, ahead of the published version only while it learns.
    model: TextClassifier,
    /// Documents learned since the model file was last written.
    unsaved: u64,
    last_checkpoint: Instant,
    /// The file as last read or written.
    stamp: Option<Stamp>,
    /// The leased file that the served model maps, while it does.
    lease: Option<File>,
}

/// A model served under a name.
#[derive(Debug)]
pub struct Served {
    /// The name in the URL.
    pub name: String,
    /// The model file: reloaded from, checkpointed to.
    pub path: PathBuf,
    current: RwLock<Arc<Version>>,
    writer: tokio::sync::Mutex<Writer>,
    /// The last reload's error, until a reload succeeds.
    last_error: RwLock<Option<String>>,
    /// Documents classified, for the metrics.
    pub classified: AtomicU64,
    /// Documents learned, for the metrics.
    pub learned: AtomicU64,
    /// Whether model files may be mapped under a lease: the server listens for SIGIO.
    leases: bool,
}

/// What `GET /v1/models` says of a model.
#[derive(Debug, Serialize)]
pub struct Status {
    name: String,
    path: String,
    kind: &'static str,
    classes: Vec<String>,
    version: u64,
    /// "mapped" (the file, under a lease) or "memory" (a copy).
    storage: &'static str,
    gives_probabilities: bool,
    unsaved_documents: u64,
    last_reload_error: Option<String>,
}

impl Served {
    /// Loads the model at `path` to serve it as `name`; `leases` says whether it may map the
    /// file under a lease, which needs [`Served::release_if_breaking`] called on every SIGIO.
    pub fn load(name: String, path: PathBuf, leases: bool) -> Result<Self> {
        let stamp = stamp(&path);
        let Opened::Model(classifier, lease) = open_model(&path, leases)? else {
            return Err(Error::input(&path, BEING_WRITTEN));
        };
        let classifier = *classifier;
        let writer = Writer {
            model: classifier.clone(),
            unsaved: 0,
            last_checkpoint: Instant::now(),
            stamp,
            lease,
        };
        Ok(Served {
            name,
            path,
            current: RwLock::new(Arc::new(Version {
                classifier,
                number: 1,
            })),
            writer: tokio::sync::Mutex::new(writer),
            last_error: RwLock::new(None),
            classified: AtomicU64::new(0),
            learned: AtomicU64::new(0),
            leases,
        })
    }

    /// The version requests should use now.
    pub fn current(&self) -> Arc<Version> {
        let current = self.current.read().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(&current)
    }

    /// Serves `classifier` as the next version.
    fn publish(&self, classifier: TextClassifier) -> u64 {
        let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
        let number = current.number + 1;
        *current = Arc::new(Version { classifier, number });
        number
    }

    /// Learns labelled documents through the single writer and publishes the result; writes
    /// a checkpoint when `every` documents or `interval` have passed since the last one, and
    /// says whether it did. A checkpoint that fails is logged and tried again at the next
    /// learn and at shutdown: the documents stay learned in memory meanwhile.
    pub async fn learn(
        &self,
        pairs: Vec<(String, String)>,
        checkpoint: &Checkpoints,
    ) -> Result<(u64, usize, bool)> {
        let mut writer = self.writer.lock().await;
        let count = pairs.len();
        tokio::task::block_in_place(|| writer.model.update(pairs))?;
        writer.unsaved += count as u64;
        self.learned.fetch_add(count as u64, Ordering::Relaxed);
        let number = self.publish(writer.model.clone());
        let due = checkpoint.due(writer.unsaved, writer.last_checkpoint.elapsed());
        let saved = due && {
            let saved = self.save(&mut writer);
            if let Err(error) = &saved {
                tracing::error!(model = %self.name, %error, "checkpoint failed; will retry");
            }
            saved.is_ok()
        };
        Ok((number, count, saved))
    }

    /// Writes the model file if documents were learned since it was last written.
    pub async fn checkpoint(&self) -> Result<bool> {
        let mut writer = self.writer.lock().await;
        if writer.unsaved == 0 {
            return Ok(false);
        }
        self.save(&mut writer)?;
        Ok(true)
    }

    fn save(&self, writer: &mut Writer) -> Result<()> {
        tokio::task::block_in_place(|| writer.model.save(&self.path))?;
        writer.unsaved = 0;
        writer.last_checkpoint = Instant::now();
        writer.stamp = stamp(&self.path);
        tracing::info!(model = %self.name, path = %self.path.display(), "checkpoint written");
        Ok(())
    }

    /// Reads the model file again and serves it. A file that cannot be read leaves the old
    /// model serving; the error is logged, kept for the status, and returned. Documents learned
    /// since the last checkpoint give way to the file, which someone else wrote.
    pub async fn reload(&self) -> Result<u64> {
        let mut writer = self.writer.lock().await;
        writer.stamp = stamp(&self.path);
        match tokio::task::block_in_place(|| open_model(&self.path, self.leases)) {
            Ok(Opened::Model(classifier, lease)) => {
                let classifier = *classifier;
                if writer.unsaved > 0 {
                    tracing::warn!(model = %self.name, dropped = writer.unsaved,
                        "reloaded over documents learned since the last checkpoint");
                }
                writer.model = classifier.clone();
                writer.unsaved = 0;
                writer.lease = lease;
                let number = self.publish(classifier);
                *self
                    .last_error
                    .write()
                    .unwrap_or_else(PoisonError::into_inner) = None;
                tracing::info!(model = %self.name, version = number, "model reloaded");
                Ok(number)
            }
            // Not an error of the file: the watcher tries again at its next look, however the
            // file's time and size end up.
            Ok(Opened::BeingWritten) => {
                writer.stamp = None;
                tracing::info!(model = %self.name, "the file is being written; reloading once it is closed");
                Err(Error::input(&self.path, BEING_WRITTEN))
            }
            Err(error) => {
                tracing::error!(model = %self.name, %error, "reload failed; the old model keeps serving");
                let message = error.to_string();
                *self
                    .last_error
                    .write()
                    .unwrap_or_else(PoisonError::into_inner) = Some(message);
                Err(error)
            }
        }
    }

    /// Copies the model into memory if it maps a file whose lease is being broken, because
    /// another program waits to write the file, and serves the copy under the same version
    /// number. The mapping, and with it the lease, goes when the last request that uses it
    /// ends; the other program goes on then. Learned documents stay: the copy is of the
    /// writer's model, not of the file.
    pub async fn release_if_breaking(&self) {
        let mut writer = self.writer.lock().await;
        if !writer.lease.as_ref().is_some_and(lease::breaking) {
            return;
        }
        let started = Instant::now();
        let copied = tokio::task::block_in_place(|| in_memory(&writer.model, &self.path));
        match copied {
            Ok(classifier) => {
                writer.model = classifier.clone();
                let mut current = self.current.write().unwrap_or_else(PoisonError::into_inner);
                let number = current.number;
                *current = Arc::new(Version { classifier, number });
                tracing::info!(model = %self.name, millis = started.elapsed().as_millis() as u64,
                    "the model file is about to be written; serving a copy in memory");
            }
            Err(error) => {
                tracing::error!(model = %self.name, %error, "cannot copy the model into memory");
            }
        }
        writer.lease = None;
    }

    /// Reloads when the file changed since this server last read or wrote it.
    pub async fn reload_if_changed(&self) {
        let changed = stamp(&self.path) != self.writer.lock().await.stamp;
        if changed {
            // The error is logged and kept for the status by `reload`.
            let _ = self.reload().await;
        }
    }

    /// The model's status.
    pub async fn status(&self) -> Status {
        let version = self.current();
        let model = version.classifier.model();
        let (mapped, unsaved) = {
            let writer = self.writer.lock().await;
            (writer.lease.is_some(), writer.unsaved)
        };
        Status {
            name: self.name.clone(),
            path: self.path.display().to_string(),
            kind: model.classifier.name(),
            classes: model.labels.clone(),
            version: version.number,
            storage: if mapped { "mapped" } else { "memory" },
            gives_probabilities: model.classifier.gives_probabilities(),
            unsaved_documents: unsaved,
            last_reload_error: self
                .last_error
                .read()
                .unwrap_or_else(PoisonError::into_inner)
                .clone(),
        }
    }
}

/// The name a model is served under: `NAME=PATH` names it, otherwise the file stem.
pub fn named(spec: &str) -> Result<(String, PathBuf)> {
    if let Some((name, path)) = spec.split_once('=') {
        if valid_name(name) {
            return Ok((name.to_string(), PathBuf::from(path)));
        }
    }
    let path = PathBuf::from(spec);
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if !valid_name(stem) {
        return Err(Error::input(
            &path,
            "cannot serve it under its file name; name it with NAME=PATH (letters, digits, - _ .)",
        ));
    }
    Ok((stem.to_string(), path))
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A model file opened to serve.
enum Opened {
    /// The model, with a handle on its leased file when it maps it.
    Model(Box<TextClassifier>, Option<File>),
    /// Another program has the file open for writing: it may be half written, so it is not
    /// read now.
    BeingWritten,
}

const BEING_WRITTEN: &str =
    "another program has the file open for writing; it is read once it is closed";

/// Opens a model to serve: mapped under a lease when `leases` allows and the kernel grants one;
/// otherwise read into memory (see `Model::read`), since a file rewritten in place under a
/// mapping would stop the server.
fn open_model(path: &Path, leases: bool) -> Result<Opened> {
    if leases {
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        match lease::take(&file) {
            Ok(()) => {
                let watch = file.try_clone().map_err(|e| Error::io(path, e))?;
                let classifier = TextClassifier::from_model(Model::load_open(file, path)?)?;
                return Ok(Opened::Model(Box::new(classifier), Some(watch)));
            }
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                return Ok(Opened::BeingWritten);
            }
            Err(error) => {
                tracing::debug!(path = %path.display(), %error, "no lease; reading the model into memory");
            }
        }
    }
    let classifier = TextClassifier::from_model(Model::read(path)?)?;
    Ok(Opened::Model(Box::new(classifier), None))
}

/// A copy of `classifier` that reads no file: its model encoded and decoded again.
fn in_memory(classifier: &TextClassifier, path: &Path) -> Result<TextClassifier> {
    let bytes = classifier.model().to_bytes()?;
    TextClassifier::from_model(Model::from_bytes(&bytes, path)?)
}
