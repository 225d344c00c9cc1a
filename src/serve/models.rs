//! The served models: each is read by many requests at once and changed by one writer.
//!
//! Readers take the current [`Version`] (an `Arc`) and keep it for the whole request, so a
//! response always comes from one whole model, the old or the new. The writer owns a private
//! copy that it updates, then publishes a clone as the next version: a batch of learn requests
//! learned together costs one copy of the model, and no reader ever waits for learning.
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

use super::journal::{Documents, Journal, Syncs};
use super::lease;
use super::queue::{self, Learned, Queue, Waiting};
use crate::error::{Error, Result};
/// When the writer saves the model file: the rule `learn` follows too.
pub use crate::jobs::learn::Checkpoints;
use crate::model::wal;
use crate::model::{Model, ModelLock};
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
    /// The write-ahead log, and the documents it holds that the model file does not.
    journal: Journal,
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
    /// The learn requests waiting for the writer.
    queue: Queue,
    /// The syncs of the write-ahead log, shared by the learn requests waiting for them.
    syncs: Syncs,
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

/// Why a reload left the old model serving.
#[derive(Debug)]
pub enum NotReloaded {
    /// The file could not be read.
    Failed(Error),
    /// The file was read, but cannot learn the documents learned since the last checkpoint,
    /// which a reload must keep.
    Refused(String),
    /// Another program has the file open for writing: it is read once it is closed.
    BeingWritten(PathBuf),
}

impl std::fmt::Display for NotReloaded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotReloaded::Failed(error) => error.fmt(f),
            NotReloaded::Refused(message) => f.write_str(message),
            NotReloaded::BeingWritten(path) => Error::input(path, BEING_WRITTEN).fmt(f),
        }
    }
}

