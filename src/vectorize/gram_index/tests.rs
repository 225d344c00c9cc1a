use super::*;

fn list(terms: &[&str]) -> TermList {
    let mut sorted = terms.to_vec();
    sorted.sort_unstable();
    TermList::from_iter(sorted)
}

#[test]
fn every_term_is_found_at_its_column_and_nothing_else_is() {
    // "big red" is only a prefix of a trigram and "bus" only ends a bigram: both need ids that
    // are no column.
    let terms = list(&["big", "red", "big red car", "red bus", "car", "big car"]);
    let index = GramIndex::new(&terms, 3);
    for (column, term) in terms.iter().enumerate() {
        assert_eq!(index.find(term), Some(column as u32), "{term}");
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
        assert_eq!(index.find(absent), None, "{absent}");
    }
}

/// 127 words and a bigram: 128 terms, two of them for each search at 64 terms a search.
fn words_and_a_bigram() -> TermList {
    let words: Vec<String> = (0..127).map(|i| format!("w{i:03}")).collect();
    let mut all: Vec<&str> = words.iter().map(String::as_str).collect();
    all.push("w000 w001");
    list(&all)
}

#[test]
fn the_index_is_built_for_the_search_that_makes_one_for_every_64_terms() {
    let terms = words_and_a_bigram();
    let lazy = LazyGrams::default();
    assert!(lazy.instead_of_searches(1, 64, &terms, 2).is_none());
    assert!(lazy.get().is_none());
    assert_eq!(lazy.searched(), 1);
    let found = (lazy.instead_of_searches(1, 64, &terms, 2)).map(|index| index.find("w000 w001"));
    assert_eq!(found, Some(Some(1)));
    // The second search was made through the index, not by text.
    assert_eq!(lazy.searched(), 1);
    assert!(lazy.clone().get().is_none());
}

#[test]
fn searches_that_pass_the_rule_alone_are_made_through_the_index_built_before_them() {
    let terms = words_and_a_bigram();
    let lazy = LazyGrams::default();
    let index = lazy.instead_of_searches(3, 64, &terms, 2);
    assert_eq!(index.map(|index| index.find("w126")), Some(Some(127)));
    assert_eq!(lazy.searched(), 0);
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
        assert_eq!(index.find(term), Some(column as u32), "{term}");
    }
    for absent in ["w007", "w001 w200", "w200 w001", "w001 w002 w003"] {
        assert_eq!(index.find(absent), None, "{absent}");
    }
}
