//! Line-oriented inputs: TSV (`label<TAB>text`), JSONL and plain lines, from a file or stdin.
//!
//! Lines are read as bytes, so a line that is not valid UTF-8 is decoded like any other text
//! instead of ending the stream. A malformed line becomes a failed entry naming the file and line,
//! and reading goes on with the next line.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;

use super::decode::{decode, load_line};
use super::entry::{Document, Entries, Entry};
use super::options::{InputFormat, ReadOptions};
use crate::error::{Error, Result};

/// Opens a file, or stdin for `-`, as a buffered byte reader.
fn open_reader(path: &Path) -> Result<Box<dyn BufRead + Send>> {
    if path == Path::new("-") {
        return Ok(Box::new(BufReader::new(std::io::stdin())));
    }
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    Ok(Box::new(BufReader::with_capacity(1 << 16, file)))
}

/// Bytes kept of a line beyond the document size limit: room for a label, an id or a JSON
/// record's other fields.
const LINE_SLACK: u64 = 64 * 1024;

/// A line's first bytes, and how many more it had that were read past and dropped.
struct Line {
    bytes: Vec<u8>,
    dropped: u64,
}

/// The raw lines of a reader, numbered from 1, without their `\n` or `\r\n`. At most `keep`
/// bytes of a line are held: the rest is read past and counted, so that memory stays flat
/// whatever the length of a line.
struct RawLines {
    reader: Box<dyn BufRead + Send>,
    path: PathBuf,
    number: u64,
    done: bool,
    keep: usize,
}

impl RawLines {
    /// The next line, or `None` at the end.
    fn read_line(&mut self) -> std::io::Result<Option<Line>> {
        let (mut bytes, mut dropped, mut any) = (Vec::new(), 0u64, false);
        let mut last = None;
        loop {
            let buffer = self.reader.fill_buf()?;
            if buffer.is_empty() {
                break;
            }
            any = true;
            let end = buffer.iter().position(|&b| b == b'\n');
            let chunk = &buffer[..end.unwrap_or(buffer.len())];
            last = chunk.last().copied().or(last);
            let take = chunk.len().min(self.keep.saturating_sub(bytes.len()));
            bytes.extend_from_slice(&chunk[..take]);
            dropped += (chunk.len() - take) as u64;
            let used = chunk.len() + usize::from(end.is_some());
            self.reader.consume(used);
            if end.is_some() {
                break;
            }
        }
        // The `\r` of a `\r\n` is no part of the line, whether it was kept or read past: counted
        // as dropped, it made a long line one byte longer than it was, and a JSON record that
        // fits exactly into what is kept unreadable (found by the line readers' fuzz check).
        if last == Some(b'\r') {
            if dropped > 0 {
                dropped -= 1;
            } else {
                bytes.pop();
            }
        }
        Ok(any.then_some(Line { bytes, dropped }))
    }
}

impl Iterator for RawLines {
    type Item = (u64, Result<Line>);

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        self.number += 1;
        match self.read_line() {
            Ok(None) => None,
            Ok(Some(line)) => Some((self.number, Ok(line))),
            Err(err) => {
                // A read error ends the stream: the reader's position is unknown after it.
                self.done = true;
                Some((self.number, Err(Error::io(&self.path, err))))
            }
        }
    }
}

fn raw_lines(path: &Path, max_doc_bytes: u64) -> Result<RawLines> {
    let keep = max_doc_bytes.saturating_add(LINE_SLACK);
    Ok(RawLines {
        reader: open_reader(path)?,
        path: path.to_path_buf(),
        number: 0,
        done: false,
        keep: usize::try_from(keep).unwrap_or(usize::MAX),
    })
}

fn line_error(path: &Path, line: u64, message: impl Into<String>) -> Error {
    Error::Line {
        path: path.to_path_buf(),
        line,
        message: message.into(),
    }
}

