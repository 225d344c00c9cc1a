//! Turning raw bytes into text: UTF-8 first, Windows-1252 as the fallback, binary detection and
//! the document size limit.

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use super::entry::{Entry, Skip};
use crate::error::Error;

/// Documents longer than this (16 MiB) are truncated unless `--max-doc-bytes` says otherwise.
pub const DEFAULT_MAX_DOC_BYTES: u64 = 16 * 1024 * 1024;

/// How far into a file to look for NUL bytes when deciding whether it is binary.
const BINARY_SNIFF_BYTES: usize = 8 * 1024;

/// Decodes bytes as UTF-8, or as Windows-1252 when they are not valid UTF-8.
///
/// Windows-1252 is the fallback because it is what mislabelled "Latin-1" text almost always is,
/// and because it maps every byte to a character, so no text is ever dropped. A leading UTF-8 byte
/// order mark is removed. Returns the text and whether the fallback was used.
pub fn decode(mut bytes: Vec<u8>) -> (String, bool) {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    match String::from_utf8(bytes) {
        Ok(text) => (text, false),
        Err(err) => {
            let bytes = err.into_bytes();
            let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(&bytes);
            (text.into_owned(), true)
        }
    }
}

/// Cuts bytes to `limit`, stepping back over a UTF-8 character that the cut would split, so that a
/// truncated UTF-8 document is not mistaken for Windows-1252.
fn truncate_bytes(bytes: &mut Vec<u8>, limit: usize) {
    bytes.truncate(limit);
    if let Err(err) = std::str::from_utf8(bytes) {
        if err.error_len().is_none() {
            bytes.truncate(err.valid_up_to());
        }
    }
}

/// Reads one document file, applying the binary check, the size limit and decoding.
#[cfg(test)]
fn read_document_file(path: &Path, max_doc_bytes: u64) -> Entry {
    let mut entry = Entry::default();
    load(&mut entry, path, max_doc_bytes);
    entry
}

/// Fills `entry` from the file at `path`; failures are recorded on the entry, not returned, so one
/// bad file never stops a batch.
pub(super) fn load(entry: &mut Entry, path: &Path, max_doc_bytes: u64) {
    let mut bytes = Vec::new();
    let read = File::open(path).and_then(|file| {
        let size = file.metadata().map(|m| m.len()).unwrap_or(0);
        // One byte past the limit tells a file over it. A file is read up to the size it had
        // when opened: the read that would only confirm its end is never made, a fifth of the
        // system calls per document. A size of 0 says nothing (special files), so that file is
        // read to its end.
        let limit = max_doc_bytes.saturating_add(1);
        let wanted = if size == 0 { limit } else { size.min(limit) };
        bytes.reserve(size.min(limit) as usize);
        file.take(wanted).read_to_end(&mut bytes).map(|_| size)
    });
    let size = match read {
        Ok(size) => size,
        Err(err) => {
            entry.skip = Some(Skip::Failed(Error::io(path, err)));
            return;
        }
    };
    // UTF-16 text has NUL bytes in every ASCII character: its byte-order mark says it is text.
    if let Some(encoding) = utf16(&bytes) {
        load_utf16(entry, bytes, encoding, (size, max_doc_bytes));
        return;
    }
    let sniff = &bytes[..bytes.len().min(BINARY_SNIFF_BYTES)];
    if sniff.contains(&0) {
        entry.skip = Some(Skip::Binary);
        return;
    }
    if bytes.len() as u64 > max_doc_bytes {
        entry.truncated_from = Some(size.max(bytes.len() as u64));
        truncate_bytes(&mut bytes, max_doc_bytes as usize);
    }
    entry.bytes = bytes.len() as u64;
    let (text, fallback) = decode(bytes);
    entry.doc.text = text;
    entry.decoded_windows_1252 = fallback;
}

/// The UTF-16 encoding a byte-order mark at the start of `bytes` names, if there is one.
fn utf16(bytes: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    match bytes {
        [0xFF, 0xFE, ..] => Some(encoding_rs::UTF_16LE),
        [0xFE, 0xFF, ..] => Some(encoding_rs::UTF_16BE),
        _ => None,
    }
}

