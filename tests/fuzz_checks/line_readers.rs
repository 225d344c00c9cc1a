//! Target `line_readers`: the TSV, JSONL and plain-line readers ([`bowline::corpus::open`]) on
//! any bytes never panic, keep every document within `--max-doc-bytes`, and give the entries of
//! a reference reader written here from their documentation, which reads the input whole: one
//! entry per line (TSV and JSONL skip blank lines), numbered from 1, without its `\n` or
//! `\r\n`, cut to the size limit at a character boundary, decoded as UTF-8 or else
//! Windows-1252.

use std::path::{Path, PathBuf};

use bowline::corpus::{self, decode, Entry, InputFormat, ReadOptions, Skip, DEFAULT_MAX_DOC_BYTES};
use serde_json::Value;

use super::parameters;

/// Bytes a reader keeps of a line beyond the size limit (`LINE_SLACK` in `src/corpus/lines.rs`):
/// a label or a JSON record's other fields must fit in them.
const LINE_SLACK: u64 = 64 * 1024;

/// Bytes that fill the long run [`check`] can insert: a letter, a tab, a byte that is not
/// UTF-8, a space and a carriage return.
const FILLERS: [u8; 5] = [b'a', b'\t', 0xE9, b' ', b'\r'];

/// Byte 0: the format (its value modulo 3: TSV, JSONL, lines), then flags: bit 2 a forced TSV
/// header, bit 3 TSV ids, bit 4 a long run of one byte inserted into the input, so that lines
/// longer than the limit and its slack are read past. Byte 1: `--max-doc-bytes` (255 is the
/// default, 16 MiB). Bytes 2 and 3: where the run goes, and its byte and length. The rest is the
/// file.
pub fn check(data: &[u8]) {
    let ([flags, limit, at, run], content) = parameters::<4>(data);
    let format = [InputFormat::Tsv, InputFormat::Jsonl, InputFormat::Lines][usize::from(flags % 3)];
    let options = ReadOptions {
        format: Some(format),
        max_doc_bytes: if limit == 255 {
            DEFAULT_MAX_DOC_BYTES
        } else {
            u64::from(limit)
        },
        tsv_header: flags & 4 != 0,
        tsv_ids: flags & 8 != 0,
        label_sep: None,
        ..ReadOptions::default()
    };
    let mut content = content.to_vec();
    if flags & 16 != 0 {
        let at = usize::from(at) * content.len() / 256;
        let length = 60_000 + 2_000 * usize::from(run / 5);
        let filler = FILLERS[usize::from(run % 5)];
        content.splice(at..at, std::iter::repeat_n(filler, length));
    }
    let file = TempFile::new(&content);
    let (entries, _) = corpus::open(&file.0, &options).expect("an existing file opens");
    let seen: Vec<Seen> = entries.map(|entry| Seen::of(&entry, &options)).collect();
    assert_eq!(seen, expected(&content, &options, &file.0));
}

/// What the check compares of an entry. A failed entry is compared by its line alone: its
/// message is not part of the contract.
#[derive(Debug, PartialEq)]
struct Seen {
    /// The id a failed entry carries, or the document's id.
    id: String,
    line: Option<u64>,
    failed: bool,
    /// The document's labels, the first being its `label`.
    labels: Vec<String>,
    text: String,
    windows_1252: bool,
    truncated_from: Option<u64>,
    bytes: u64,
}

impl Seen {
    fn of(entry: &Entry, options: &ReadOptions) -> Self {
        if let Some(skip) = &entry.skip {
            assert!(matches!(skip, Skip::Failed(_)), "a line is never binary");
            return Seen::failed(entry.doc.id.clone());
        }
        assert!(
            entry.bytes <= options.max_doc_bytes,
            "a document over the limit"
        );
        Seen {
            id: entry.doc.id.clone(),
            line: entry.line.as_ref().map(|(_, number)| *number),
            failed: false,
            labels: entry.doc.label_set(),
            text: entry.doc.text.clone(),
            windows_1252: entry.decoded_windows_1252,
            truncated_from: entry.truncated_from,
            bytes: entry.bytes,
        }
    }

