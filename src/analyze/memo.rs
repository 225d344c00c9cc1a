//! [`TokenMemo`]: a map from tokens to memoized results, tuned for short tokens.

use rustc_hash::FxHashMap;

use crate::prefetch::prefetch;

/// Tokens up to this many bytes are stored inline in the key.
const INLINE: usize = 15;

/// A token → value map for the analysis memo. Most tokens are short, so those are packed with
/// their length into a `u128` key: a lookup hashes two words and compares two words, with no
/// pointer to follow and no `memcmp` call. Longer tokens go to an ordinary string map.
///
/// The short keys live in a `ShortTable`, whose slots can be prefetched: a worker that
/// locates a block of tokens first and prefetches each token's slot eight tokens ahead of its
/// lookup took 3–5% less time for `vectorize` on 20 Newsgroups than one-at-a-time lookups in
/// hashbrown, which wait for memory on most tokens seen only a few times (user CPU 500–525 ms
/// against 518–544, medians of 30 alternating runs; two thirds of the lookup's samples in a
/// profile were on two loads, of the control bytes and of the bucket).
///
/// The memo is cleared when it holds [`TokenMemo::CAPACITY`] tokens, so memory stays flat on an
/// endless stream while a corpus's working vocabulary still fits.
#[derive(Debug)]
pub(crate) struct TokenMemo<V> {
    short: ShortTable<V>,
    long: FxHashMap<Box<str>, V>,
}

