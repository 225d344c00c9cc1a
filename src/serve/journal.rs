//! What a served model's writer keeps of its write-ahead log ([`super::wal`]): the documents
//! learned since the model file was last written, the file they go on top of, and the syncs
//! that make each learn request durable before it is answered.
//!
//! Syncs are shared (group commit): a request whose record is not yet durable either syncs the
//! log itself, for every record written so far, or waits for the sync under way and then looks
//! again. Concurrent requests thus share one `fsync`, and the writer goes on learning while the
//! disk works.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use crate::error::{Error, Result};
use crate::model::wal::{self, Contents, Log, Record};

/// The documents of one learn request, or of the requests learned together, as `(label, text)`
/// pairs.
pub type Documents = Vec<(String, String)>;

/// The writer's side of the log.
#[derive(Debug)]
pub struct Journal {
    /// The log file: `MODEL.wal`.
    path: PathBuf,
    /// The log, once a document was learned (a server that only classifies writes none).
    log: Option<Log>,
    /// The fingerprint of the model file that the served model was read from or last wrote.
    base: Vec<u8>,
    /// The sequence number up to which that file holds the logged documents.
    applied: u64,
    /// The updates since then, in order, with their sequence numbers.
    pending: Vec<(u64, Documents)>,
    next_seq: u64,
}

impl Journal {
    /// The journal of the model at `model`, whose file has `fingerprint`, and the documents of
    /// its log that the file lacks, to learn again in order. No log means none; a log is kept
    /// open to append to, without its torn tail.
    pub fn recover(model: &Path, fingerprint: Vec<u8>) -> Result<(Journal, Vec<(u64, Documents)>)> {
        let path = wal::path_of(model);
        let (contents, log) = match std::fs::read(&path) {
            Ok(bytes) => {
                let contents = wal::read(&bytes, &path)?;
                let log = Log::resume(&path, contents.valid as u64)?;
                (contents, Some(log))
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                (Contents::default(), None)
            }
            Err(error) => return Err(Error::io(&path, error)),
        };
        let applied = contents.applied(&fingerprint);
        let next_seq = contents.last_seq().max(applied) + 1;
        let missing = contents
            .records
            .into_iter()
            .filter_map(|record| match record {
                Record::Documents(seq, documents) if seq > applied => Some((seq, documents)),
                _ => None,
            })
            .collect::<Vec<_>>();
        let journal = Journal {
            path,
            log,
            base: fingerprint,
            applied,
            pending: Vec::new(),
            next_seq,
        };
        Ok((journal, missing))
    }

    /// Appends the documents of one update to the log (started now if there is none),
    /// unsynced; `syncs` learns of it. Returns the record's sequence number, to wait for with
    /// [`Syncs::wait`].
    pub fn append(&mut self, documents: Documents, syncs: &Syncs) -> Result<u64> {
        if self.log.is_none() {
            let start = Record::Checkpoint(self.applied, self.base.clone());
            self.log = Some(Log::start(&self.path, &start)?);
        }
        let log = self
            .log
            .as_mut()
            .ok_or_else(|| unreachable_log(&self.path))?;
        let seq = self.next_seq;
        let record = Record::Documents(seq, documents);
        log.append(&record)?;
        syncs.wrote(log.file(), seq);
        self.next_seq += 1;
        if let Record::Documents(seq, documents) = record {
            self.pending.push((seq, documents));
        }
        Ok(seq)
    }

    /// Counts as learned (in the model, not the log) documents replayed from an old log.
    pub fn replayed(&mut self, seq: u64, documents: Documents) {
        self.pending.push((seq, documents));
    }

    /// The updates since the model file was last written.
    pub fn pending(&self) -> &[(u64, Documents)] {
        &self.pending
    }

    /// The fingerprint of the model file the served model stands on.
    pub fn base(&self) -> &[u8] {
        &self.base
    }

    /// The served model now stands on the file with `fingerprint`, read by a reload and with
    /// every pending document learned on top: that file holds what the log's first checkpoint
    /// holds (see [`Contents::applied`]), so the log needs no change.
    pub fn rebase(&mut self, fingerprint: Vec<u8>) {
        self.base = fingerprint;
    }

