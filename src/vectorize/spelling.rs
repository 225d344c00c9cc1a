//! What each provisional id of an [`Interner`](super::Interner) stands for, and the terms it
//! spells, sorted and written out for the ids that a vocabulary keeps.
//!
//! A bigram vocabulary's terms are sorted by their text. Sorting spelled terms compares strings,
//! and spelling every id first, to copy the kept ones again in order, wrote the text twice. Here
//! the words alone are sorted by text, and each kept term gets its words' ranks as one integer
//! key: when the separator sorts before every byte of every word, the text of `w1 .. wn` sorts
//! as the sequence of its words' ranks, a shorter sequence before its extensions. So only the
//! kept terms are spelled, once, already in order.

use rayon::prelude::*;

use super::vocabulary::TermSource;
use super::TermList;
use crate::analyze::ngrams::NGRAM_SEPARATOR;

/// The left part that marks a word in [`Spelling::parts`]: no n-gram has it, since ids are below
/// the number of terms, which is below `u32::MAX`.
pub(super) const WORD: u32 = u32::MAX;

/// What each id stands for: an n-gram's two parts (the n-gram or word before, and the last
/// word), or [`WORD`] and the word's place in `words`.
pub(crate) struct Spelling {
    pub(super) words: Vec<Box<str>>,
    pub(super) parts: Vec<(u32, u32)>,
}

impl Spelling {
    /// Appends the text of term `id`. An n-gram's left part is a shorter n-gram or a word, so
    /// the recursion is as deep as the n-gram is long.
    fn write(&self, id: u32, out: &mut String) {
        match self.parts[id as usize] {
            (WORD, word) => out.push_str(&self.words[word as usize]),
            (left, right) => {
                self.write(left, out);
                out.push(NGRAM_SEPARATOR);
                self.write(right, out);
            }
        }
    }

    /// The words in byte order, when their ranks order the terms as the terms' text does:
    /// when there are no n-grams, or no word holds a byte at or below the separator (a word
    /// that does, such as a character n-gram with a space, could sort either side of it).
    fn words_in_order(&self) -> Option<Vec<u32>> {
        let separator = NGRAM_SEPARATOR as u8;
        let grams = self.parts.iter().any(|&(left, _)| left != WORD);
        let low = |word: &str| word.bytes().any(|b| b <= separator);
        if grams && self.words.iter().any(|word| low(word)) {
            return None;
        }
        let mut order: Vec<u32> = (0..self.words.len() as u32).collect();
        order.par_sort_unstable_by(|&a, &b| self.words[a as usize].cmp(&self.words[b as usize]));
        Some(order)
    }

    /// Term `id`'s words' ranks, each plus one, in `bits` bits apiece, the first word in the
    /// highest and the unused low bits zero: integers that order terms as their text does.
    /// `None` when the term has too many words to fit.
    fn key(&self, mut id: u32, ranks: &[u32], bits: u32) -> Option<u64> {
        let rank = |word: u32| u64::from(ranks[word as usize]) + 1;
        let (mut key, mut used) = (0u64, 0u32);
        loop {
            if used + bits > u64::BITS {
                return None;
            }
            let (left, right) = self.parts[id as usize];
            // An n-gram's right part is a word's id, so its own part names the word.
            let (last, word) = match left {
                WORD => (true, right),
                _ => (false, self.parts[right as usize].1),
            };
            key |= rank(word) << used;
            used += bits;
            if last {
                return Some(key << (u64::BITS - used));
            }
            id = left;
        }
    }

    /// The ids sorted by their terms, with the terms, when keys (see [`Spelling::key`]) can
    /// order them: `None` when they cannot.
    fn sorted_by_keys(&self, ids: &[u32]) -> Option<(Vec<u32>, TermList)> {
        let order = self.words_in_order()?;
        let mut ranks = vec![0; order.len()];
        for (rank, &word) in order.iter().enumerate() {
            ranks[word as usize] = rank as u32;
        }
        let bits = u32::BITS - (self.words.len() as u32).leading_zeros();
        let keyed: Option<Vec<(u64, u32)>> = (ids.par_iter())
            .map(|&id| Some((self.key(id, &ranks, bits)?, id)))
            .collect();
        let mut keyed = keyed?;
        // Terms are unique, and so are their keys.
        keyed.par_sort_unstable_by_key(|&(key, _)| key);
        let words: TermList = order.iter().map(|&w| &self.words[w as usize]).collect();
        let terms = self.spell_keys(&keyed, &words, bits);
        Some((keyed.into_iter().map(|(_, id)| id).collect(), terms))
    }

    /// The terms of `ids`, in that order, spelled from their parts.
    pub(super) fn list(&self, ids: &[u32]) -> TermList {
        let mut terms = self.room_for(ids.len());
        let mut text = String::new();
        for &id in ids {
            text.clear();
            self.write(id, &mut text);
            terms.push(&text);
        }
        terms
    }

    /// An empty list with room for `terms` terms at about a bigram's length each, so that its
    /// text is seldom outgrown and copied while it fills; longer n-grams only cost a regrowth.
    fn room_for(&self, terms: usize) -> TermList {
        let bytes = self.words.iter().map(|w| w.len()).sum::<usize>();
        let mean_word = bytes / self.words.len().max(1);
        TermList::with_capacity(terms, terms * (2 * mean_word + 1))
    }

