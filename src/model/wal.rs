//! The write-ahead log of a served model: every learn request is appended to `MODEL.wal`
//! (beside the model file) and synced before it is answered, so that a document acknowledged
//! with a 200 survives a crash of the server and a reload of the file. It sits beside the model
//! format because every writer of a model takes part: whoever holds the model's lock finishes
//! a checkpoint that a killed server left half done (`finish_checkpoint`).
//!
//! The server that appends to a log holds a lock on it (`flock`) as long as it has it open, so
//! that another process can tell a live server's log from one a crash left behind.
//!
//! The file starts with [`MAGIC`]; each record then is its payload's length (u32, little
//! endian), the payload's CRC-32 (u32) and the payload. A payload is a kind byte, a sequence
//! number (u64) and the kind's fields:
//!
//! - [`Record::Documents`]: the documents of one update (the learn requests that the writer
//!   learned together), as a count (u32) and, for each, its label and its text, each a length
//!   (u32) and UTF-8 bytes. Sequence numbers go up by one an update and never restart. Replay
//!   learns each record as one update again, so that it gives the model the server had.
//! - [`Record::Checkpoint`]: a model file that holds every document up to the record's
//!   sequence number, named by its fingerprint (the file's header, whose CRC-32s cover every
//!   byte of it). A log always starts with one, for the file it was started on.
//!
//! Only the tail can be torn: a crash while appending leaves a record cut short or, after a
//! power cut, a last record whose checksum fails. Such a tail was never acknowledged, and
//! reading ignores it. A bad record followed by others is damage, and an error.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// The first bytes of every log file.
pub const MAGIC: &[u8; 8] = b"BOWLWAL1";

const DOCUMENTS: u8 = 1;
const CHECKPOINT: u8 = 2;

/// One record of the log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// The documents of one update (one or more learn requests), as `(label, text)` pairs.
    Documents(u64, Vec<(String, String)>),
    /// The model file with this fingerprint holds every document up to this sequence number.
    Checkpoint(u64, Vec<u8>),
}

impl Record {
    /// The record's sequence number.
    pub fn seq(&self) -> u64 {
        match self {
            Record::Documents(seq, _) | Record::Checkpoint(seq, _) => *seq,
        }
    }

    /// The record as it is appended: length, CRC-32 and payload.
    pub fn encode(&self) -> Vec<u8> {
        let mut payload = Vec::new();
        match self {
            Record::Documents(seq, documents) => {
                payload.push(DOCUMENTS);
                payload.extend_from_slice(&seq.to_le_bytes());
                payload.extend_from_slice(&(documents.len() as u32).to_le_bytes());
                for (label, text) in documents {
                    put_bytes(&mut payload, label.as_bytes());
                    put_bytes(&mut payload, text.as_bytes());
                }
            }
            Record::Checkpoint(seq, fingerprint) => {
                payload.push(CHECKPOINT);
                payload.extend_from_slice(&seq.to_le_bytes());
                put_bytes(&mut payload, fingerprint);
            }
        }
        let mut record = Vec::with_capacity(payload.len() + 8);
        record.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        record.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        record.extend_from_slice(&payload);
        record
    }
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// What a log file holds.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Contents {
    /// The whole records, in order.
    pub records: Vec<Record>,
    /// Bytes from the start of the file to the end of the last whole record: a torn tail
    /// begins here.
    pub valid: usize,
}

impl Contents {
    /// The sequence number up to which the model file with `fingerprint` holds the documents:
    /// that of the last checkpoint naming it, or else that of the log's first checkpoint. A file
    /// the log does not name was written by another program (`bowline update`) while this log
    /// was current, from the model file the log started on: the checkpoints after the first
    /// are the server's own, written and renamed into place under the model's lock.
    pub fn applied(&self, fingerprint: &[u8]) -> u64 {
        let checkpoints = || {
            self.records.iter().filter_map(|record| match record {
                Record::Checkpoint(seq, named) => Some((*seq, named.as_slice())),
                Record::Documents(..) => None,
            })
        };
        checkpoints()
            .rfind(|(_, named)| *named == fingerprint)
            .or_else(|| checkpoints().next())
            .map_or(0, |(seq, _)| seq)
    }

