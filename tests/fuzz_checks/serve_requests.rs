//! Target `serve_requests`: the bodies of `bowline serve`'s learn and classify requests, as
//! the server reads them ([`LearnRequest`], [`ClassifyRequest`] from JSON, then their checks),
//! never panic on any bytes; an accepted batch holds between 1 and the limit of documents, each
//! learned one has a label, and a learn batch survives the write-ahead log unchanged.

use std::path::Path;

use bowline::model::wal::{self, Record};
use bowline::serve::{ClassifyRequest, LearnRequest};

use super::parameters;

/// Byte 0: the batch limit (1 to 256). The rest is the body, read as both requests.
pub fn check(data: &[u8]) {
    let ([limit], body) = parameters::<1>(data);
    let max_batch = usize::from(limit) + 1;
    if let Ok(request) = serde_json::from_slice::<LearnRequest>(body) {
        if let Ok(documents) = request.into_documents(max_batch) {
            assert!((1..=max_batch).contains(&documents.len()));
            assert!(documents.iter().all(|(label, _)| !label.is_empty()));
            logged_as_they_are(documents);
        }
    }
    if let Ok(request) = serde_json::from_slice::<ClassifyRequest>(body) {
        if let Ok(documents) = request.into_documents(max_batch) {
            assert!((1..=max_batch).contains(&documents.len()));
        }
    }
}

/// The learned documents, written to a log and read back, are the same.
fn logged_as_they_are(documents: Vec<(String, String)>) {
    let record = Record::Documents(7, documents);
    let mut log = wal::MAGIC.to_vec();
    log.extend_from_slice(&record.encode());
    let contents = wal::read(&log, Path::new("m.wal")).expect("a log just written");
    assert_eq!(contents.records, [record]);
    assert_eq!(contents.valid, log.len());
}