    /// The terms that sorted `keyed` stand for, in their order, spelled from `words` (by rank)
    /// in parallel chunks. The keys stream past in order and the words are a small table, where
    /// spelling from the parts read both at random over the whole id space.
    fn spell_keys(&self, keyed: &[(u64, u32)], words: &TermList, bits: u32) -> TermList {
        let chunk = keyed.len().div_ceil(rayon::current_num_threads()).max(1);
        let first_word = |key: u64| &words[(key >> (u64::BITS - bits)) as usize - 1];
        let lists: Vec<TermList> = (keyed.par_chunks(chunk))
            .map(|keyed| {
                let mut list = self.room_for(keyed.len());
                let mut text = String::new();
                for &(mut key, _) in keyed {
                    text.clear();
                    text.push_str(first_word(key));
                    key <<= bits;
                    while key != 0 {
                        text.push(NGRAM_SEPARATOR);
                        text.push_str(first_word(key));
                        key <<= bits;
                    }
                    list.push(&text);
                }
                list
            })
            .collect();
        let mut lists = lists.into_iter();
        let mut terms = lists.next().unwrap_or_default();
        lists.for_each(|list| terms.append(list));
        terms
    }
}

impl TermSource for Spelling {
    fn count(&self) -> usize {
        self.parts.len()
    }

    fn sorted(&self, ids: Vec<u32>) -> (Vec<u32>, TermList) {
        if let Some(sorted) = self.sorted_by_keys(&ids) {
            return sorted;
        }
        let (places, terms) = self.list(&ids).sorted((0..ids.len() as u32).collect());
        (places.iter().map(|&p| ids[p as usize]).collect(), terms)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;

    /// Builds what an interner's spelling of `terms` (each a list of words) would hold, giving
    /// each word and each n-gram's prefixes ids as an interner does, and the terms' ids.
    fn interned(terms: &[Vec<String>]) -> (Spelling, Vec<u32>) {
        let mut spelling = Spelling {
            words: Vec::new(),
            parts: Vec::new(),
        };
        let mut ids: HashMap<Vec<String>, u32> = HashMap::new();
        let mut id_of = |gram: &[String], spelling: &mut Spelling| -> u32 {
            if let Some(&id) = ids.get(gram) {
                return id;
            }
            let part = match gram {
                [word] => {
                    spelling.words.push(word.as_str().into());
                    (WORD, spelling.words.len() as u32 - 1)
                }
                _ => (ids[&gram[..gram.len() - 1]], ids[&gram[gram.len() - 1..]]),
            };
            spelling.parts.push(part);
            let id = spelling.parts.len() as u32 - 1;
            ids.insert(gram.to_vec(), id);
            id
        };
        let mut kept: Vec<u32> = terms
            .iter()
            .map(|words| {
                words
                    .iter()
                    .for_each(|w| _ = id_of(std::slice::from_ref(w), &mut spelling));
                (1..=words.len())
                    .map(|n| id_of(&words[..n], &mut spelling))
                    .last()
                    .unwrap_or_default()
            })
            .collect();
        kept.sort_unstable();
        kept.dedup();
        (spelling, kept)
    }

    /// The ids sorted by their spelled text, as a plain string sort orders them.
    fn by_text(spelling: &Spelling, ids: &[u32]) -> Vec<String> {
        let mut spelled: Vec<String> = spelling.list(ids).iter().map(str::to_owned).collect();
        spelled.sort_unstable();
        spelled
    }

    /// The terms as [`TermSource::sorted`] gives them, checked to be the sorted ids' terms.
    fn sorted(spelling: &Spelling, ids: &[u32]) -> Vec<String> {
        let (ids, terms) = spelling.sorted(ids.to_vec());
        assert_eq!(spelling.list(&ids), terms);
        terms.iter().map(str::to_owned).collect()
    }

    #[test]
    fn terms_sort_as_their_text_with_prefixes_first() {
        // Empty words (the last two) sort first, and the separator still follows them.
        let terms: Vec<Vec<String>> = [
            "ab c", "a b", "a", "ab", "a bc", "a b c", "é", "b", "a b a", "3.14", "can't", " ", "",
        ]
        .iter()
        .map(|t| t.split(' ').map(str::to_owned).collect())
        .collect();
        let (spelling, ids) = interned(&terms);
        assert!(spelling.sorted_by_keys(&ids).is_some());
        let expected = [
            "", " ", "3.14", "a", "a b", "a b a", "a b c", "a bc", "ab", "ab c", "b", "can't", "é",
        ];
        assert_eq!(sorted(&spelling, &ids), expected);
    }

    #[test]
    fn a_word_with_a_space_is_sorted_by_its_text() {
        // Character n-grams keep spaces, so a word can hold the separator or a byte below it;
        // then the words' ranks do not order the terms, and their text is compared.
        let terms: Vec<Vec<String>> = vec![
            vec!["a b".into()],
            vec!["a".into(), "b".into()],
            vec!["a".into(), "!".into()],
            vec!["a".into()],
            vec!["a\u{1}".into()],
        ];
        let (spelling, ids) = interned(&terms);
        assert!(spelling.sorted_by_keys(&ids).is_none());
        assert_eq!(sorted(&spelling, &ids), by_text(&spelling, &ids));
    }

    proptest! {
        #[test]
        fn keys_order_terms_as_their_text(
            terms in prop::collection::vec(
                prop::collection::vec("[a-c0-9'.é_]{0,3}", 1..5), 1..60),
        ) {
            let (spelling, ids) = interned(&terms);
            prop_assert!(spelling.sorted_by_keys(&ids).is_some());
            prop_assert_eq!(sorted(&spelling, &ids), by_text(&spelling, &ids));
        }
    }
}
