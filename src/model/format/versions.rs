//! Which format version added which field: the one table of the format's history that the
//! model file's reader consults (the format is documented in [`super`]).

use crate::packed::sections::Since;

/// The format this bowline writes a model without hashed terms in.
pub const FORMAT_VERSION: u32 = 9;
/// The format this bowline writes a model with hashed terms (`--hash-bits`) in. Only a hashed vectorizer has the field
/// it added, so a model without hashing is written in format 9, byte for byte as before.
pub const HASHED_FORMAT_VERSION: u32 = 10;
/// The format this bowline writes a model with a kernel SVM in. Format 11 had the kernel SVM
/// without its support vectors' classes; a model of any other kind is written as before.
pub const KERNEL_FORMAT_VERSION: u32 = 13;
/// The format this bowline writes a linear SVM over a kernel approximation in. Only it and
/// format 13 have the classifier's `Approximated` variant, so a model of any other kind is
/// written as before.
pub const APPROX_FORMAT_VERSION: u32 = 12;
/// The format this bowline writes a model whose analysis has a tokenizer other than the default
/// in. Only such a model has the field it added, so any other is written as before.
pub const TOKENIZER_FORMAT_VERSION: u32 = crate::analyze::TOKENIZER_FORMAT;
/// The format this bowline writes a linear SVM over random Fourier features in, the newest: it
/// reads every format from the oldest, 3, to this one. Only such a model has the field it added,
/// so any other is written as before.
pub const FOURIER_FORMAT_VERSION: u32 = 15;
/// The newest format this bowline reads.
pub(super) const NEWEST: u32 = FOURIER_FORMAT_VERSION;
/// The oldest format this bowline reads.
pub(super) const OLDEST: u32 = 3;
/// The first format whose large arrays are sections, which its header locates.
pub(super) const SECTIONS: u32 = 6;

/// The fields that the postcard part gained after format 3, each with the format that added it,
/// by the names serde gives them. Where a file of an earlier format has none of them, the reader
/// reads nothing and the field takes its default (each is `#[serde(default)]` for that): postcard
/// knows no field names, so reading it would take the next field's bytes.
pub(super) const FIELDS: &[Since] = &[
    since(4, "AnalyzerConfig", "char_ngrams"),
    since(4, "AnalyzerConfig", "words"),
    since(4, "TrainingInfo", "tuned"),
    since(6, "StoredVectorizer", "idf"),
    since(6, "NaiveBayes", "scorer"),
    since(6, "StoredKnn", "weights"),
    since(7, "StoredVectorizer", "hashing"),
    since(8, "StoredVectorizer", "ngram_weight"),
    since(9, "Tuned", "best_not_taken"),
    since(10, "StoredVectorizer", "columns"),
    since(13, "StoredKernelSvm", "labels"),
    since(14, "AnalyzerConfig", "tokenizer"),
    since(15, "FourierFeatures", "normals"),
];

const fn since(version: u32, owner: &'static str, field: &'static str) -> Since {
    Since {
        version,
        owner,
        field,
    }
}