    /// First half of a checkpoint, before the file with `fingerprint` is renamed into place:
    /// the log names it, synced, so that after a crash the file is known to hold every pending
    /// document, whether the rename happened or not.
    pub fn checkpoint_begins(&mut self, fingerprint: &[u8]) -> Result<()> {
        let seq = self.next_seq - 1;
        if let Some(log) = self.log.as_mut() {
            log.append(&Record::Checkpoint(seq, fingerprint.to_vec()))?;
            log.file()
                .sync_data()
                .map_err(|e| Error::io(&self.path, e))?;
        }
        Ok(())
    }

    /// Second half, once the file is in place: every waiting request is durable, and the log
    /// starts afresh from the file, which drops the documents the file now holds. The file is
    /// the served model's base even when the fresh start fails: the old log, which ends with the
    /// checkpoint naming the file, stays a true account of it, and takes the next records.
    pub fn checkpoint_ends(&mut self, fingerprint: Vec<u8>, syncs: &Syncs) -> Result<()> {
        let seq = self.next_seq - 1;
        self.base = fingerprint.clone();
        self.applied = seq;
        self.pending.clear();
        syncs.checkpointed(seq);
        if self.log.is_some() {
            let log = Log::start(&self.path, &Record::Checkpoint(seq, fingerprint))?;
            syncs.switched(log.file());
            self.log = Some(log);
        }
        Ok(())
    }
}

fn unreachable_log(path: &Path) -> Error {
    Error::io(path, std::io::Error::other("the log was not started"))
}

/// The group commit of one model's log.
#[derive(Debug)]
pub struct Syncs {
    state: Mutex<SyncState>,
    /// The sequence number up to which every record is durable.
    durable: tokio::sync::watch::Sender<u64>,
}

#[derive(Debug, Default)]
struct SyncState {
    /// The current log file.
    file: Option<Arc<File>>,
    /// The last sequence number written to it.
    written: u64,
    /// Whether a request is syncing it now.
    syncing: bool,
}

impl Default for Syncs {
    fn default() -> Self {
        Syncs {
            state: Mutex::new(SyncState::default()),
            durable: tokio::sync::watch::Sender::new(0),
        }
    }
}

impl Syncs {
    fn state(&self) -> std::sync::MutexGuard<'_, SyncState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Record `seq` was written to `file`.
    fn wrote(&self, file: Arc<File>, seq: u64) {
        let mut state = self.state();
        state.file = Some(file);
        state.written = seq;
    }

    /// A checkpoint put every record up to `seq` in the model file.
    fn checkpointed(&self, seq: u64) {
        self.durable
            .send_modify(|durable| *durable = (*durable).max(seq));
    }

    /// The log was started afresh in `file`.
    fn switched(&self, file: Arc<File>) {
        self.state().file = Some(file);
    }

    /// Returns once record `seq` is durable, syncing the log when no other request is.
    pub async fn wait(&self, seq: u64, path: &Path) -> Result<()> {
        let mut seen = self.durable.subscribe();
        loop {
            if *seen.borrow_and_update() >= seq {
                return Ok(());
            }
            let lead = {
                let mut state = self.state();
                let lead = (!state.syncing).then(|| (state.file.clone(), state.written));
                state.syncing |= lead.is_some();
                lead
            };
            let Some((file, upto)) = lead else {
                // The sender lives as long as `self`, so this wait ends with the sync under way.
                let _ = seen.changed().await;
                continue;
            };
            let synced = match file {
                Some(file) => tokio::task::block_in_place(|| file.sync_data()),
                None => Ok(()),
            };
            self.state().syncing = false;
            // Sent even when the sync failed, so that a waiting request tries for itself.
            self.durable.send_modify(|durable| {
                if synced.is_ok() {
                    *durable = (*durable).max(upto);
                }
            });
            synced.map_err(|e| Error::io(path, e))?;
        }
    }
}
