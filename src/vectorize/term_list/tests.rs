use super::*;

fn list(terms: &[&str]) -> TermList {
    terms.iter().collect()
}

#[test]
fn terms_come_back_in_order() {
    let terms = list(&["", "a", "ab", "été"]);
    assert_eq!(terms.len(), 4);
    assert_eq!(&terms[0], "");
    assert_eq!(&terms[3], "été");
    assert_eq!(terms.iter().collect::<Vec<_>>(), ["", "a", "ab", "été"]);
    assert!(terms.is_sorted_and_unique());
    assert!(!list(&["b", "a"]).is_sorted_and_unique());
    assert!(!list(&["a", "a"]).is_sorted_and_unique());
}

#[test]
fn binary_search_finds_terms_and_insertion_points() {
    let terms = list(&["b", "d", "f"]);
    assert_eq!(terms.binary_search("d"), Ok(1));
    assert_eq!(terms.binary_search("a"), Err(0));
    assert_eq!(terms.binary_search("e"), Err(2));
    assert_eq!(terms.binary_search("g"), Err(3));
    assert_eq!(TermList::default().binary_search("a"), Err(0));
}

#[test]
fn find_answers_the_same_before_and_after_the_hash_table_is_built() {
    let words: Vec<String> = (0..1000).map(|i| format!("w{i:04}")).collect();
    let terms: TermList = words.iter().collect();
    // 1000 / 64 = 15 lookups are binary searches; the next one builds the table.
    for (j, word) in words.iter().enumerate().take(15) {
        assert_eq!(terms.find(word), Some(j as u32));
    }
    assert!(terms.index.table.get().is_none());
    assert_eq!(terms.find("w0999x"), None);
    assert!(terms.index.table.get().is_some());
    for (j, word) in words.iter().enumerate() {
        assert_eq!(terms.find(word), Some(j as u32));
    }
    assert_eq!(terms.find(""), None);
}

#[test]
fn model_files_store_the_text_and_lengths_json_a_list() {
    let terms = list(&["cat", "dog", "été"]);
    let bytes = postcard::to_stdvec(&terms).unwrap();
    // The text (11 bytes: 'é' takes two) with its length, then 3 × 4 bytes of lengths.
    assert_eq!(bytes.len(), 1 + 11 + 1 + 12);
    assert_eq!(postcard::from_bytes::<TermList>(&bytes).unwrap(), terms);
    let json = serde_json::to_string(&terms).unwrap();
    assert_eq!(json, r#"["cat","dog","été"]"#);
    let from_reader: TermList = serde_json::from_reader(json.as_bytes()).unwrap();
    assert_eq!(from_reader, terms);
}

#[test]
fn lengths_that_do_not_fit_the_text_are_an_error() {
    let encode = |text: &str, lengths: &[u32]| {
        postcard::to_stdvec(&(text, Lengths(lengths.to_vec()))).unwrap()
    };
    assert!(postcard::from_bytes::<TermList>(&encode("catdog", &[3, 3])).is_ok());
    for lengths in [&[3, 2][..], &[3, 4], &[1, 1]] {
        assert!(postcard::from_bytes::<TermList>(&encode("catdog", lengths)).is_err());
    }
    // 'é' is two bytes: a boundary inside it must be refused, not panic later.
    assert!(postcard::from_bytes::<TermList>(&encode("é", &[1, 1])).is_err());
}
