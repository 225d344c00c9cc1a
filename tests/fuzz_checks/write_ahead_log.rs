//! Target `write_ahead_log`: the reader of `bowline serve`'s write-ahead log
//! ([`bowline::model::wal::read`]) on any bytes never panics; what it accepts is whole records
//! in order, which written again give the bytes it read; and every cut of an accepted log reads
//! as the records that lie wholly before the cut (a torn tail is ignored, never an error).

use std::path::Path;

use bowline::model::wal::{self, Record};

use super::parameters;

/// Byte 0: whether the rest is taken as it is (even) or after the magic (odd), so that most
/// inputs get past the magic. Byte 1: where to cut an accepted log, in 256ths of its length.
pub fn check(data: &[u8]) {
    let ([mode, cut], rest) = parameters::<2>(data);
    let mut bytes = Vec::new();
    if mode % 2 == 1 {
        bytes.extend_from_slice(wal::MAGIC);
    }
    bytes.extend_from_slice(rest);
    let path = Path::new("m.wal");
    let Ok(contents) = wal::read(&bytes, path) else {
        return;
    };
    assert!(contents.valid <= bytes.len());
    let written = write(&contents.records);
    if contents.valid >= wal::MAGIC.len() {
        assert_eq!(written, bytes[..contents.valid]);
    }
    for pair in contents.records.windows(2) {
        assert!(pair[0].seq() <= pair[1].seq());
    }
    let at = written.len() * usize::from(cut) / 256;
    let torn = wal::read(&written[..at], path).expect("a cut log reads");
    let whole = contents
        .records
        .iter()
        .scan(wal::MAGIC.len(), |end, record| {
            *end += record.encode().len();
            Some(*end)
        })
        .take_while(|end| *end <= at)
        .count();
    assert_eq!(torn.records, contents.records[..whole]);
}

fn write(records: &[Record]) -> Vec<u8> {
    let mut bytes = wal::MAGIC.to_vec();
    for record in records {
        bytes.extend_from_slice(&record.encode());
    }
    bytes
}
