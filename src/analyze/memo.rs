//! [`TokenMemo`]: a map from tokens to memoized results, tuned for short tokens.

use rustc_hash::FxHashMap;

/// Tokens up to this many bytes are stored inline in the key.
const INLINE: usize = 15;

/// A token → value map for the analysis memo. Most tokens are short, so those are packed with
/// their length into a `u128` key: a lookup hashes two words and compares two words, with no
/// pointer to follow and no `memcmp` call. Longer tokens go to an ordinary string map.
///
/// The memo is cleared when it holds [`TokenMemo::CAPACITY`] tokens, so memory stays flat on an
/// endless stream while a corpus's working vocabulary still fits.
#[derive(Debug)]
pub struct TokenMemo<V> {
    short: FxHashMap<u128, V>,
    long: FxHashMap<Box<str>, V>,
}

impl<V> Default for TokenMemo<V> {
    fn default() -> Self {
        TokenMemo {
            short: FxHashMap::default(),
            long: FxHashMap::default(),
        }
    }
}

/// The inline key of a short token: its bytes, zero-padded, with the length in the last byte
/// (so `a` and `a\0` differ, although tokens never hold NUL).
fn pack(token: &str) -> Option<u128> {
    let (low, high) = load_short(token.as_bytes())?;
    Some(u128::from(low) | u128::from(high) << 64)
}

/// The inline key of a short token with its ASCII capitals folded to lowercase: the key of
/// [`pack`] with the capitals folded eight bytes at a time.
fn pack_folded(token: &str) -> Option<u128> {
    let (low, high) = load_short(token.as_bytes())?;
    Some(u128::from(fold_ascii_word(low)) | u128::from(fold_ascii_word(high)) << 64)
}

/// The bytes of a token of at most [`INLINE`] bytes as the two little-endian halves of its key,
/// the length in the top byte, read with a few overlapping loads. Building the key byte by byte
/// in memory and reading it back as one number stalled each lookup until the bytes' stores
/// reached the cache (a quarter of the lookup's time in a profile of `train`).
fn load_short(bytes: &[u8]) -> Option<(u64, u64)> {
    let len = bytes.len();
    let word = |at: usize| {
        let mut eight = [0u8; 8];
        eight.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(eight)
    };
    let half = |at: usize| {
        let mut four = [0u8; 4];
        four.copy_from_slice(&bytes[at..at + 4]);
        u64::from(u32::from_le_bytes(four))
    };
    let byte = |at: usize| u64::from(bytes[at]) << (8 * at);
    let (low, high) = match len {
        0 => (0, 0),
        1..=3 => (byte(0) | byte(len / 2) | byte(len - 1), 0),
        4..=7 => (half(0) | half(len - 4) << (8 * (len - 4)), 0),
        8 => (word(0), 0),
        9..=INLINE => (word(0), word(len - 8) >> (8 * (16 - len))),
        _ => return None,
    };
    Some((low, high | (len as u64) << 56))
}

/// `word` with every byte from `A` to `Z` made lowercase and every other byte, UTF-8 lead and
/// continuation bytes included, left as it is.
fn fold_ascii_word(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let ascii = !word & (ONES * 0x80);
    let seven_bits = word & (ONES * 0x7f);
    // Bit 7 of each byte of the sums says whether its seven bits are at least `A`, and above `Z`;
    // no sum carries into the next byte.
    let from_a = seven_bits + ONES * u64::from(0x80 - b'A');
    let above_z = seven_bits + ONES * u64::from(0x7f - b'Z');
    let capitals = (from_a ^ above_z) & ascii;
    word | capitals >> 2
}

/// `token` with its ASCII capitals folded to lowercase, in `scratch` if any had to change.
pub fn fold_ascii<'k>(token: &'k str, scratch: &'k mut String) -> &'k str {
    if !token.bytes().any(|b| b.is_ascii_uppercase()) {
        return token;
    }
    scratch.clear();
    scratch.push_str(token);
    scratch.make_ascii_lowercase();
    scratch
}

impl<V> TokenMemo<V> {
    /// Tokens held before the memo starts afresh.
    pub const CAPACITY: usize = 1 << 18;

    /// The value memoized for `token`.
    pub fn get(&self, token: &str) -> Option<&V> {
        match pack(token) {
            Some(key) => self.short.get(&key),
            None => self.long.get(token),
        }
    }

    /// The value memoized for [`fold_ascii`]`(token)`, found without folding a short token
    /// into a string; `scratch` holds the fold of a long one.
    pub fn get_folded(&self, token: &str, scratch: &mut String) -> Option<&V> {
        match pack_folded(token) {
            Some(key) => self.short.get(&key),
            None => self.long.get(fold_ascii(token, scratch)),
        }
    }

    /// Memoizes `value` for `token`, first clearing a full memo.
    pub fn insert(&mut self, token: &str, value: V) {
        if self.short.len() + self.long.len() >= Self::CAPACITY {
            self.short.clear();
            self.long.clear();
        }
        match pack(token) {
            Some(key) => self.short.insert(key, value),
            None => self.long.insert(token.into(), value),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_tokens_are_kept_apart() {
        let mut memo = TokenMemo::default();
        let long = "a".repeat(40);
        for (i, token) in ["a", "ab", "abcdefghijklmno", "abcdefghijklmnop", &long]
            .iter()
            .enumerate()
        {
            memo.insert(token, i);
        }
        assert_eq!(memo.get("a"), Some(&0));
        assert_eq!(memo.get("ab"), Some(&1));
        assert_eq!(memo.get("abcdefghijklmno"), Some(&2));
        assert_eq!(memo.get("abcdefghijklmnop"), Some(&3));
        assert_eq!(memo.get(&long), Some(&4));
        assert_eq!(memo.get("b"), None);
        assert_eq!(memo.get("a\0"), None);
    }

    #[test]
    fn keys_are_the_bytes_and_length_of_every_short_token() {
        let text = "ABCDEFGHIJKLMNOPQRSTUVWXYZ@[`{ é€Ω-09";
        for start in 0..text.len() {
            for end in start..=text.len().min(start + INLINE) {
                let Some(token) = text.get(start..end) else {
                    continue;
                };
                let mut bytes = [0u8; 16];
                bytes[..token.len()].copy_from_slice(token.as_bytes());
                bytes[INLINE] = token.len() as u8;
                assert_eq!(pack(token), Some(u128::from_le_bytes(bytes)), "{token:?}");
                let folded = token.to_ascii_lowercase();
                bytes[..token.len()].copy_from_slice(folded.as_bytes());
                assert_eq!(pack_folded(token), Some(u128::from_le_bytes(bytes)));
            }
        }
        assert_eq!(pack(&"a".repeat(INLINE + 1)), None);
    }

    #[test]
    fn folded_lookups_find_the_lowercase_key() {
        let mut memo = TokenMemo::default();
        let long = "Straßenbahnhaltestelle";
        let mut scratch = String::new();
        memo.insert("the", 1);
        memo.insert("émile", 2);
        memo.insert(fold_ascii(long, &mut scratch), 3);
        assert_eq!(memo.get_folded("ThE", &mut scratch), Some(&1));
        assert_eq!(memo.get_folded("éMILE", &mut scratch), Some(&2));
        assert_eq!(
            memo.get_folded("STRAßENBAHNHALTESTELLE", &mut scratch),
            Some(&3)
        );
        assert_eq!(memo.get_folded("Émile", &mut scratch), None);
    }
}
