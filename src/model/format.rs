//! The model file: everything needed to classify text the way the model was trained.
//!
//! Layout: the 8 magic bytes `BOWLINE\x01`, the format version (u32, little-endian), the payload
//! length (u64) and its CRC-32 (u32), then the payload: the [`Model`] in postcard's compact binary
//! encoding. A truncated, corrupted, foreign or future file is recognised from the header before
//! any decoding, and each case gets its own message. Files are written atomically.

use std::io::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Classifier, TrainingInfo};
use crate::error::{Error, Result};
use crate::vectorize::FittedVectorizer;

const MAGIC: &[u8; 8] = b"BOWLINE\x01";
/// The newest format this bowline writes, that of a multi-label model. It reads this one and
/// the earlier ones: [`SINGLE_LABEL_VERSION`] and those in [`legacy`].
pub const FORMAT_VERSION: u32 = 5;
/// The format of a model without multi-label parts, written as before multi-label models
/// existed, so that older bowlines still read it (version 5 only added a kind of classifier,
/// at the end of the list, so a version 4 file decodes as version 5).
pub const SINGLE_LABEL_VERSION: u32 = 4;
const HEADER: usize = 8 + 4 + 8 + 4;

/// A model file's contents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// Analysis, vocabulary and weighting: documents must go through this first.
    pub vectorizer: FittedVectorizer,
    /// Class names; a classifier's class `c` is `labels[c]`.
    pub labels: Vec<String>,
    /// The classifier.
    pub classifier: Classifier,
    /// Provenance.
    pub info: TrainingInfo,
}

