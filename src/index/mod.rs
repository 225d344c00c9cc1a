//! The corpus index: documents kept in a tantivy index, analyzed by bowline's own analyzer.
//!
//! `bowline index` stores each document's id, labels and text, with what reading noted about it
//! (its raw size, whether it was decoded as Windows-1252 or truncated), so that statistics
//! computed from the index equal those computed from the corpus. The text is indexed with
//! `BowlineTokenizer`, which runs the analyzer whose configuration the index keeps in its
//! commit payload: the index holds exactly the terms a model with that configuration counts.
//!
//! An id is a key: indexing a document whose id is already in the index replaces it. Documents
//! keep the order in which they were indexed (a sequence number), and [`read`] returns them in
//! that order, so a fresh index of a corpus reads back in the corpus's own order.

mod tokenizer;

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, Value, FAST, INDEXED, STORED,
    STRING,
};
use tantivy::tokenizer::MAX_TOKEN_LEN;
use tantivy::{Index, IndexWriter, TantivyDocument, Term};

pub(crate) use tokenizer::{BowlineTokenizer, TOKENIZER};

use crate::analyze::{Analyzer, AnalyzerConfig};
use crate::corpus::{Document, Entry, ReadCounts};
use crate::error::{Error, Result};

/// The payload format this bowline writes and reads.
const PAYLOAD_VERSION: u32 = 1;
/// tantivy's indexing memory, shared by its threads.
const WRITER_MEMORY: usize = 100_000_000;

/// What the index keeps beside its documents, in every commit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Payload {
    version: u32,
    analyzer: AnalyzerConfig,
    /// The sequence number of the next document added.
    next_seq: u64,
    /// Files skipped as binary, over every indexing run.
    binary: u64,
    /// Files or lines that could not be read, over every indexing run.
    failed: u64,
}

/// The schema's fields.
#[derive(Debug, Clone, Copy)]
struct Fields {
    id: Field,
    label: Field,
    text: Field,
    seq: Field,
    bytes: Field,
    windows_1252: Field,
    truncated_from: Field,
}

impl Fields {
    fn schema() -> (Schema, Fields) {
        let mut builder = Schema::builder();
        let analyzed = TextFieldIndexing::default()
            .set_tokenizer(TOKENIZER)
            .set_index_option(IndexRecordOption::WithFreqs);
        let text = TextOptions::default()
            .set_indexing_options(analyzed)
            .set_stored();
        let fields = Fields {
            id: builder.add_text_field("id", STRING | STORED),
            label: builder.add_text_field("label", STRING | STORED),
            text: builder.add_text_field("text", text),
            seq: builder.add_u64_field("seq", INDEXED | FAST | STORED),
            bytes: builder.add_u64_field("bytes", STORED),
            windows_1252: builder.add_u64_field("windows_1252", STORED),
            truncated_from: builder.add_u64_field("truncated_from", STORED),
        };
        (builder.build(), fields)
    }

    fn from(schema: &Schema, dir: &Path) -> Result<Fields> {
        let field = |name: &str| {
            schema
                .get_field(name)
                .map_err(|_| Error::input(dir, format!("not a bowline index: no field '{name}'")))
        };
        Ok(Fields {
            id: field("id")?,
            label: field("label")?,
            text: field("text")?,
            seq: field("seq")?,
            bytes: field("bytes")?,
            windows_1252: field("windows_1252")?,
            truncated_from: field("truncated_from")?,
        })
    }
}

fn tantivy_error(dir: &Path, error: impl std::fmt::Display) -> Error {
    Error::input(dir, format!("index: {error}"))
}

/// True when `dir` holds a tantivy index.
fn is_index(dir: &Path) -> bool {
    dir.join("meta.json").is_file()
}

/// An open index, its fields and its payload.
struct Opened {
    index: Index,
    fields: Fields,
    payload: Payload,
}

impl Opened {
    fn open(dir: &Path) -> Result<Opened> {
        if !is_index(dir) {
            return Err(Error::input(
                dir,
                "not a bowline index (no meta.json); create one with `bowline index`",
            ));
        }
        let index = Index::open_in_dir(dir).map_err(|e| tantivy_error(dir, e))?;
        let fields = Fields::from(&index.schema(), dir)?;
        let metas = index.load_metas().map_err(|e| tantivy_error(dir, e))?;
        let text = metas
            .payload
            .ok_or_else(|| Error::input(dir, "not a bowline index: no payload"))?;
        let payload: Payload = serde_json::from_str(&text)
            .map_err(|e| Error::input(dir, format!("not a bowline index payload: {e}")))?;
        if payload.version != PAYLOAD_VERSION {
            return Err(Error::input(
                dir,
                format!(
                    "index payload version {} (this bowline reads {PAYLOAD_VERSION})",
                    payload.version
                ),
            ));
        }
        let opened = Opened {
            index,
            fields,
            payload,
        };
        opened.register()?;
        Ok(opened)
    }

