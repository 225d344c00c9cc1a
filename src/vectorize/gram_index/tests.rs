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
fn the_index_is_built_once_three_searches_a_term_were_made() {
    let terms = list(&["a", "a b", "b"]);
    let lazy = LazyGrams::default();
    lazy.note_searches(8, &terms, 2);
    assert!(lazy.get().is_none());
    lazy.note_searches(1, &terms, 2);
    assert_eq!(lazy.get().map(|index| chained(index, "a b")), Some(Some(1)));
    assert!(lazy.clone().get().is_none());
}