impl Model {
    /// Encodes the model with its header.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut bytes = Vec::new();
        self.write_to(&mut bytes, Path::new("(memory)"))?;
        Ok(bytes)
    }

    /// Writes the header and the payload to `out` (`path` names it in errors). The payload is
    /// encoded twice, first only to learn its length and checksum for the header: no copy of a
    /// model of tens of megabytes is ever held in memory.
    fn write_to(&self, out: &mut impl std::io::Write, path: &Path) -> Result<()> {
        let encode = |e: postcard::Error| {
            Error::Config(format!("cannot write the model to {}: {e}", path.display()))
        };
        // postcard reports any failure to write as a full buffer; the writer's own error ("no
        // space left on device") is the one to report.
        let mut out = Remembering {
            inner: out,
            error: None,
        };
        let fail = |e: postcard::Error, out: &mut Remembering<'_, _>| match out.error.take() {
            Some(io) => Error::io(path, io),
            None => encode(e),
        };
        let mut digest = Digest::default();
        postcard::to_io(self, &mut digest).map_err(encode)?;
        let mut header = Vec::with_capacity(HEADER);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&self.format_version().to_le_bytes());
        header.extend_from_slice(&digest.length.to_le_bytes());
        header.extend_from_slice(&digest.crc.finalize().to_le_bytes());
        out.write_all(&header).map_err(|e| Error::io(path, e))?;
        if let Err(e) = postcard::to_io(self, &mut out) {
            return Err(fail(e, &mut out));
        }
        Ok(())
    }

    /// The version this model is written as: [`FORMAT_VERSION`] for a multi-label model, which
    /// an older bowline cannot read and should say so, else [`SINGLE_LABEL_VERSION`].
    pub fn format_version(&self) -> u32 {
        if self.classifier.multi_label().is_some() {
            FORMAT_VERSION
        } else {
            SINGLE_LABEL_VERSION
        }
    }

    /// Decodes a model; `path` names the file in error messages.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Self> {
        let problem = |message: String| Error::Format {
            path: path.to_path_buf(),
            message,
        };
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(problem("not a bowline model file".into()));
        }
        if bytes.len() < HEADER {
            return Err(problem(
                "truncated model file: the header is incomplete".into(),
            ));
        }
        let field = |range: std::ops::Range<usize>| -> [u8; 8] {
            let mut out = [0u8; 8];
            out[..range.len()].copy_from_slice(&bytes[range]);
            out
        };
        let version = u64::from_le_bytes(field(8..12)) as u32;
        if !(legacy::VERSION_3..=FORMAT_VERSION).contains(&version) {
            return Err(problem(format!(
                "model format version {version}; this bowline reads versions {} to \
                 {FORMAT_VERSION}",
                legacy::VERSION_3
            )));
        }
        let length = u64::from_le_bytes(field(12..20));
        let checksum = u64::from_le_bytes(field(20..24)) as u32;
        let payload = &bytes[HEADER..];
        if payload.len() as u64 != length {
            return Err(problem(format!(
                "truncated model file: {} of {length} payload bytes",
                payload.len()
            )));
        }
        if crc32fast::hash(payload) != checksum {
            return Err(problem("corrupted model file: checksum mismatch".into()));
        }
        let decoded = match version {
            legacy::VERSION_3 => legacy::decode_3(payload),
            _ => postcard::from_bytes(payload).map_err(|e| e.to_string()),
        };
        let model = decoded.map_err(|e| problem(format!("corrupted model file: {e}")))?;
        model.classifier.check().map_err(|e| match e {
            Error::Config(message) => problem(format!("corrupted model file: {message}")),
            other => other,
        })?;
        model.parts_fit().map_err(problem)?;
        Ok(model)
    }

    /// Checks that the parts agree where the classifier relies on it (found by the
    /// model-loading fuzz target). A classifier scores one class per label, and at least one:
    /// a file whose parts disagreed passed every other check, then panicked at its first
    /// prediction, indexing past its labels. It has one feature per term: naive Bayes stores
    /// its count of features as a bare number, and a file claiming some 7 × 10^16 of them made
    /// the first prediction ask for 133 TB.
    fn parts_fit(&self) -> std::result::Result<(), String> {
        let (labels, classes) = (self.labels.len(), self.classifier.classes());
        if classes == 0 || classes != labels {
            return Err(format!(
                "corrupted model file: {labels} class names for a classifier of {classes} classes"
            ));
        }
        let (terms, features) = (self.vectorizer.terms().len(), self.classifier.features());
        if features != terms {
            return Err(format!(
                "corrupted model file: {terms} terms for a classifier of {features} features"
            ));
        }
        Ok(())
    }

    /// Writes the model atomically under the model's lock: a crash never leaves a broken file
    /// under `path`, and concurrent writers take turns.
    pub fn save(&self, path: &Path) -> Result<()> {
        self.save_locked(&ModelLock::acquire(path)?)
    }

    /// Writes the model atomically to the file whose lock the caller holds: how a command that
    /// reads, changes and writes a model keeps the lock from the read to the write.
    pub fn save_locked(&self, lock: &ModelLock) -> Result<()> {
        let mut output = crate::io::Output::create(&lock.model)?;
        self.write_to(&mut output, &lock.model)?;
        output.commit()
    }

    /// Reads a model written by [`Model::save`].
    ///
    /// The file is mapped rather than read when it can be: reading a 40 MB model copied it into
    /// 40 MB of fresh memory that the kernel first had to zero, only to be decoded and freed.
    pub fn load(path: &Path) -> Result<Self> {
        let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        // SAFETY: the mapping is only read, and only while this function runs. bowline never
        // changes a model file in place (it writes a new file and renames it over the old), so
        // the bytes cannot change under the decoder unless another program truncates or
        // rewrites the file during these milliseconds.
        if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
            return Model::from_bytes(&map, path);
        }
        // Empty files and some special files cannot be mapped.
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut &file, &mut bytes).map_err(|e| Error::io(path, e))?;
        Model::from_bytes(&bytes, path)
    }
}

/// An exclusive lock on a model file, held while it lives: on `.NAME.lock` beside the model (the
/// link's target when the model's path is a symbolic link, so that every name of a model shares
/// one lock), so the lock outlives the renames that replace the model itself. Two processes that
/// update one model take turns, and neither update is lost.
#[derive(Debug)]
pub struct ModelLock {
    _file: std::fs::File,
    model: std::path::PathBuf,
}