/// The id of the document on a line, and the name used in messages about it.
fn line_id(path: &Path, line: u64) -> String {
    format!("{}:{line}", path.display())
}

/// `label<TAB>text` per line, or `id<TAB>text` with `tsv_ids`. The first line is a header, and
/// skipped, when its first field is `label` (`id`) in any case, or when `tsv_header` is set.
/// Blank lines are skipped. Everything after the first tab is text, tabs included. Without ids,
/// the document id is the line number.
pub(super) fn tsv(path: &Path, options: &ReadOptions) -> Result<Entries> {
    Ok(tsv_of(raw_lines(path, options.max_doc_bytes)?, options))
}

fn tsv_of(raw: RawLines, options: &ReadOptions) -> Entries {
    let path_buf = raw.path.clone();
    let source: Arc<Path> = Arc::from(raw.path.as_path());
    let (force_header, ids, max_doc_bytes) =
        (options.tsv_header, options.tsv_ids, options.max_doc_bytes);
    let label_sep = options.label_sep.clone().filter(|sep| !sep.is_empty());
    let (first, header) = if ids {
        ("id", "id")
    } else {
        ("label", "label")
    };
    let lines = raw.filter_map(move |(number, line)| {
        let Line {
            bytes: line,
            dropped,
        } = match line {
            Ok(line) => line,
            Err(err) => return Some(Entry::failed(line_id(&path_buf, number), err)),
        };
        if line.is_empty() {
            return None;
        }
        let Some(tab) = line.iter().position(|&b| b == b'\t') else {
            let mut message = format!("expected {first}<TAB>text, found no tab");
            if starts_json(&line) {
                message += "; the line looks like JSON: use --input jsonl";
            }
            let err = line_error(&path_buf, number, message);
            return Some(Entry::failed(line_id(&path_buf, number), err));
        };
        let (key, _) = decode(line[..tab].to_vec());
        let key = key.trim();
        if number == 1 && (force_header || key.eq_ignore_ascii_case(header)) {
            return None;
        }
        if key.is_empty() {
            let message = format!("empty {first} before the tab");
            let err = line_error(&path_buf, number, message);
            return Some(Entry::failed(line_id(&path_buf, number), err));
        }
        let text = line[tab + 1..].to_vec();
        let mut entry = Entry::default();
        if ids {
            entry.doc.id = key.to_string();
        } else {
            entry.doc.id = number.to_string();
            entry
                .doc
                .set_labels(split_labels(key, label_sep.as_deref()));
        }
        load_line(&mut entry, text, dropped, max_doc_bytes, &source, number);
        Some(entry)
    });
    Box::new(lines)
}

/// A TSV label field as labels: split at `sep` when given, each part trimmed, empty parts
/// dropped (a field of separators alone keeps the field whole).
fn split_labels(field: &str, sep: Option<&str>) -> Vec<String> {
    let Some(sep) = sep else {
        return vec![field.to_string()];
    };
    let parts: Vec<String> = field
        .split(sep)
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(str::to_string)
        .collect();
    if parts.is_empty() {
        vec![field.to_string()]
    } else {
        parts
    }
}

/// One JSONL record. Fields other than these are ignored.
#[derive(Deserialize)]
struct JsonRecord {
    id: Option<serde_json::Value>,
    label: Option<String>,
    labels: Option<Vec<String>>,
    text: String,
}

/// `{"id"?, "label"?, "labels"?, "text"}` per line; the id defaults to the line number, and a numeric id is
/// written as its decimal form. Blank lines are skipped.
pub(super) fn jsonl(path: &Path, max_doc_bytes: u64) -> Result<Entries> {
    Ok(jsonl_of(raw_lines(path, max_doc_bytes)?, max_doc_bytes))
}

