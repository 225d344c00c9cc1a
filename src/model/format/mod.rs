//! The model file: everything needed to classify text the way the model was trained.
//!
//! # Layout
//!
//! A file of format 6 or later, every number little-endian:
//!
//! | Bytes | Content |
//! |-------|---------|
//! | 8 | the magic bytes `BOWLINE\x01` |
//! | 4 | the format version (u32) |
//! | 8 + 4 | the length (u64) and CRC-32 (u32) of the postcard part |
//! | 8 + 4 | the length (u64) and CRC-32 (u32) of the sections |
//! | 4 | zero, so that the sections start at a multiple of 8 |
//! | sections | the large arrays, raw, each at a multiple of 8 bytes and padded with zeros to it, which a loaded model uses where they lie in the mapped file (see [`crate::packed`]) |
//! | postcard part | the [`Model`] in postcard's compact binary encoding, each large array replaced by its offset among the sections and its number of elements |
//!
//! A file of formats 3 to 5 ends after the first CRC-32 with one postcard part that holds
//! everything, the large arrays as packed byte strings (the terms as their text and lengths,
//! document frequencies as a plain sequence).
//!
//! Loading checks both CRC-32s, the sections' too, and that every array lies within the file:
//! every byte is checked on every load, mapped or read, at the cost of reading the file once
//! (measured: `classify` of one line with a 223 MB model took 163 ms instead of 20 ms with the
//! file in the page cache, mostly in faulting in the mapped pages). A truncated, corrupted, foreign or future file is recognised
//! from the header before any decoding, and each case gets its own message, naming the part
//! that failed its checksum. Files are written atomically.
//!
//! # Versions
//!
//! | Format | Added |
//! |--------|-------|
//! | 3 | the oldest format read |
//! | 4 | character n-grams and word terms on or off in the analysis; the record of `train --tune` |
//! | 5 | multi-label models (the classifier's last variant) |
//! | 6 | the sections and their header, the terms as their text and ends; idf, naive Bayes' scorer and k-NN's posting weights stored rather than computed on loading |
//! | 7 | how terms are hashed (`--hash-bits`), at the end of the vectorizer |
//! | 8 | the weight of word n-grams (`--ngram-weight`), after it |
//! | 9 | in the tuning record, whether tuning kept its starting configuration over a better trial |
//! | 10 | for hashed terms, the hashed columns that occur, at the end of the vectorizer; arrays hold those columns alone instead of all 2^bits. Only a hashed model is written in format 10; any other is written in format 9, as before |
//! | 11 | the kernel SVM, the classifier's last variant: its kernel, support vectors (as sections), coefficients, intercepts and sigmoids. Only a model with a kernel SVM is written in format 11, hashed or not; any other is written in format 9 or 10, as before |
//! | 12 | the linear SVM over a kernel approximation (`--approx`), the classifier's last variant: its feature map (Nyström's landmarks and map as sections, or random Fourier features' seed, γ, offsets and per-column keys) and the linear SVM. Only such a model is written in format 12 |
//! | 13 | the class of each of the kernel SVM's support vectors (a section, after its sigmoids), which `update` needs. A model with a kernel SVM is written in format 13; one of format 11 is still read, and refused by `update` |
//! | 14 | the tokenizer (`--tokenizer`), at the end of the analysis. Only a model whose tokenizer is not the default is written in format 14, with every field; any other is written as before |
//! | 15 | how random Fourier features draw their weights, at the end of their map: the ziggurat for a map fitted now, Box–Muller for one read from an earlier format. Only a linear SVM over random Fourier features is written in format 15, with every field; any other is written as before |
//!
//! `versions.rs` holds the same history as the decoder reads it: the fields that each format
//! added, which a file of an earlier format lacks and which read as their defaults (not hashed,
//! n-gram weight 1, not kept, and so on).

mod versions;

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use self::versions::{
    APPROX_FORMAT_VERSION, FORMAT_VERSION, FOURIER_FORMAT_VERSION, HASHED_FORMAT_VERSION,
    KERNEL_FORMAT_VERSION, TOKENIZER_FORMAT_VERSION,
};
use super::approx::Approximation;
use super::{Classifier, TrainingInfo};
use crate::error::{Error, Result};
use crate::packed::sections::{self, Backing, Reader, Sections};
use crate::vectorize::FittedVectorizer;

