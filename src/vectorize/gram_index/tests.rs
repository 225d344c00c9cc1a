use super::*;

fn list(terms: &[&str]) -> TermList {
    let mut sorted = terms.to_vec();
    sorted.sort_unstable();
    TermList::from_iter(sorted)
}

/// The column `index` finds for the n-gram `words` by chaining ids, as a transform does.
fn chained(index: &GramIndex, words: &str) -> Option<u32> {
    let mut ids = words.split(' ').map(|w| index.word(w));
    let first = ids.next().unwrap_or(UNKNOWN);
    index.column(ids.fold(first, |prefix, word| index.pair(prefix, word)))
}

#[test]
fn every_term_is_found_at_its_column_and_nothing_else_is() {
    // "big red" is only a prefix of a trigram and "bus" only ends a bigram: both need ids that
    // are no column.
    let terms = list(&["big", "red", "big red car", "red bus", "car", "big car"]);
    let index = GramIndex::new(&terms, 3);
    for (column, term) in terms.iter().enumerate() {
        assert_eq!(chained(&index, term), Some(column as u32), "{term}");
    }
    for absent in [
        "big red",
        "bus",
        "red car",
        "car big",
        "big red bus",
        "zebra",
        "big zebra",
    ] {
        assert_eq!(chained(&index, absent), None, "{absent}");
    }
}

#[test]
fn the_index_is_built_once_a_search_for_every_64_terms_was_made() {
    let words: Vec<String> = (0..127).map(|i| format!("w{i:03}")).collect();
    let mut all: Vec<&str> = words.iter().map(String::as_str).collect();
    all.push("w000 w001");
    let terms = list(&all);
    let lazy = LazyGrams::default();
    lazy.note_searches(1, 64, &terms, 2);
    assert!(lazy.get().is_none());
    lazy.note_searches(1, 64, &terms, 2);
    let found = lazy.get().map(|index| chained(index, "w000 w001"));
    assert_eq!(found, Some(Some(1)));
    assert!(lazy.clone().get().is_none());
}

#[test]
fn bigrams_over_many_chunks_are_found_whether_their_words_are_terms_or_not() {
    // More bigrams than one task of the parallel pass takes, with every tenth second word no
    // term of its own (as min-df 2 leaves some), so both ways of keying a bigram are used.
    let words: Vec<String> = (0..200).map(|i| format!("w{i:03}")).collect();
    let mut all: Vec<String> = words
        .iter()
        .filter(|w| !w.ends_with('7'))
        .cloned()
        .collect();
    for first in &words {
        for second in &words {
            all.push(format!("{first} {second}"));
        }
    }
    assert!(all.len() > 2 * BIGRAM_CHUNK);
    let terms = list(&all.iter().map(String::as_str).collect::<Vec<_>>());
    let index = GramIndex::new(&terms, 2);
    for (column, term) in terms.iter().enumerate() {
        assert_eq!(chained(&index, term), Some(column as u32), "{term}");
    }
    for absent in ["w007", "w001 w200", "w200 w001", "w001 w002 w003"] {
        assert_eq!(chained(&index, absent), None, "{absent}");
    }
}
