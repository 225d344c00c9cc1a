use serde::{Deserialize, Serialize};

use super::*;
use crate::packed::Table;

type Pair = (Table<u32>, Table<f64>);

/// The sections and the postcard part of `pair`, as a model file lays them out.
fn encode_pair(pair: &Pair) -> (Vec<u8>, Vec<u8>) {
    let mut sections = Vec::new();
    let encoded = encode(pair, Some(&mut sections), (6, false)).unwrap();
    (sections, encoded.postcard)
}

fn decode(sections: &[u8], postcard: &[u8]) -> postcard::Result<Pair> {
    let sections = Sections::new(Arc::new(Backing::copied(sections)), 0..sections.len());
    Pair::deserialize(&mut Reader::new(postcard, 6, &[], Some(sections)))
}

#[test]
fn tables_round_trip_through_sections_aligned_and_in_place() {
    let pair: Pair = (vec![1, 2, 3].into(), vec![0.5, -1.0].into());
    let (sections, postcard) = encode_pair(&pair);
    assert!(matches!(
        encode(&(), None, (6, false)),
        Ok(Encoded { length: 0, .. })
    ));
    // 12 bytes of u32, 4 of padding, 16 of f64.
    assert_eq!(sections.len(), 32);
    assert_eq!(decode(&sections, &postcard).unwrap(), pair);
    // Outside a model file, tables are packed byte strings, as before.
    let packed = postcard::to_stdvec(&pair).unwrap();
    assert_eq!(postcard::from_bytes::<Pair>(&packed).unwrap(), pair);
}

#[test]
fn a_table_outside_the_sections_or_misaligned_is_refused() {
    let pair: Pair = (vec![1, 2, 3].into(), vec![0.5, -1.0].into());
    let (sections, postcard) = encode_pair(&pair);
    assert!(decode(&sections[..31], &postcard).is_err());
    // The second table's offset (16) moved to 12: inside the sections, but misaligned.
    let mut moved = postcard.clone();
    let at = moved.iter().rposition(|&b| b == 16).unwrap();
    moved[at] = 12;
    assert!(decode(&sections, &moved).is_err());
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Record {
    first: u32,
    #[serde(default)]
    added: Option<u32>,
    last: String,
}

#[test]
fn a_field_is_read_only_from_files_of_the_format_that_added_it_on() {
    const FIELDS: &[Since] = &[Since {
        version: 5,
        owner: "Record",
        field: "added",
    }];
    let record = Record {
        first: 1,
        added: Some(2),
        last: "three".into(),
    };
    let postcard = postcard::to_stdvec(&record).unwrap();
    let read = Record::deserialize(&mut Reader::new(&postcard, 5, FIELDS, None));
    assert_eq!(read.unwrap(), record);
    // Format 4 had no field there: the bytes after `first` are `last`'s.
    let older = postcard::to_stdvec(&(1u32, "three")).unwrap();
    let read_older = Record::deserialize(&mut Reader::new(&older, 4, FIELDS, None)).unwrap();
    assert_eq!(read_older.added, None);
    assert_eq!(read_older.last, "three");
}