const MAGIC: &[u8; 8] = b"BOWLINE\x01";
/// The header of formats 3 to 5: magic bytes, version, and the postcard part's length and CRC-32.
const HEADER: usize = 8 + 4 + 8 + 4;
/// The header of format 6 on: [`HEADER`], then the sections' length and CRC-32 and 4 bytes that
/// align the sections.
const HEADER_6: usize = HEADER + 8 + 4 + 4;

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
    /// Encodes the model with its header, into a buffer of the exact size: growing one by
    /// doubling would copy a large model several times over.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let path = Path::new("(memory)");
        let (header, length) = self.header(path)?;
        let mut bytes = Vec::with_capacity(length);
        bytes.extend_from_slice(&header);
        self.write_body(&mut bytes, path)?;
        Ok(bytes)
    }

    /// Writes the header, the sections and the postcard part to `out` (`path` names it in
    /// errors), after telling `announce` the fingerprint of what it writes. The model is
    /// encoded twice: first only to learn the lengths and checksums for the header, then to
    /// write each section as it is met, keeping only the small postcard part in memory to write
    /// last. No copy of a model of tens of megabytes is ever made.
    fn write_to(
        &self,
        out: &mut impl std::io::Write,
        path: &Path,
        announce: impl FnOnce(&[u8]) -> Result<()>,
    ) -> Result<()> {
        let (header, _) = self.header(path)?;
        announce(Model::fingerprint_of(&header).as_bytes())?;
        out.write_all(&header).map_err(|e| Error::io(path, e))?;
        self.write_body(out, path)
    }

    /// The header, from a first encoding that only measures, and the length of the whole file.
    fn header(&self, path: &Path) -> Result<(Vec<u8>, usize)> {
        // Parts derived from others are stored, so that loading need not compute them.
        self.classifier.derive_stored_parts();
        let version = self.version();
        let measured = sections::encode(self, None, (version, self.every_field()))
            .map_err(|e| failed(path, e))?;
        let postcard = measured.postcard.len() as u64;
        let mut header = Vec::with_capacity(HEADER_6);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&version.to_le_bytes());
        header.extend_from_slice(&postcard.to_le_bytes());
        header.extend_from_slice(&crc32fast::hash(&measured.postcard).to_le_bytes());
        header.extend_from_slice(&measured.length.to_le_bytes());
        header.extend_from_slice(&measured.crc.to_le_bytes());
        header.extend_from_slice(&[0u8; 4]);
        let length = HEADER_6 as u64 + measured.length + postcard;
        Ok((header, usize::try_from(length).unwrap_or(0)))
    }

    /// The format this model is written in: the oldest that holds all of it.
    fn version(&self) -> u32 {
        let approximated = self.classifier.approximated();
        let fourier = approximated.is_some_and(|a| a.map.approximation() == Approximation::Fourier);
        match (self.every_field(), self.vectorizer.hashing()) {
            _ if fourier => FOURIER_FORMAT_VERSION,
            _ if self.other_tokenizer() => TOKENIZER_FORMAT_VERSION,
            (true, _) if approximated.is_some() => APPROX_FORMAT_VERSION,
            (true, _) => KERNEL_FORMAT_VERSION,
            (false, Some(_)) => HASHED_FORMAT_VERSION,
            (false, None) => FORMAT_VERSION,
        }
    }

    /// Whether the model is written in a format that holds every field its reader reads (the
    /// hashed columns even when empty): a model with a kernel SVM (format 13), a linear SVM
    /// over a kernel approximation (format 12, or 15 over random Fourier features) or a
    /// tokenizer other than the default (format 14, or 15). Any other is written in format 9 or
    /// 10, as before those formats.
    fn every_field(&self) -> bool {
        self.classifier.kernel_svm().is_some()
            || self.classifier.approximated().is_some()
            || self.other_tokenizer()
    }

    /// Whether the analysis has a tokenizer other than the default, which only format 14 holds.
    fn other_tokenizer(&self) -> bool {
        !self.vectorizer.analyzer().tokenizer.is_unicode()
    }

    /// Writes the sections, then the postcard part, after the header.
    fn write_body(&self, out: &mut impl std::io::Write, path: &Path) -> Result<()> {
        let encoded = sections::encode(self, Some(&mut *out), (self.version(), self.every_field()))
            .map_err(|e| failed(path, e))?;
        out.write_all(&encoded.postcard)
            .map_err(|e| Error::io(path, e))
    }

    /// Decodes a model; `path` names the file in error messages. A model of format 6 is copied
    /// once, to memory aligned for its arrays.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<Self> {
        let version = check_header(bytes, path)?;
        if version >= versions::SECTIONS {
            return Model::from_backing(Arc::new(Backing::copied(bytes)), path);
        }
        Model::decode(
            Reader::new(&bytes[HEADER..], version, versions::FIELDS, None),
            path,
        )
    }

    /// Decodes a model of format 6 or later whose header [`check_header`] accepted.
    fn from_backing(backing: Arc<Backing>, path: &Path) -> Result<Self> {
        let bytes = backing.bytes();
        let postcard = HEADER_6 + u64_at(bytes, 24) as usize;
        let sections = Sections::new(Arc::clone(&backing), HEADER_6..postcard);
        let reader = Reader::new(
            &bytes[postcard..],
            version_of(bytes),
            versions::FIELDS,
            Some(sections),
        );
        Model::decode(reader, path)
    }

    /// Decodes the postcard part that `reader` reads, and checks the model.
    fn decode(mut reader: Reader, path: &Path) -> Result<Self> {
        let model = Model::deserialize(&mut reader).map_err(|e| corrupted(path, e))?;
        model.checked(path)
    }

    /// Checks the decoded model's parts.
    fn checked(mut self, path: &Path) -> Result<Self> {
        // The number of features naive Bayes' smoothing counts is the vectorizer's to say.
        self.classifier.set_space(self.vectorizer.space());
        let problem = |message: String| Error::Format {
            path: path.to_path_buf(),
            message,
        };
        self.classifier.check().map_err(|e| match e {
            Error::Config(message) => corrupted(path, message),
            other => other,
        })?;
        self.parts_fit().map_err(problem)?;
        Ok(self)
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
        let (terms, features) = (self.vectorizer.n_features(), self.classifier.features());
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
    pub(crate) fn save_locked(&self, lock: &ModelLock) -> Result<()> {
        self.save_announced(lock, |_| Ok(()))
    }

    /// Writes the model as [`Model::save_locked`] does, and tells `announce` the new file's
    /// fingerprint (see [`Model::fingerprint`]) before the file is renamed into place: how a
    /// server's write-ahead log names the file that will hold its documents, so that after a
    /// crash it knows whether the rename happened.
    pub(crate) fn save_announced(
        &self,
        lock: &ModelLock,
        announce: impl FnOnce(&[u8]) -> Result<()>,
    ) -> Result<()> {
        let mut output = crate::io::Output::create(&lock.model)?;
        self.write_to(&mut output, &lock.model, announce)?;
        output.commit()
    }

    /// Reads a model written by [`Model::save`].
    ///
    /// The file is mapped rather than read when it can be. A model of format 6 keeps the
    /// mapping: its large arrays are used where they lie in it, so loading costs little more
    /// than decoding the small postcard part, however large the model.
    pub fn load(path: &Path) -> Result<Self> {
        let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        Model::load_open(file, path)
    }

    /// Reads a model from a file opened for reading, as [`Model::load`] does; a model that
    /// keeps the mapping keeps `file` open too, until its last array is dropped, so that a
    /// lease taken on it (`fcntl(F_SETLEASE)`) lasts exactly as long as the mapping is read.
    pub(crate) fn load_open(file: std::fs::File, path: &Path) -> Result<Self> {
        // SAFETY: the mapping is only read, and `check_header` checks that every byte the
        // header promises is there before anything else reads it. bowline never changes a model
        // file in place: it writes a new file and renames it over the old, so a mapping keeps
        // the old file's bytes for as long as a model uses it. Another program that truncated
        // or rewrote the file in place while a model is in use would change or remove bytes
        // under it: reading a removed page raises SIGBUS. That risk is the price of not copying;
        // a program that keeps a model for long guards the file with a lease, as `bowline
        // serve` does, or uses `Model::read` instead.
        if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
            if check_header(&map, path)? >= versions::SECTIONS {
                return Model::from_backing(Arc::new(Backing::mapped(map, file)), path);
            }
            return Model::from_bytes(&map, path);
        }
        // Empty files and some special files cannot be mapped.
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut &file, &mut bytes).map_err(|e| Error::io(path, e))?;
        Model::from_bytes(&bytes, path)
    }

    /// Reads a model into memory, for a program that keeps it for long and cannot guard its
    /// file, as `bowline serve` does when it cannot take a lease. A model that [`Model::load`]
    /// mapped reads its file as long as it is used, so a program that rewrote the file in place
    /// (`cp` over it, `>` in a shell) would take its pages away and stop the process with
    /// SIGBUS; a model read here never reads the file again. It costs one copy of the file.
    pub fn read(path: &Path) -> Result<Self> {
        let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let backing = Backing::read(&file).map_err(|e| Error::io(path, e))?;
        if check_header(backing.bytes(), path)? >= versions::SECTIONS {
            return Model::from_backing(Arc::new(backing), path);
        }
        Model::from_bytes(backing.bytes(), path)
    }

    /// What tells one model file from another without reading it whole: its header (in hex),
    /// whose lengths and CRC-32s cover every byte after it (before format 6, the one CRC-32
    /// covers the payload).
    pub fn fingerprint(path: &Path) -> Result<String> {
        use std::io::Read;
        let mut header = Vec::with_capacity(HEADER_6);
        std::fs::File::open(path)
            .and_then(|file| file.take(HEADER_6 as u64).read_to_end(&mut header))
            .map_err(|e| Error::io(path, e))?;
        Ok(Model::fingerprint_of(&header))
    }

    /// The fingerprint of the file whose bytes are `bytes`, as [`Model::fingerprint`] reads it.
    pub(crate) fn fingerprint_of(bytes: &[u8]) -> String {
        let header = &bytes[..bytes.len().min(HEADER_6)];
        header.iter().map(|byte| format!("{byte:02x}")).collect()
    }
}