    /// The highest sequence number in the log.
    pub fn last_seq(&self) -> u64 {
        self.records.iter().map(Record::seq).max().unwrap_or(0)
    }
}

/// Reads a whole log; `path` names it in errors. A torn tail is left out; a damaged record
/// before the last is an error that names its offset.
pub fn read(bytes: &[u8], path: &Path) -> Result<Contents> {
    let damaged = |offset: usize, why: &str| Error::Format {
        path: path.to_path_buf(),
        message: format!("corrupted write-ahead log: the record at offset {offset} {why}"),
    };
    if bytes.len() < MAGIC.len() {
        // A log cut short while it was created holds nothing yet.
        if MAGIC.starts_with(bytes) {
            return Ok(Contents::default());
        }
        return Err(damaged(0, "is not a bowline write-ahead log"));
    }
    if &bytes[..MAGIC.len()] != MAGIC {
        return Err(damaged(0, "is not a bowline write-ahead log"));
    }
    let mut contents = Contents {
        records: Vec::new(),
        valid: MAGIC.len(),
    };
    let mut offset = MAGIC.len();
    while offset < bytes.len() {
        let Some((payload, end)) = frame(bytes, offset) else {
            break;
        };
        if crc32fast::hash(payload) != u32_at(bytes, offset + 4) {
            if end == bytes.len() {
                break;
            }
            return Err(damaged(offset, "fails its checksum"));
        }
        let record = decode(payload).ok_or_else(|| damaged(offset, "cannot be decoded"))?;
        if record.seq() < contents.last_seq() {
            return Err(damaged(offset, "goes back in sequence"));
        }
        contents.records.push(record);
        contents.valid = end;
        offset = end;
    }
    Ok(contents)
}

/// The payload of the record at `offset` and where the record ends; `None` when the file ends
/// inside it.
fn frame(bytes: &[u8], offset: usize) -> Option<(&[u8], usize)> {
    let start = offset.checked_add(8)?;
    if start > bytes.len() {
        return None;
    }
    let end = start.checked_add(u32_at(bytes, offset) as usize)?;
    Some((bytes.get(start..end)?, end))
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

/// A payload read field by field.
struct Fields<'a>(&'a [u8]);

impl<'a> Fields<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32_at(self.take(4)?, 0))
    }

    fn u64(&mut self) -> Option<u64> {
        let mut word = [0; 8];
        word.copy_from_slice(self.take(8)?);
        Some(u64::from_le_bytes(word))
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()? as usize;
        self.take(n)
    }

    fn text(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?.to_vec()).ok()
    }
}

fn decode(payload: &[u8]) -> Option<Record> {
    let mut fields = Fields(payload);
    let kind = fields.take(1)?[0];
    let seq = fields.u64()?;
    let record = match kind {
        DOCUMENTS => {
            let count = fields.u32()? as usize;
            // Each document takes at least 8 bytes, so a count beyond that is damage and
            // reserves nothing.
            let mut documents = Vec::with_capacity(count.min(fields.0.len() / 8));
            for _ in 0..count {
                documents.push((fields.text()?, fields.text()?));
            }
            Record::Documents(seq, documents)
        }
        CHECKPOINT => Record::Checkpoint(seq, fields.bytes()?.to_vec()),
        _ => return None,
    };
    fields.0.is_empty().then_some(record)
}

/// The log file of the model at `model`: `MODEL.wal` beside it.
pub fn path_of(model: &Path) -> PathBuf {
    let mut name = model.as_os_str().to_os_string();
    name.push(".wal");
    PathBuf::from(name)
}

/// Replaces any log at `path` atomically by one that holds only `checkpoint`: the new file is
/// written, synced and renamed into place, and the folder synced, so that a crash leaves the old
/// log or the new, whole. Returns the new log's length.
fn write_fresh(path: &Path, checkpoint: &Record) -> Result<u64> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&checkpoint.encode());
    crate::io::write_atomically(path, |out| out.write_all(&bytes))?;
    crate::io::sync_folder(path)?;
    Ok(bytes.len() as u64)
}

/// A log open for appending, which only a server does.
#[cfg(feature = "serve")]
#[derive(Debug)]
pub(crate) struct Log {
    path: PathBuf,
    file: std::sync::Arc<File>,
    /// Bytes written: where the next record goes.
    len: u64,
}