    fn failed(id: String) -> Self {
        Seen {
            id,
            line: None,
            failed: true,
            labels: Vec::new(),
            text: String::new(),
            windows_1252: false,
            truncated_from: None,
            bytes: 0,
        }
    }

    /// A document with `text` read from line `number`, under the size limit.
    fn document(
        number: u64,
        id: String,
        labels: Vec<String>,
        text: &[u8],
        dropped: u64,
        limit: u64,
    ) -> Self {
        let original = text.len() as u64 + dropped;
        let mut bytes = text.to_vec();
        let truncated_from = (original > limit).then(|| {
            cut(&mut bytes, limit as usize);
            original
        });
        let size = bytes.len() as u64;
        let (text, windows_1252) = decode(bytes);
        Seen {
            id,
            line: Some(number),
            failed: false,
            labels,
            text,
            windows_1252,
            truncated_from,
            bytes: size,
        }
    }
}

/// The reference reader: the entries of `content` read whole.
fn expected(content: &[u8], options: &ReadOptions, path: &Path) -> Vec<Seen> {
    let keep = options.max_doc_bytes.saturating_add(LINE_SLACK);
    let keep = usize::try_from(keep).unwrap_or(usize::MAX);
    let mut lines: Vec<&[u8]> = content.split(|&b| b == b'\n').collect();
    if content.is_empty() || content.ends_with(b"\n") {
        lines.pop();
    }
    let mut out = Vec::new();
    for (number, line) in (1u64..).zip(lines) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let kept = &line[..line.len().min(keep)];
        let dropped = (line.len() - kept.len()) as u64;
        let failed = || Seen::failed(format!("{}:{number}", path.display()));
        let entry = match options.format {
            Some(InputFormat::Tsv) => {
                tsv_line(number, kept, dropped, options).map(|e| e.unwrap_or_else(failed))
            }
            Some(InputFormat::Jsonl) => jsonl_line(number, kept, dropped, options.max_doc_bytes)
                .map(|e| e.unwrap_or_else(failed)),
            _ => Some(Seen::document(
                number,
                number.to_string(),
                Vec::new(),
                kept,
                dropped,
                options.max_doc_bytes,
            )),
        };
        out.extend(entry);
    }
    out
}

/// A TSV line: `None` when skipped (blank, or the header), `Some(None)` when malformed.
fn tsv_line(number: u64, kept: &[u8], dropped: u64, options: &ReadOptions) -> Option<Option<Seen>> {
    if kept.is_empty() {
        return None;
    }
    let Some(tab) = kept.iter().position(|&b| b == b'\t') else {
        return Some(None);
    };
    let (key, _) = decode(kept[..tab].to_vec());
    let key = key.trim();
    let header = if options.tsv_ids { "id" } else { "label" };
    if number == 1 && (options.tsv_header || key.eq_ignore_ascii_case(header)) {
        return None;
    }
    if key.is_empty() {
        return Some(None);
    }
    let (id, label) = if options.tsv_ids {
        (key.to_string(), None)
    } else {
        (number.to_string(), Some(key.to_string()))
    };
    let text = &kept[tab + 1..];
    Some(Some(Seen::document(
        number,
        id,
        label.into_iter().collect(),
        text,
        dropped,
        options.max_doc_bytes,
    )))
}