    fn create(dir: &Path, analyzer: AnalyzerConfig) -> Result<Opened> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let (schema, fields) = Fields::schema();
        let index = Index::create_in_dir(dir, schema).map_err(|e| tantivy_error(dir, e))?;
        let opened = Opened {
            index,
            fields,
            payload: Payload {
                version: PAYLOAD_VERSION,
                analyzer,
                next_seq: 0,
                binary: 0,
                failed: 0,
            },
        };
        opened.register()?;
        Ok(opened)
    }

    fn register(&self) -> Result<()> {
        let analyzer = Analyzer::new(self.payload.analyzer.clone())?;
        self.index
            .tokenizers()
            .register(TOKENIZER, BowlineTokenizer::new(Arc::new(analyzer)));
        Ok(())
    }
}

/// Adds documents to an index; nothing is visible until [`CorpusIndexWriter::commit`].
pub(crate) struct CorpusIndexWriter {
    opened: Opened,
    writer: IndexWriter,
    dir: std::path::PathBuf,
    added: u64,
}

impl CorpusIndexWriter {
    /// Opens `dir` for writing. Appending keeps the documents and the analysis of an existing
    /// index (`analyzer`, when given, must equal it); otherwise a new index replaces whatever
    /// index was in `dir`, with `analyzer` or the default analysis. A folder that is not empty
    /// and holds no index is refused rather than filled.
    pub(crate) fn open(dir: &Path, append: bool, analyzer: Option<AnalyzerConfig>) -> Result<Self> {
        let opened = if append && is_index(dir) {
            let opened = Opened::open(dir)?;
            if analyzer
                .as_ref()
                .is_some_and(|a| *a != opened.payload.analyzer)
            {
                return Err(Error::input(
                    dir,
                    "the index was built with other analysis flags; append without them",
                ));
            }
            opened
        } else {
            refuse_foreign_folder(dir)?;
            if is_index(dir) {
                std::fs::remove_dir_all(dir).map_err(|e| Error::io(dir, e))?;
            }
            Opened::create(dir, analyzer.unwrap_or_default())?
        };
        let writer = opened
            .index
            .writer(WRITER_MEMORY)
            .map_err(|e| tantivy_error(dir, e))?;
        Ok(CorpusIndexWriter {
            opened,
            writer,
            dir: dir.to_path_buf(),
            added: 0,
        })
    }

    /// Adds one entry: a document replaces any document with its id; a skipped entry is counted.
    pub(crate) fn add(&mut self, entry: &Entry) -> Result<()> {
        let mut skipped = ReadCounts::default();
        skipped.add(entry);
        let payload = &mut self.opened.payload;
        payload.binary += skipped.binary;
        payload.failed += skipped.failed;
        if !entry.is_document() {
            return Ok(());
        }
        let f = self.opened.fields;
        let doc = &entry.doc;
        let key = id_key(&doc.id);
        self.writer.delete_term(Term::from_field_text(f.id, &key));
        let mut stored = TantivyDocument::default();
        stored.add_text(f.id, &doc.id);
        if key != doc.id {
            stored.add_text(f.id, &key);
        }
        // Every label of a multi-label document, in its order: a tantivy field holds any
        // number of values, so the schema is the one single-label indexes have.
        for label in doc.label_set() {
            stored.add_text(f.label, &label);
        }
        stored.add_text(f.text, &doc.text);
        stored.add_u64(f.seq, payload.next_seq);
        stored.add_u64(f.bytes, entry.bytes);
        stored.add_u64(f.windows_1252, u64::from(entry.decoded_windows_1252));
        if let Some(size) = entry.truncated_from {
            stored.add_u64(f.truncated_from, size);
        }
        payload.next_seq += 1;
        self.added += 1;
        self.writer
            .add_document(stored)
            .map_err(|e| tantivy_error(&self.dir, e))?;
        Ok(())
    }