#[cfg(feature = "serve")]
impl Log {
    /// Starts the log at `path` afresh with one checkpoint record, replacing any log there
    /// atomically (see [`write_fresh`]), and opens it to append to.
    pub fn start(path: &Path, checkpoint: &Record) -> Result<Self> {
        let len = write_fresh(path, checkpoint)?;
        let file = open_locked(path)?;
        Ok(Log {
            path: path.to_path_buf(),
            file: std::sync::Arc::new(file),
            len,
        })
    }

    /// Opens the log at `path` to append to, cutting it to its first `valid` bytes: what
    /// follows is a torn tail, which must not stay before the next record.
    pub fn resume(path: &Path, valid: u64) -> Result<Self> {
        let file = open_locked(path)?;
        file.set_len(valid).map_err(|e| Error::io(path, e))?;
        Ok(Log {
            path: path.to_path_buf(),
            file: std::sync::Arc::new(file),
            len: valid,
        })
    }

    /// Appends a record without syncing it (see [`Log::file`]). A failed write is cut off again,
    /// so that no part of it stays to be read as damage before the next record.
    pub fn append(&mut self, record: &Record) -> Result<()> {
        let bytes = record.encode();
        match (&*self.file).write_all(&bytes) {
            Ok(()) => {
                self.len += bytes.len() as u64;
                Ok(())
            }
            Err(error) => {
                let _ = self.file.set_len(self.len);
                Err(Error::io(&self.path, error))
            }
        }
    }

    /// The file, for the syncs that make appended records durable.
    pub fn file(&self) -> std::sync::Arc<File> {
        std::sync::Arc::clone(&self.file)
    }
}

#[cfg(feature = "serve")]
/// Opens the log at `path` to append to, and takes its lock: a second server of the same file
/// would interleave its records with the first's.
fn open_locked(path: &Path) -> Result<File> {
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(Error::input(
            path,
            "another process appends to this write-ahead log: is the model served twice?",
        )),
        Err(std::fs::TryLockError::Error(error)) => Err(Error::io(path, error)),
    }
}

