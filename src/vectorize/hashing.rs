//! Feature hashing: each term goes to a column chosen by a hash of its text, so there is no
//! vocabulary and the feature space has a fixed size, 2^bits columns, whatever the corpus.
//!
//! The hash is scikit-learn's: MurmurHash3 (x86, 32 bits) of the term's UTF-8 bytes with seed 0,
//! read as a signed integer `h`; the column is `|h| mod 2^bits`. Signed hashing multiplies each
//! occurrence by +1 when `h >= 0` and -1 otherwise, as `HashingVectorizer(alternate_sign=True)`
//! does, so that terms colliding in one column tend to cancel rather than add up; unsigned
//! hashing counts every occurrence as +1, as `alternate_sign=False` does, which naive Bayes needs
//! (its counts must not be negative).

use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};

use super::Counted;
use crate::analyze::Terms;
use crate::error::{Error, Result};

/// The numbers of bits `--hash-bits` accepts. Below 4 nearly every term collides. A model keeps
/// arrays only for the columns its documents reach, so memory follows the data whatever the
/// bits; 28 keeps a column number and its sign within the hash's 31 magnitude bits with room.
pub(crate) const HASH_BITS: RangeInclusive<u32> = 4..=28;

/// How terms are hashed to columns: the number of bits and whether occurrences carry a sign.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hashing {
    bits: u8,
    signed: bool,
}

impl Hashing {
    /// Hashing into 2^`bits` columns; `bits` must lie in 4..=28.
    pub fn new(bits: u32, signed: bool) -> Result<Self> {
        if !HASH_BITS.contains(&bits) {
            return Err(Error::Config(format!(
                "--hash-bits must be between {} and {}, not {bits}",
                HASH_BITS.start(),
                HASH_BITS.end()
            )));
        }
        Ok(Hashing {
            bits: bits as u8,
            signed,
        })
    }

    /// The same number of bits, signed or not.
    pub(crate) fn with_sign(self, signed: bool) -> Self {
        Hashing { signed, ..self }
    }

    /// Checks a value decoded from a file.
    pub(crate) fn validate(self) -> Result<()> {
        Hashing::new(u32::from(self.bits), self.signed).map(|_| ())
    }

    /// The number of bits.
    pub fn bits(self) -> u32 {
        u32::from(self.bits)
    }

    /// Whether occurrences carry the hash's sign.
    pub fn signed(self) -> bool {
        self.signed
    }

    /// The number of columns, 2^bits.
    pub fn columns(self) -> usize {
        1 << self.bits
    }

    /// The column of `term`, and the value one occurrence adds to it (+1 or -1).
    pub fn place(self, term: &str) -> (u32, i32) {
        let hash = murmurhash3_32(term.as_bytes());
        // `unsigned_abs` keeps |i32::MIN| = 2^31 exact, where scikit-learn special-cases it to
        // the same column.
        let column = hash.unsigned_abs() & (self.columns() as u32 - 1);
        let sign = if self.signed && hash < 0 { -1 } else { 1 };
        (column, sign)
    }
}

/// MurmurHash3, x86 32-bit variant, seed 0, as a signed integer: scikit-learn's
/// `murmurhash3_32(key, seed=0, positive=False)`.
pub fn murmurhash3_32(key: &[u8]) -> i32 {
    murmurhash32::murmurhash3_with_seed::<0>(key) as i32
}

/// Counts a document's hashed terms into a row, by sorting (column, sign) pairs: a dense scratch
/// array of 2^bits counts per worker would cost more than the documents themselves.
#[derive(Debug, Default)]
pub struct HashedCounter {
    places: Vec<(u32, i32)>,
}

impl HashedCounter {
    /// Counts `terms` into `counted`: each column's signed sum, sums that cancel to 0 left out.
    /// `kept` gives the index a hashed column is counted under, or `None` for a column the
    /// vectorizer does not keep (no training document reached it, or it was pruned), whose
    /// terms are counted in `counted.oov`. The row's indices are sorted.
    pub fn count(
        &mut self,
        hashing: Hashing,
        terms: &Terms,
        mut kept: impl FnMut(u32) -> Option<u32>,
        counted: &mut Counted,
    ) {
        counted.oov = 0;
        self.places.clear();
        for term in terms.iter() {
            let (column, sign) = hashing.place(term);
            match kept(column) {
                Some(index) => self.places.push((index, sign)),
                None => counted.oov += 1,
            }
        }
        self.places.sort_unstable_by_key(|&(column, _)| column);
        let row = &mut counted.row;
        row.indices.clear();
        row.values.clear();
        for run in self.places.chunk_by(|a, b| a.0 == b.0) {
            let sum: i32 = run.iter().map(|&(_, sign)| sign).sum();
            if sum != 0 {
                row.indices.push(run[0].0);
                row.values.push(f64::from(sum));
            }
        }
        counted.length = u32::try_from(terms.len()).unwrap_or(u32::MAX);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_scikit_learns() {
        // sklearn.utils.murmurhash3_32(key, seed=0) for these keys.
        assert_eq!(murmurhash3_32(b""), 0);
        assert_eq!(murmurhash3_32(b"a"), 1009084850);
        assert_eq!(murmurhash3_32(b"abc"), -1277324294);
    }

    #[test]
    fn columns_and_signs_on_a_tiny_input() {
        let hashing = Hashing::new(4, true).unwrap();
        // "a" hashes to 1009084850 (column 2, +1) and "abc" to -1277324294 (column 6, -1).
        assert_eq!(hashing.place("a"), (2, 1));
        assert_eq!(hashing.place("abc"), (6, -1));
        assert_eq!(hashing.with_sign(false).place("abc"), (6, 1));
        let mut terms = Terms::new();
        for term in ["abc", "a", "abc", "a", "a"] {
            terms.push(term);
        }
        let mut counted = Counted::default();
        HashedCounter::default().count(hashing, &terms, Some, &mut counted);
        assert_eq!(counted.row.indices, [2, 6]);
        assert_eq!(counted.row.values, [3.0, -2.0]);
        assert_eq!((counted.length, counted.oov), (5, 0));
        HashedCounter::default().count(hashing, &terms, |c| (c != 6).then_some(c), &mut counted);
        assert_eq!(counted.row.indices, [2]);
        assert_eq!((counted.length, counted.oov), (5, 2));
    }

    #[test]
    fn occurrences_of_opposite_signs_cancel() {
        let hashing = Hashing::new(4, true).unwrap();
        // "y" and "abc" both fall in column 6: "y" with +1, "abc" with -1.
        assert_eq!(hashing.place("y"), (6, 1));
        let mut terms = Terms::new();
        terms.push("y");
        terms.push("abc");
        let mut counted = Counted::default();
        HashedCounter::default().count(hashing, &terms, Some, &mut counted);
        assert!(counted.row.indices.is_empty());
    }

    #[test]
    fn bits_outside_the_range_are_refused() {
        for bits in [0, 3, 29, 64] {
            let message = Hashing::new(bits, true).unwrap_err().to_string();
            assert!(
                message.contains("--hash-bits must be between 4 and 28"),
                "{message}"
            );
        }
        assert_eq!(Hashing::new(28, false).unwrap().columns(), 1 << 28);
    }
}
