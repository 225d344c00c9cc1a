//! `Vec<f32>` and `Vec<u32>` stored as one little-endian byte string: a model's weights load
//! with one pass over bytes instead of millions of per-element decoding calls (the SVM's
//! 20 Newsgroups weights are 7 million numbers). Use with `#[serde(with = "packed")]`.

use std::marker::PhantomData;

use serde::de::{Error, Visitor};
use serde::{Deserializer, Serializer};

/// A four-byte number.
pub trait Word: Sized {
    /// Its little-endian bytes.
    fn to_le(&self) -> [u8; 4];
    /// The number from its little-endian bytes.
    fn from_le(bytes: [u8; 4]) -> Self;
}

impl Word for f32 {
    fn to_le(&self) -> [u8; 4] {
        self.to_le_bytes()
    }
    fn from_le(bytes: [u8; 4]) -> Self {
        f32::from_le_bytes(bytes)
    }
}

impl Word for u32 {
    fn to_le(&self) -> [u8; 4] {
        self.to_le_bytes()
    }
    fn from_le(bytes: [u8; 4]) -> Self {
        u32::from_le_bytes(bytes)
    }
}

/// Writes the numbers as 4 little-endian bytes each.
pub fn serialize<S: Serializer, T: Word>(values: &[T], serializer: S) -> Result<S::Ok, S::Error> {
    let bytes: Vec<u8> = values.iter().flat_map(Word::to_le).collect();
    serializer.serialize_bytes(&bytes)
}

/// Reads what [`serialize`] wrote.
pub fn deserialize<'de, D: Deserializer<'de>, T: Word>(
    deserializer: D,
) -> Result<Vec<T>, D::Error> {
    deserializer.deserialize_bytes(PackedVisitor(PhantomData))
}

struct PackedVisitor<T>(PhantomData<T>);

impl<T: Word> Visitor<'_> for PackedVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a byte string of little-endian 4-byte numbers")
    }

    fn visit_bytes<E: Error>(self, bytes: &[u8]) -> Result<Vec<T>, E> {
        if bytes.len() % 4 != 0 {
            return Err(E::custom("packed numbers: length not a multiple of 4"));
        }
        let values = bytes
            .chunks_exact(4)
            .map(|chunk| T::from_le([chunk[0], chunk[1], chunk[2], chunk[3]]));
        Ok(values.collect())
    }
}

#[cfg(test)]
mod tests {
    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Holder(
        #[serde(with = "super")] Vec<f32>,
        #[serde(with = "super")] Vec<u32>,
    );

    #[test]
    fn round_trips_through_postcard() {
        let holder = Holder(vec![0.0, -1.5, f32::MAX, 1e-30], vec![0, 7, u32::MAX]);
        let bytes = postcard::to_stdvec(&holder).unwrap();
        assert_eq!(postcard::from_bytes::<Holder>(&bytes).unwrap(), holder);
        assert!(postcard::from_bytes::<Holder>(&[3, 1, 2, 3, 0]).is_err());
    }
}