/// The error of a failed [`sections::encode`]: writing's, or else the encoding's.
fn failed(path: &Path, failure: sections::Failure) -> Error {
    match failure {
        sections::Failure::Write(error) => Error::io(path, error),
        sections::Failure::Encode(error) => Error::Config(format!(
            "cannot write the model to {}: {error}",
            path.display()
        )),
    }
}

fn corrupted(path: &Path, message: impl std::fmt::Display) -> Error {
    Error::Format {
        path: path.to_path_buf(),
        message: format!("corrupted model file: {message}"),
    }
}

/// The little-endian number of at most 8 bytes at `at` (4 bytes when followed by fewer).
fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut out = [0u8; 8];
    let end = (at + 8).min(bytes.len());
    out[..end - at].copy_from_slice(&bytes[at..end]);
    u64::from_le_bytes(out)
}

fn version_of(bytes: &[u8]) -> u32 {
    u64_at(&bytes[..12], 8) as u32
}

/// Checks a model file's header: magic bytes, a version this bowline reads, every byte the
/// header counts present and no more, and the CRC-32 of the postcard part. Returns the version.
fn check_header(bytes: &[u8], path: &Path) -> Result<u32> {
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
    let version = version_of(bytes);
    if !(versions::OLDEST..=versions::NEWEST).contains(&version) {
        return Err(problem(format!(
            "model format version {version}; this bowline reads versions {} to \
             {}",
            versions::OLDEST,
            versions::NEWEST
        )));
    }
    let header = if version >= versions::SECTIONS {
        HEADER_6
    } else {
        HEADER
    };
    if bytes.len() < header {
        return Err(problem(
            "truncated model file: the header is incomplete".into(),
        ));
    }
    let length = u64_at(bytes, 12);
    let checksum = u64_at(&bytes[..24], 20) as u32;
    // Format 6's sections come between the header and the postcard part.
    let sections = if version >= versions::SECTIONS {
        u64_at(bytes, 24)
    } else {
        0
    };
    let expected = (header as u64)
        .checked_add(sections)
        .and_then(|start| start.checked_add(length));
    let available = bytes.len() as u64;
    match expected {
        Some(expected) if expected == available => {}
        Some(expected) if expected > available => {
            return Err(problem(format!(
                "truncated model file: {available} of {expected} bytes"
            )))
        }
        _ => {
            return Err(problem(format!(
                "corrupted model file: {available} bytes where the header counts {}",
                expected.map_or("more than 2^64".into(), |e| e.to_string())
            )))
        }
    }
    if crc32fast::hash(&bytes[bytes.len() - length as usize..]) != checksum {
        return Err(problem(
            "corrupted model file: checksum mismatch in the postcard part (the model's \
             description)"
                .into(),
        ));
    }
    if version >= versions::SECTIONS {
        check_sections(bytes, sections as usize).map_err(problem)?;
    }
    Ok(version)
}