impl Served {
    /// Loads the model at `path` to serve it as `name`; `leases` says whether it may map the
    /// file under a lease, which needs [`Served::release_if_breaking`] called on every SIGIO.
    ///
    /// When a write-ahead log lies beside the file, the documents it holds that the file lacks
    /// are learned again and written to the file (under the model's lock), and the log starts
    /// afresh: a document acknowledged before a crash is in the model once.
    pub fn load(name: String, path: PathBuf, leases: bool) -> Result<Self> {
        let lock = wal::path_of(&path)
            .exists()
            .then(|| ModelLock::acquire(&path))
            .transpose()?;
        let stamp = stamp(&path);
        let fingerprint = Model::fingerprint(&path)?.into_bytes();
        let Opened::Model(classifier, lease) = open_model(&path, leases)? else {
            return Err(Error::input(&path, BEING_WRITTEN));
        };
        let (journal, missing) = Journal::recover(&path, fingerprint)?;
        let mut writer = Writer {
            model: *classifier,
            unsaved: 0,
            last_checkpoint: Instant::now(),
            stamp,
            lease,
            journal,
        };
        let syncs = Syncs::default();
        if let Some(lock) = &lock {
            writer.recover(lock, missing, &syncs)?;
        }
        drop(lock);
        Ok(Served {
            name,
            path,
            current: RwLock::new(Arc::new(Version {
                classifier: writer.model.clone(),
                number: 1,
            })),
            writer: tokio::sync::Mutex::new(writer),
            queue: Queue::default(),
            syncs,
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

    /// Learns labelled documents through the single writer, logs them and publishes the
    /// result, together with every other request waiting for the writer then (see
    /// [`super::queue`]); writes a checkpoint when `every` documents or `interval` have passed
    /// since the last one, and says whether it did. Returns the version that holds the
    /// documents, their count and whether they were checkpointed, once they are durable: in the
    /// synced log, or in the model file. A checkpoint that fails is logged and tried again at
    /// the next learn and at shutdown: the documents stay in the log meanwhile.
    pub async fn learn(
        &self,
        pairs: Documents,
        checkpoint: &Checkpoints,
    ) -> Result<(u64, usize, bool)> {
        let count = pairs.len();
        let answered = self.queue.push(pairs);
        {
            // The request may have been learned by the writer before this one took it: the
            // requests queued since then are learned now, so that none waits for a later one.
            let mut writer = self.writer.lock().await;
            let batch = self.queue.take();
            if !batch.is_empty() {
                self.learn_batch(&mut writer, batch, checkpoint);
            }
        }
        let learned = queue::answer(answered).await?;
        let log = wal::path_of(&self.path);
        self.syncs.wait(learned.seq, &log).await?;
        Ok((learned.version, count, learned.checkpointed))
    }

    /// Learns a batch of waiting requests as one update and answers each of them.
    fn learn_batch(&self, writer: &mut Writer, batch: Vec<Waiting>, checkpoint: &Checkpoints) {
        let (requests, waiting): (Vec<Documents>, Vec<Waiting>) = batch
            .into_iter()
            .map(|mut w| (std::mem::take(&mut w.documents), w))
            .unzip();
        let seqs = tokio::task::block_in_place(|| {
            writer.learn_together(requests, &self.current().classifier, &self.syncs)
        });
        let learned: u64 = seqs
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .map(|&(_, n)| n)
            .sum();
        let (mut number, mut saved) = (self.current().number, false);
        if learned > 0 {
            writer.unsaved += learned;
            self.learned.fetch_add(learned, Ordering::Relaxed);
            number = self.publish(writer.model.clone());
            saved = checkpoint.due(writer.unsaved, writer.last_checkpoint.elapsed()) && {
                let saved = self.save(writer);
                if let Err(error) = &saved {
                    tracing::error!(model = %self.name, %error, "checkpoint failed; will retry");
                }
                saved.is_ok()
            };
        }
        for (waiting, seq) in waiting.into_iter().zip(seqs) {
            waiting.answer(seq.map(|(seq, _)| Learned {
                version: number,
                seq,
                checkpointed: saved,
            }));
        }
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
        tokio::task::block_in_place(|| {
            let lock = ModelLock::acquire(&self.path)?;
            writer.adopt_foreign_file(&self.path, self.leases)?;
            let saved = writer.save(&lock, &self.syncs);
            drop(lock);
            saved
        })?;
        tracing::info!(model = %self.name, path = %self.path.display(), "checkpoint written");
        Ok(())
    }

    /// Reads the model file again, learns on top of it the documents learned since the last
    /// checkpoint, and serves the result. A file that cannot be read, or cannot learn those
    /// documents, leaves the old model serving; the error is logged, kept for the status, and
    /// returned.
    pub async fn reload(&self) -> std::result::Result<u64, NotReloaded> {
        let mut writer = self.writer.lock().await;
        writer.stamp = stamp(&self.path);
        let reloaded = tokio::task::block_in_place(|| {
            let _lock = ModelLock::acquire(&self.path).map_err(NotReloaded::Failed)?;
            writer.reload(&self.path, self.leases)
        });
        match reloaded {
            Ok(()) => {
                let number = self.publish(writer.model.clone());
                *self
                    .last_error
                    .write()
                    .unwrap_or_else(PoisonError::into_inner) = None;
                tracing::info!(model = %self.name, version = number, "model reloaded");
                Ok(number)
            }
            // Not an error of the file: the watcher tries again at its next look, however the
            // file's time and size end up.
            Err(NotReloaded::BeingWritten(path)) => {
                writer.stamp = None;
                tracing::info!(model = %self.name, "the file is being written; reloading once it is closed");
                Err(NotReloaded::Failed(Error::input(path, BEING_WRITTEN)))
            }
            Err(error) => {
                let message = error.to_string();
                tracing::error!(model = %self.name, error = %message, "reload failed; the old model keeps serving");
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

/// Learns `documents` into `model`, as `bowline update` would.
fn learn_pairs(model: &mut TextClassifier, documents: &Documents) -> Result<()> {
    model.update(documents.iter().map(|(l, t)| (l.as_str(), t.as_str())))?;
    Ok(())
}

impl Writer {
    /// Learns the documents of several requests into the writer's model as one update, logged
    /// as one record, and gives each request its record's sequence number and its document
    /// count. When that fails, the model is put back to `published` (what it was before) and
    /// each request is learned alone, so that a request that cannot be learned fails alone.
    fn learn_together(
        &mut self,
        requests: Vec<Documents>,
        published: &TextClassifier,
        syncs: &Syncs,
    ) -> Vec<Result<(u64, u64)>> {
        let counts: Vec<u64> = requests.iter().map(|r| r.len() as u64).collect();
        let all: Documents = requests.iter().flatten().cloned().collect();
        let together =
            learn_pairs(&mut self.model, &all).and_then(|()| self.journal.append(all, syncs));
        match together {
            Ok(seq) => counts.into_iter().map(|n| Ok((seq, n))).collect(),
            Err(error) => {
                tracing::debug!(%error, "a batch failed; learning its requests one by one");
                self.model = published.clone();
                requests
                    .into_iter()
                    .map(|r| self.learn_alone(r, syncs))
                    .collect()
            }
        }
    }

    /// Learns one request's documents and logs them; on error the model is as it was.
    fn learn_alone(&mut self, documents: Documents, syncs: &Syncs) -> Result<(u64, u64)> {
        let count = documents.len() as u64;
        let mut model = self.model.clone();
        learn_pairs(&mut model, &documents)?;
        let seq = self.journal.append(documents, syncs)?;
        self.model = model;
        Ok((seq, count))
    }

    /// At start-up, under the model's lock: learns again the documents of the old log that the
    /// file lacks and writes them to the file, or else starts the log afresh. Documents that
    /// cannot be learned stop the start: they were acknowledged, and must not be dropped.
    fn recover(
        &mut self,
        lock: &ModelLock,
        missing: Vec<(u64, Documents)>,
        syncs: &Syncs,
    ) -> Result<()> {
        let path = lock.path().to_path_buf();
        for (seq, documents) in missing {
            learn_pairs(&mut self.model, &documents).map_err(|e| {
                let log = wal::path_of(&path);
                Error::input(log, format!("cannot learn record {seq} again: {e}"))
            })?;
            self.unsaved += documents.len() as u64;
            self.journal.replayed(seq, documents);
        }
        if self.unsaved > 0 {
            return self.save(lock, syncs);
        }
        let base = self.journal.base().to_vec();
        self.journal.checkpoint_ends(base, syncs)
    }

    /// Writes the model file and starts the log afresh, under the model's lock, once any file
    /// another program wrote was adopted.
    fn save(&mut self, lock: &ModelLock, syncs: &Syncs) -> Result<()> {
        let mut fingerprint = Vec::new();
        self.model.model().save_announced(lock, |named| {
            fingerprint = named.to_vec();
            self.journal.checkpoint_begins(named)
        })?;
        let path = lock.path();
        // The log forgets the documents only once the rename that keeps them is durable.
        crate::io::sync_folder(path)?;
        self.journal.checkpoint_ends(fingerprint, syncs)?;
        self.unsaved = 0;
        self.last_checkpoint = Instant::now();
        self.stamp = stamp(path);
        Ok(())
    }

    /// Before a checkpoint: when another program (`bowline update`) rewrote the file since the
    /// server read or wrote it, reloads it with the pending documents on top, so that the
    /// checkpoint keeps both. A file that cannot be read is overwritten, as before the log.
    fn adopt_foreign_file(&mut self, path: &Path, leases: bool) -> Result<()> {
        let fingerprint = Model::fingerprint(path).map(String::into_bytes);
        if fingerprint
            .as_deref()
            .is_ok_and(|f| f == self.journal.base())
        {
            return Ok(());
        }
        match self.reload(path, leases) {
            Ok(()) => Ok(()),
            Err(NotReloaded::Refused(message)) => Err(Error::input(path, message)),
            Err(NotReloaded::BeingWritten(path)) => Err(Error::input(path, BEING_WRITTEN)),
            Err(NotReloaded::Failed(error)) => {
                tracing::warn!(path = %path.display(), %error, "the model file cannot be read; the checkpoint replaces it");
                Ok(())
            }
        }
    }

    /// Reads the model file, learns the pending documents on top of it and makes the result the
    /// writer's model; the caller holds the model's lock. On error the writer is unchanged.
    fn reload(&mut self, path: &Path, leases: bool) -> std::result::Result<(), NotReloaded> {
        let fingerprint = Model::fingerprint(path).map_err(NotReloaded::Failed)?;
        let (mut classifier, lease) = match open_model(path, leases) {
            Ok(Opened::Model(classifier, lease)) => (*classifier, lease),
            Ok(Opened::BeingWritten) => return Err(NotReloaded::BeingWritten(path.to_path_buf())),
            Err(error) => return Err(NotReloaded::Failed(error)),
        };
        for (_, documents) in self.journal.pending() {
            learn_pairs(&mut classifier, documents).map_err(|error| {
                NotReloaded::Refused(format!(
                    "{}: the new file cannot learn the documents learned since the last \
                     checkpoint ({}), which a reload must keep: {error}; the old model keeps \
                     serving",
                    path.display(),
                    self.unsaved
                ))
            })?;
        }
        self.model = classifier;
        self.lease = lease;
        self.journal.rebase(fingerprint.into_bytes());
        Ok(())
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

#[cfg(test)]
mod tests;