    /// Makes the added documents visible, saving the payload with them; returns how many were
    /// added.
    pub(crate) fn commit(mut self) -> Result<u64> {
        let payload = serde_json::to_string(&self.opened.payload)
            .map_err(|e| Error::Config(format!("cannot encode the index payload: {e}")))?;
        let dir = &self.dir;
        let mut prepared = self
            .writer
            .prepare_commit()
            .map_err(|e| tantivy_error(dir, e))?;
        prepared.set_payload(&payload);
        prepared.commit().map_err(|e| tantivy_error(dir, e))?;
        self.writer
            .wait_merging_threads()
            .map_err(|e| tantivy_error(dir, e))?;
        Ok(self.added)
    }
}

/// The term an id is found by. Tantivy drops terms longer than [`MAX_TOKEN_LEN`] bytes without
/// an error, so a longer id could never be found to be replaced: it is found by a second value of
/// the id field instead: its length and digest, after a NUL so that it does not pass for an
/// ordinary id. The stored id stays the first value, so reading is unchanged, and indexes
/// written before keep working.
fn id_key(id: &str) -> std::borrow::Cow<'_, str> {
    if id.len() <= MAX_TOKEN_LEN {
        return id.into();
    }
    format!("\0long id:{}:{:032x}", id.len(), fnv1a_128(id.as_bytes())).into()
}

/// The 128-bit FNV-1a hash: fixed by its definition, so keys written by one build are found by
/// every later one, which `std`'s hashers do not promise.
fn fnv1a_128(bytes: &[u8]) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013b;
    bytes.iter().fold(OFFSET, |hash, &byte| {
        (hash ^ u128::from(byte)).wrapping_mul(PRIME)
    })
}

fn refuse_foreign_folder(dir: &Path) -> Result<()> {
    let Ok(mut children) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    if !is_index(dir) && children.next().is_some() {
        return Err(Error::input(
            dir,
            "folder exists, is not empty and holds no index; choose another --index folder",
        ));
    }
    Ok(())
}

/// An index read back: its analysis, its documents in indexing order, and the skipped inputs.
#[derive(Debug)]
pub struct IndexedCorpus {
    /// The analysis the index was built with.
    pub analyzer: AnalyzerConfig,
    /// Every document, as the entry it was read as.
    pub entries: Vec<Entry>,
    /// Binary files skipped while indexing.
    pub binary: u64,
    /// Inputs that could not be read while indexing.
    pub failed: u64,
}

/// The analysis of the index in `dir`.
pub fn analysis(dir: &Path) -> Result<AnalyzerConfig> {
    Ok(Opened::open(dir)?.payload.analyzer)
}

/// Reads every document of the index in `dir`, in indexing order.
pub fn read(dir: &Path) -> Result<IndexedCorpus> {
    let opened = Opened::open(dir)?;
    let reader = opened.index.reader().map_err(|e| tantivy_error(dir, e))?;
    let searcher = reader.searcher();
    let mut entries = Vec::new();
    for segment in searcher.segment_readers() {
        let store = segment.get_store_reader(1).map_err(|e| Error::io(dir, e))?;
        for doc in store.iter::<TantivyDocument>(segment.alive_bitset()) {
            let doc = doc.map_err(|e| tantivy_error(dir, e))?;
            entries.push(entry_of(&doc, &opened.fields, dir)?);
        }
    }
    entries.sort_by_key(|(seq, _)| *seq);
    Ok(IndexedCorpus {
        analyzer: opened.payload.analyzer,
        entries: entries.into_iter().map(|(_, entry)| entry).collect(),
        binary: opened.payload.binary,
        failed: opened.payload.failed,
    })
}

fn entry_of(doc: &TantivyDocument, f: &Fields, dir: &Path) -> Result<(u64, Entry)> {
    let text = |field| doc.get_first(field).and_then(|v| v.as_str());
    let number = |field| doc.get_first(field).and_then(|v| v.as_u64());
    let missing = |what: &str| Error::input(dir, format!("index document without {what}"));
    let mut document = Document {
        id: text(f.id).ok_or_else(|| missing("an id"))?.to_string(),
        text: text(f.text).ok_or_else(|| missing("a text"))?.to_string(),
        ..Document::default()
    };
    let labels = doc.get_all(f.label).filter_map(|v| v.as_str());
    document.set_labels(labels.map(str::to_string).collect());
    let seq = number(f.seq).ok_or_else(|| missing("a sequence number"))?;
    let mut entry = Entry::loaded(document, number(f.bytes).unwrap_or(0));
    entry.decoded_windows_1252 = number(f.windows_1252) == Some(1);
    entry.truncated_from = number(f.truncated_from);
    Ok((seq, entry))
}