/// Fills `entry` with UTF-16 `bytes` decoded, cut to the size limit at a whole code unit.
fn load_utf16(
    entry: &mut Entry,
    mut bytes: Vec<u8>,
    encoding: &'static encoding_rs::Encoding,
    (size, max_doc_bytes): (u64, u64),
) {
    if bytes.len() as u64 > max_doc_bytes {
        entry.truncated_from = Some(size.max(bytes.len() as u64));
        bytes.truncate(max_doc_bytes as usize & !1);
    }
    entry.bytes = bytes.len() as u64;
    let (text, _) = encoding.decode_with_bom_removal(&bytes);
    entry.doc.text = text.into_owned();
}

/// Decodes one line of a line-oriented input, applying the size limit; records on `entry`,
/// with the file and line number it came from. `dropped` bytes of the line were read past
/// without being kept: they count in the size the line had.
pub(super) fn load_line(
    entry: &mut Entry,
    mut bytes: Vec<u8>,
    dropped: u64,
    max_doc_bytes: u64,
    source: &Arc<Path>,
    number: u64,
) {
    entry.line = Some((Arc::clone(source), number));
    let original = bytes.len() as u64 + dropped;
    if original > max_doc_bytes {
        entry.truncated_from = Some(original);
        truncate_bytes(&mut bytes, max_doc_bytes as usize);
    }
    entry.bytes = bytes.len() as u64;
    let (text, fallback) = decode(bytes);
    entry.doc.text = text;
    entry.decoded_windows_1252 = fallback;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_kept_and_bom_removed() {
        assert_eq!(decode("héllo".into()), ("héllo".to_string(), false));
        assert_eq!(
            decode(b"\xEF\xBB\xBFhi".to_vec()),
            ("hi".to_string(), false)
        );
    }

    #[test]
    fn utf16_with_a_byte_order_mark_is_text() {
        let dir = tempfile::tempdir().unwrap();
        let little: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("héllo wörld".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let big: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("héllo wörld".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        for (name, bytes) in [("le.txt", little), ("be.txt", big)] {
            let path = dir.path().join(name);
            std::fs::write(&path, &bytes).unwrap();
            let entry = read_document_file(&path, DEFAULT_MAX_DOC_BYTES);
            assert!(entry.is_document(), "{name}");
            assert_eq!(entry.doc.text, "héllo wörld", "{name}");
            // Cut to 7 bytes, the limit keeps 6: the mark and two whole characters.
            let cut = read_document_file(&path, 7);
            assert_eq!(
                (cut.doc.text.as_str(), cut.truncated_from),
                ("hé", Some(24))
            );
        }
    }

    #[test]
    fn latin1_bytes_decode_as_windows_1252() {
        // "café" in ISO-8859-1, and 0x93/0x94 which Windows-1252 maps to curly quotes.
        assert_eq!(decode(b"caf\xe9".to_vec()), ("café".to_string(), true));
        assert_eq!(
            decode(b"\x93hi\x94".to_vec()),
            ("\u{201c}hi\u{201d}".to_string(), true)
        );
    }

    #[test]
    fn truncation_never_splits_a_utf8_character() {
        let mut bytes = "aé".as_bytes().to_vec(); // 'é' is two bytes
        truncate_bytes(&mut bytes, 2);
        assert_eq!(bytes, b"a");
    }

    #[test]
    fn binary_and_truncated_files_are_flagged() {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        std::fs::write(&bin, b"ab\0cd").unwrap();
        assert!(matches!(
            read_document_file(&bin, 100).skip,
            Some(Skip::Binary)
        ));
        let long = dir.path().join("long");
        std::fs::write(&long, b"abcdefgh").unwrap();
        let entry = read_document_file(&long, 3);
        assert_eq!(entry.doc.text, "abc");
        assert_eq!(entry.truncated_from, Some(8));
        let exact = read_document_file(&long, 8);
        assert_eq!(
            (exact.doc.text.as_str(), exact.truncated_from),
            ("abcdefgh", None)
        );
        let over = read_document_file(&long, 7);
        assert_eq!(
            (over.doc.text.as_str(), over.truncated_from),
            ("abcdefg", Some(8))
        );
        let empty = dir.path().join("empty");
        std::fs::write(&empty, b"").unwrap();
        let entry = read_document_file(&empty, 3);
        assert_eq!((entry.doc.text.as_str(), entry.skip.is_none()), ("", true));
        // Files that report a size of 0 but have content, as /proc's do, are read to the end.
        let proc_file = Path::new("/proc/version");
        if proc_file.exists() {
            assert!(!read_document_file(proc_file, 1 << 20).doc.text.is_empty());
        }
        let missing = read_document_file(&dir.path().join("nope"), 3);
        assert!(matches!(missing.skip, Some(Skip::Failed(Error::Io { .. }))));
    }
}