impl ModelLock {
    /// Waits for the lock of the model at `model` (which need not exist yet), then removes the
    /// temporary files that writers of the model killed before their commit left: holding the
    /// lock proves that none of them is still writing.
    pub fn acquire(model: &Path) -> Result<Self> {
        let target = crate::io::resolve_links(model)?;
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        let path = target.with_file_name(format!(".{name}.lock"));
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        file.lock().map_err(|e| Error::io(&path, e))?;
        crate::io::remove_stale_temps(&target);
        Ok(ModelLock {
            _file: file,
            model: model.to_path_buf(),
        })
    }
}

/// A writer that passes everything on and keeps the first error it meets.
struct Remembering<'w, W> {
    inner: &'w mut W,
    error: Option<std::io::Error>,
}

impl<W: std::io::Write> std::io::Write for Remembering<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf).inspect_err(|e| self.remember(e))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().inspect_err(|e| self.remember(e))
    }
}

impl<W> Remembering<'_, W> {
    fn remember(&mut self, error: &std::io::Error) {
        if self.error.is_none() {
            self.error = Some(std::io::Error::new(error.kind(), error.to_string()));
        }
    }
}

/// A writer that keeps only the length and CRC-32 of what it is given.
#[derive(Default)]
struct Digest {
    length: u64,
    crc: crc32fast::Hasher,
}

impl std::io::Write for Digest {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.length += buf.len() as u64;
        self.crc.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Model files of earlier formats, read into today's [`Model`].
pub mod legacy {
    use serde::Deserialize;

    use super::Model;
    use crate::analyze::{AnalyzerConfig, Language, StopWords};
    use crate::model::{Classifier, TrainingInfo};
    use crate::vectorize::{FittedVectorizer, TermList, VectorizerConfig};

    /// Version 3: an analysis without character n-grams, provenance without tuning.
    pub const VERSION_3: u32 = 3;

    #[derive(Deserialize)]
    struct Analysis3 {
        min_token_len: usize,
        max_token_len: usize,
        lowercase: bool,
        stop_words: StopWords,
        stemmer: Option<Language>,
        ngram_min: usize,
        ngram_max: usize,
    }

    #[derive(Deserialize)]
    struct Vectorizer3 {
        analyzer: Analysis3,
        config: VectorizerConfig,
        n_docs: u32,
        terms: TermList,
        df: Vec<u32>,
    }

    #[derive(Deserialize)]
    struct Info3 {
        corpora: Vec<String>,
        docs_per_class: Vec<u64>,
        bowline_version: String,
        written: String,
    }

    #[derive(Deserialize)]
    struct Model3 {
        vectorizer: Vectorizer3,
        labels: Vec<String>,
        classifier: Classifier,
        info: Info3,
    }

    /// Decodes a version 3 payload.
    pub(super) fn decode_3(payload: &[u8]) -> Result<Model, String> {
        let old: Model3 = postcard::from_bytes(payload).map_err(|e| e.to_string())?;
        let v = old.vectorizer;
        let a = v.analyzer;
        let analyzer = AnalyzerConfig {
            min_token_len: a.min_token_len,
            max_token_len: a.max_token_len,
            lowercase: a.lowercase,
            stop_words: a.stop_words,
            stemmer: a.stemmer,
            ngram_min: a.ngram_min,
            ngram_max: a.ngram_max,
            char_ngrams: None,
            words: true,
        };
        let vectorizer = FittedVectorizer::from_parts(analyzer, v.config, v.terms, v.df, v.n_docs)
            .map_err(|e| e.to_string())?;
        let info = TrainingInfo {
            corpora: old.info.corpora,
            docs_per_class: old.info.docs_per_class,
            bowline_version: old.info.bowline_version,
            tuned: None,
            written: old.info.written,
        };
        Ok(Model {
            vectorizer,
            labels: old.labels,
            classifier: old.classifier,
            info,
        })
    }
}

#[cfg(test)]
mod tests;