fn jsonl_of(raw: RawLines, max_doc_bytes: u64) -> Entries {
    let path_buf = raw.path.clone();
    let source: Arc<Path> = Arc::from(raw.path.as_path());
    let lines = raw.filter_map(move |(number, line)| {
        let line = match line {
            Ok(Line { dropped, .. }) if dropped > 0 => {
                let message = format!(
                    "a JSON record longer than the document size limit and {} KiB cannot be read",
                    LINE_SLACK / 1024
                );
                let err = line_error(&path_buf, number, message);
                return Some(Entry::failed(line_id(&path_buf, number), err));
            }
            Ok(line) => line.bytes,
            Err(err) => return Some(Entry::failed(line_id(&path_buf, number), err)),
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        let (text, decoded_windows_1252) = decode(line);
        Some(match serde_json::from_str::<JsonRecord>(&text) {
            Ok(record) => {
                let mut entry = json_entry(number, record, max_doc_bytes, &source);
                // The record was decoded before parsing, so its text is valid UTF-8 by now.
                entry.decoded_windows_1252 |= decoded_windows_1252;
                entry
            }
            Err(err) => {
                let err = line_error(&path_buf, number, format!("invalid JSON record: {err}"));
                Entry::failed(line_id(&path_buf, number), err)
            }
        })
    });
    Box::new(lines)
}

fn json_entry(number: u64, record: JsonRecord, max_doc_bytes: u64, source: &Arc<Path>) -> Entry {
    let id = match record.id {
        Some(serde_json::Value::String(id)) => id,
        Some(other) => other.to_string(),
        None => number.to_string(),
    };
    let mut entry = Entry {
        doc: Document {
            id,
            label: record.label,
            ..Document::default()
        },
        ..Entry::default()
    };
    // `labels` says a document's labels in full; a `label` beside it comes first.
    if let Some(labels) = record.labels {
        let set = entry.doc.label.take().into_iter().chain(labels).collect();
        entry.doc.set_labels(set);
    }
    load_line(
        &mut entry,
        record.text.into_bytes(),
        0,
        max_doc_bytes,
        source,
        number,
    );
    entry
}

/// One unlabeled document per line, empty lines included; the id is the line number.
pub(super) fn plain(path: &Path, max_doc_bytes: u64) -> Result<Entries> {
    Ok(plain_of(raw_lines(path, max_doc_bytes)?, max_doc_bytes))
}

fn plain_of(raw: RawLines, max_doc_bytes: u64) -> Entries {
    let path_buf = raw.path.clone();
    let source: Arc<Path> = Arc::from(raw.path.as_path());
    let lines = raw.map(move |(number, line)| match line {
        Ok(Line { bytes, dropped }) => {
            let mut entry = Entry::default();
            entry.doc.id = number.to_string();
            load_line(&mut entry, bytes, dropped, max_doc_bytes, &source, number);
            entry
        }
        Err(err) => Entry::failed(line_id(&path_buf, number), err),
    });
    Box::new(lines)
}

/// A stream whose format was not given: JSONL when its first byte other than white space is
/// `{`, else `options.stream_format`. The first bytes are looked at when the first entry is
/// asked for, not on opening, so that opening stdin never waits for input.
pub(super) fn sniffed(path: &Path, options: &ReadOptions) -> Result<Entries> {
    let mut raw = Some(raw_lines(path, options.max_doc_bytes)?);
    let options = options.clone();
    let mut entries: Option<Entries> = None;
    Ok(Box::new(std::iter::from_fn(move || {
        if let Some(mut raw) = raw.take() {
            // A read error here is met again, and reported, by the first line's read.
            let json = raw.reader.fill_buf().is_ok_and(starts_json);
            entries = Some(match (json, options.stream_format) {
                (true, _) | (false, InputFormat::Jsonl) => jsonl_of(raw, options.max_doc_bytes),
                (false, InputFormat::Tsv) => tsv_of(raw, &options),
                (false, _) => plain_of(raw, options.max_doc_bytes),
            });
        }
        entries.as_mut()?.next()
    })))
}

/// True when the first byte other than white space is `{`, as a JSON record's is.
fn starts_json(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}