/// Checks format 6's sections, `length` bytes after the header: their CRC-32, and the header's
/// zero bytes that align them. Every byte of a file is then covered by a check, the arrays too,
/// so a flipped byte anywhere is found on loading, at the cost of reading every page of the file
/// (see the module's documentation).
fn check_sections(bytes: &[u8], length: usize) -> std::result::Result<(), String> {
    let sections = &bytes[HEADER_6..HEADER_6 + length];
    if crc32fast::hash(sections) != u64_at(&bytes[..36], 32) as u32 {
        return Err(
            "corrupted model file: checksum mismatch in the sections (the model's arrays)".into(),
        );
    }
    if bytes[36..HEADER_6] != [0; 4] {
        return Err("corrupted model file: the header's alignment bytes are not zero".into());
    }
    Ok(())
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
    /// The model file the lock guards.
    pub fn path(&self) -> &std::path::Path {
        &self.model
    }

    /// Waits for the lock of the model at `model` (which need not exist yet), then removes the
    /// temporary files that writers of the model killed before their commit left, and finishes
    /// a checkpoint that a killed server left half done (`model::wal::finish_checkpoint`):
    /// holding the lock proves that none of them is still writing.
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
        if crate::model::wal::path_of(model).exists() {
            if let Ok(fingerprint) = Model::fingerprint(model) {
                crate::model::wal::finish_checkpoint(model, fingerprint.as_bytes())?;
            }
        }
        Ok(ModelLock {
            _file: file,
            model: model.to_path_buf(),
        })
    }
}

#[cfg(test)]
mod tests;