impl<V: Default> Default for TokenMemo<V> {
    fn default() -> Self {
        TokenMemo {
            short: ShortTable::default(),
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
        1..=3 => (byte(0) | byte(len / 2) | byte(len - 1), 0),
        4..=7 => (half(0) | half(len - 4) << (8 * (len - 4)), 0),
        8 => (word(0), 0),
        9..=INLINE => (word(0), word(len - 8) >> (8 * (16 - len))),
        // The empty token's key would be 0, which marks an empty slot of the short table.
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

impl<V: Default> TokenMemo<V> {
    /// Tokens held before the memo starts afresh.
    pub(crate) const CAPACITY: usize = 1 << 18;

    /// The value memoized for `token`.
    pub(crate) fn get(&self, token: &str) -> Option<&V> {
        match pack(token) {
            Some(key) => self.short.get(key),
            None => self.long.get(token),
        }
    }

    /// The value memoized for `fold_ascii(token)`, found without folding a short token
    /// into a string; `scratch` holds the fold of a long one.
    pub(crate) fn get_folded(&self, token: &str, scratch: &mut String) -> Option<&V> {
        match pack_folded(token) {
            Some(key) => self.short.get(key),
            None => self.long.get(fold_ascii(token, scratch)),
        }
    }

    /// The short-table key of `token` (ASCII capitals folded when `fold`), or 0 for a token too
    /// long to have one; for [`TokenMemo::prefetch`] and [`TokenMemo::get_keyed`].
    pub(crate) fn key(token: &str, fold: bool) -> u128 {
        let key = if fold {
            pack_folded(token)
        } else {
            pack(token)
        };
        key.unwrap_or(0)
    }

    /// Starts loading into the cache where the value for `key` (from [`TokenMemo::key`]) would
    /// be, so that looking it up a little later does not wait for memory.
    pub(crate) fn prefetch(&self, key: u128) {
        if key != 0 {
            self.short.prefetch(key);
        }
    }

    /// What [`TokenMemo::get`] (or, when `fold`, [`TokenMemo::get_folded`]) gives for `token`,
    /// whose [`TokenMemo::key`] is `key`.
    pub(crate) fn get_keyed(
        &self,
        key: u128,
        token: &str,
        fold: bool,
        scratch: &mut String,
    ) -> Option<&V> {
        match (key, fold) {
            (0, true) => self.long.get(fold_ascii(token, scratch)),
            (0, false) => self.long.get(token),
            _ => self.short.get(key),
        }
    }

    /// Memoizes `value` for `token`, first clearing a full memo.
    pub(crate) fn insert(&mut self, token: &str, value: V) {
        if self.short.len + self.long.len() >= Self::CAPACITY {
            self.short.clear();
            self.long.clear();
        }
        match pack(token) {
            Some(key) => self.short.insert(key, value),
            None => {
                self.long.insert(token.into(), value);
            }
        };
    }
}

/// An open-addressing map from the non-zero keys of short tokens, with each key beside its
/// value in one slot and a zero key marking a free slot, probed linearly from a slot picked by
/// the key's hash.
///
/// Unlike a general hash map, it can say where a key would be before the key is looked up, so a
/// caller that knows its next tokens can [`ShortTable::prefetch`] their slots and have several
/// cache misses in flight at once.
#[derive(Debug)]
struct ShortTable<V> {
    slots: Vec<(u128, V)>,
    len: usize,
}

impl<V: Default> Default for ShortTable<V> {
    fn default() -> Self {
        ShortTable {
            slots: Vec::new(),
            len: 0,
        }
    }
}

impl<V: Default> ShortTable<V> {
    /// Slots of a table's first allocation.
    const FIRST_SLOTS: usize = 1024;

    /// The slot where the probe for `key` starts: the top bits of a multiplicative hash of the
    /// key's two halves. `slots` is a power of two.
    fn home(key: u128, slots: usize) -> usize {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mixed = ((key as u64) ^ ((key >> 64) as u64).wrapping_mul(K)).wrapping_mul(K);
        (mixed >> (64 - slots.trailing_zeros())) as usize
    }

    fn get(&self, key: u128) -> Option<&V> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut at = Self::home(key, self.slots.len());
        loop {
            let (stored, value) = &self.slots[at];
            if *stored == key {
                return Some(value);
            }
            if *stored == 0 {
                return None;
            }
            at = (at + 1) & mask;
        }
    }

    /// Starts loading the slot where the probe for `key` begins into the cache.
    fn prefetch(&self, key: u128) {
        if self.slots.is_empty() {
            return;
        }
        prefetch(&self.slots[Self::home(key, self.slots.len())]);
    }

    fn insert(&mut self, key: u128, value: V) {
        // At most three quarters full, so that probes stay short.
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut at = Self::home(key, self.slots.len());
        while self.slots[at].0 != 0 && self.slots[at].0 != key {
            at = (at + 1) & mask;
        }
        if self.slots[at].0 == 0 {
            self.len += 1;
        }
        self.slots[at] = (key, value);
    }

    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(Self::FIRST_SLOTS);
        let old = std::mem::replace(&mut self.slots, Vec::with_capacity(size));
        self.slots.resize_with(size, Default::default);
        self.len = 0;
        for (key, value) in old.into_iter().filter(|(key, _)| *key != 0) {
            self.insert(key, value);
        }
    }

    fn clear(&mut self) {
        self.slots
            .iter_mut()
            .for_each(|slot| *slot = Default::default());
        self.len = 0;
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
            for end in start + 1..=text.len().min(start + INLINE) {
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
        assert_eq!(pack(""), None, "0 marks a free slot");
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

    #[test]
    fn the_short_table_keeps_every_key_through_its_growth_and_starts_afresh_when_full() {
        let mut memo = TokenMemo::default();
        let tokens: Vec<String> = (0..5000).map(|i| format!("t{i}")).collect();
        for (i, token) in tokens.iter().enumerate() {
            memo.insert(token, i);
        }
        memo.insert("", 5000);
        memo.insert("t7", 7000);
        let mut scratch = String::new();
        for (i, token) in tokens.iter().enumerate() {
            let expected = if i == 7 { 7000 } else { i };
            assert_eq!(memo.get(token), Some(&expected));
            let key = TokenMemo::<usize>::key(&token.to_uppercase(), true);
            memo.prefetch(key);
            assert_eq!(
                memo.get_keyed(key, &token.to_uppercase(), true, &mut scratch),
                Some(&expected)
            );
        }
        assert_eq!(memo.get(""), Some(&5000));
        assert_eq!(memo.short.len, 5000);
        assert_eq!(memo.get("t5000"), None);
        memo.short.clear();
        assert_eq!(memo.get("t1"), None);
        memo.insert("t1", 1);
        assert_eq!((memo.get("t1"), memo.short.len), (Some(&1), 1));
    }

    #[test]
    fn keyed_lookups_of_long_tokens_fold_when_asked() {
        let mut memo = TokenMemo::default();
        let long = "Straßenbahnhaltestelle";
        let mut scratch = String::new();
        memo.insert(fold_ascii(long, &mut scratch), 3);
        let key = TokenMemo::<i32>::key(long, true);
        assert_eq!(key, 0);
        assert_eq!(memo.get_keyed(key, long, true, &mut scratch), Some(&3));
        assert_eq!(memo.get_keyed(key, long, false, &mut scratch), None);
    }
}