/// Finishes a checkpoint of the model at `model` that a server killed between renaming the new
/// file into place and starting its log afresh left half done; `fingerprint` is that of the
/// file in place. The caller holds the model's lock, so no server is inside a checkpoint.
///
/// Such a log ends with a checkpoint naming the file in place, after documents that the file
/// holds. Another writer (`bowline update`) that replaced the file now would leave a file the
/// log does not name, which is taken to hold what the log's first checkpoint holds: those
/// documents would be learned twice. Starting the log afresh from the last checkpoint first
/// makes the new file's parent the log's first checkpoint again. A log that a live server holds
/// is left alone: that server finishes its own checkpoints. A log that cannot be read is left
/// for the server's start-up to report.
pub(crate) fn finish_checkpoint(model: &Path, fingerprint: &[u8]) -> Result<()> {
    let path = path_of(model);
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(error) => return Err(Error::io(&path, error)),
    };
    if file.try_lock().is_err() {
        return Ok(());
    }
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut &file, &mut bytes).map_err(|e| Error::io(&path, e))?;
    let Ok(contents) = read(&bytes, &path) else {
        return Ok(());
    };
    match contents.records.as_slice() {
        [_, .., last @ Record::Checkpoint(_, named)] if named == fingerprint => {
            write_fresh(&path, last).map(drop)
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(records: &[Record]) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        for record in records {
            bytes.extend_from_slice(&record.encode());
        }
        bytes
    }

    fn records() -> Vec<Record> {
        vec![
            Record::Checkpoint(0, b"header".to_vec()),
            Record::Documents(1, vec![("space".into(), "a comet".into())]),
            Record::Documents(
                2,
                vec![("chess".into(), "é rook".into()), ("a".into(), "".into())],
            ),
        ]
    }

    #[test]
    fn whole_records_read_back() {
        let bytes = log(&records());
        let contents = read(&bytes, Path::new("m.wal")).unwrap();
        assert_eq!(contents.records, records());
        assert_eq!(contents.valid, bytes.len());
        assert_eq!(contents.applied(b"header"), 0);
        assert_eq!(contents.last_seq(), 2);
    }

    #[test]
    fn a_torn_tail_is_ignored() {
        let bytes = log(&records());
        let whole = log(&records()[..2]).len();
        for cut in whole..bytes.len() {
            let contents = read(&bytes[..cut], Path::new("m.wal")).unwrap();
            assert_eq!(contents.records, records()[..2], "cut at {cut}");
            assert_eq!(contents.valid, whole);
        }
        // A last record whose bytes are there but garbled, as after a power cut.
        let mut garbled = bytes.clone();
        *garbled.last_mut().unwrap() ^= 0xff;
        assert_eq!(read(&garbled, Path::new("m.wal")).unwrap().valid, whole);
        assert_eq!(read(&MAGIC[..3], Path::new("m.wal")).unwrap().records, []);
    }

    #[test]
    fn a_damaged_record_in_the_middle_is_an_error_with_its_offset() {
        let mut bytes = log(&records());
        let second = log(&records()[..1]).len();
        bytes[second + 10] ^= 0x01;
        let error = read(&bytes, Path::new("m.wal")).unwrap_err().to_string();
        assert_eq!(
            error,
            format!(
                "m.wal: corrupted write-ahead log: the record at offset {second} fails its \
                 checksum"
            )
        );
        let error = read(b"not a log", Path::new("m.wal")).unwrap_err();
        assert!(error.to_string().contains("offset 0"), "{error}");
    }

    #[test]
    fn a_file_the_log_does_not_name_holds_what_the_first_checkpoint_holds() {
        let mut records = records();
        records.push(Record::Checkpoint(2, b"ours".to_vec()));
        let contents = read(&log(&records), Path::new("m.wal")).unwrap();
        assert_eq!(contents.applied(b"ours"), 2);
        assert_eq!(contents.applied(b"header"), 0);
        assert_eq!(contents.applied(b"someone else's"), 0);
    }

    /// A log whose last checkpoint names the file `fingerprint`, after documents.
    fn cut_short(dir: &Path, last: &[u8]) -> PathBuf {
        let path = path_of(&dir.join("m.model"));
        let mut records = records();
        records.push(Record::Checkpoint(2, last.to_vec()));
        std::fs::write(&path, log(&records)).unwrap();
        path
    }

    #[test]
    fn a_checkpoint_cut_short_after_its_rename_is_finished() {
        let dir = tempfile::tempdir().unwrap();
        let path = cut_short(dir.path(), b"in place");
        finish_checkpoint(&dir.path().join("m.model"), b"in place").unwrap();
        let contents = read(&std::fs::read(&path).unwrap(), &path).unwrap();
        assert_eq!(
            contents.records,
            [Record::Checkpoint(2, b"in place".to_vec())]
        );
    }

    #[cfg(feature = "serve")]
    #[test]
    fn a_checkpoint_before_its_rename_or_a_live_servers_log_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let model = dir.path().join("m.model");
        let path = cut_short(dir.path(), b"never renamed");
        let before = std::fs::read(&path).unwrap();
        finish_checkpoint(&model, b"in place").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), before);
        let path = cut_short(dir.path(), b"in place");
        let whole = std::fs::metadata(&path).unwrap().len();
        let live = Log::resume(&path, whole).unwrap();
        finish_checkpoint(&model, b"in place").unwrap();
        assert_eq!(
            read(&std::fs::read(&path).unwrap(), &path)
                .unwrap()
                .records
                .len(),
            4
        );
        let error = Log::resume(&path, 0).unwrap_err().to_string();
        assert!(error.contains("is the model served twice?"), "{error}");
        drop(live);
    }

    #[cfg(feature = "serve")]
    #[test]
    fn appends_follow_a_fresh_start() {
        let dir = tempfile::tempdir().unwrap();
        let path = path_of(&dir.path().join("m.model"));
        assert!(path.ends_with("m.model.wal"));
        let mut log = Log::start(&path, &records()[0]).unwrap();
        log.append(&records()[1]).unwrap();
        log.append(&records()[2]).unwrap();
        let contents = read(&std::fs::read(&path).unwrap(), &path).unwrap();
        assert_eq!(contents.records, records());
    }
}
