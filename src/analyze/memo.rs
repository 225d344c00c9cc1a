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
    let bytes = token.as_bytes();
    if bytes.len() > INLINE {
        return None;
    }
    let mut key = [0u8; 16];
    key[..bytes.len()].copy_from_slice(bytes);
    key[INLINE] = bytes.len() as u8;
    Some(u128::from_le_bytes(key))
}

/// The inline key of a short token with its ASCII capitals folded to lowercase, built byte by
/// byte: this replaces a scan for capitals, a copy into a lowercased string and a `memcpy` call.
fn pack_folded(token: &str) -> Option<u128> {
    let bytes = token.as_bytes();
    if bytes.len() > INLINE {
        return None;
    }
    let mut key = [0u8; 16];
    for (slot, &byte) in key.iter_mut().zip(bytes) {
        *slot = byte.to_ascii_lowercase();
    }
    key[INLINE] = bytes.len() as u8;
    Some(u128::from_le_bytes(key))
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