/// A JSONL line, read as JSON values rather than as the reader's typed record: `None` when
/// blank, `Some(None)` when it is not a record. A record is an object whose fields `id`,
/// `label`, `labels` and `text` appear at most once each (other fields are ignored), or, as
/// serde reads a struct, an array of exactly those four. Its labels are `label` then `labels`,
/// repeats dropped.
fn jsonl_line(number: u64, kept: &[u8], dropped: u64, limit: u64) -> Option<Option<Seen>> {
    if dropped > 0 {
        return Some(None);
    }
    if kept.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    let (line, windows_1252) = decode(kept.to_vec());
    let Some([id, label, labels, text]) = record_fields(&line) else {
        return Some(None);
    };
    let Some(Value::String(text)) = text else {
        return Some(None);
    };
    let mut set = match label {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(label)) => vec![label],
        Some(_) => return Some(None),
    };
    match labels {
        None | Some(Value::Null) => {}
        Some(Value::Array(labels)) => {
            for label in labels {
                let Value::String(label) = label else {
                    return Some(None);
                };
                if !set.contains(&label) {
                    set.push(label);
                }
            }
        }
        Some(_) => return Some(None),
    }
    let id = match id {
        None | Some(Value::Null) => number.to_string(),
        Some(Value::String(id)) => id,
        Some(other) => other.to_string(),
    };
    let mut seen = Seen::document(number, id, set, text.as_bytes(), 0, limit);
    seen.windows_1252 |= windows_1252;
    Some(Some(seen))
}

/// The `id`, `label`, `labels` and `text` of a JSON record, or `None` when `line` is not one.
fn record_fields(line: &str) -> Option<[Option<Value>; 4]> {
    match serde_json::from_str(line).ok()? {
        Fields::Object(fields) => {
            let mut out = [None, None, None, None];
            for (name, value) in fields {
                let names = ["id", "label", "labels", "text"];
                if let Some(slot) = names.iter().position(|&n| n == name) {
                    if out[slot].replace(value).is_some() {
                        return None;
                    }
                }
            }
            Some(out)
        }
        Fields::Array(values) => {
            let [id, label, labels, text] = <[Value; 4]>::try_from(values).ok()?;
            Some([Some(id), Some(label), Some(labels), Some(text)])
        }
        Fields::Other => None,
    }
}

/// A JSON value as a record reader sees it: an object's fields in order, duplicates kept.
enum Fields {
    Object(Vec<(String, Value)>),
    Array(Vec<Value>),
    Other,
}

impl<'de> serde::Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(FieldsVisitor)
    }
}

struct FieldsVisitor;

impl<'de> serde::de::Visitor<'de> for FieldsVisitor {
    type Value = Fields;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
        let mut fields = Vec::new();
        while let Some(field) = map.next_entry()? {
            fields.push(field);
        }
        Ok(Fields::Object(fields))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Fields, A::Error> {
        let mut values = Vec::new();
        while let Some(value) = seq.next_element()? {
            values.push(value);
        }
        Ok(Fields::Array(values))
    }

    fn visit_bool<E>(self, _: bool) -> Result<Fields, E> {
        Ok(Fields::Other)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Fields, E> {
        Ok(Fields::Other)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Fields, E> {
        Ok(Fields::Other)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Fields, E> {
        Ok(Fields::Other)
    }

    fn visit_str<E>(self, _: &str) -> Result<Fields, E> {
        Ok(Fields::Other)
    }

    fn visit_unit<E>(self) -> Result<Fields, E> {
        Ok(Fields::Other)
    }
}

/// Cuts `bytes` to `limit`, stepping back over a UTF-8 character the cut would split.
fn cut(bytes: &mut Vec<u8>, limit: usize) {
    bytes.truncate(limit);
    if let Err(error) = std::str::from_utf8(bytes) {
        if error.error_len().is_none() {
            bytes.truncate(error.valid_up_to());
        }
    }
}

/// A file holding the input, removed when dropped; named by process and thread, so that tests
/// running in parallel each have their own.
struct TempFile(PathBuf);

impl TempFile {
    fn new(content: &[u8]) -> Self {
        let name = format!(
            "bowline-fuzz-lines-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        );
        let path = std::env::temp_dir().join(name.replace(['(', ')'], ""));
        std::fs::write(&path, content).expect("the temporary folder is writable");
        TempFile(path)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        // Nothing to do if it is already gone.
        let _ = std::fs::remove_file(&self.0);
    }
}
