//! Large arrays of numbers in model files. In a model file of format 6 or later they are raw
//! sections before the postcard part, used in place from the mapped file ([`Table`]); in
//! older files and elsewhere they are one little-endian byte string, which loads with one pass
//! over bytes instead of millions of per-element decoding calls (the SVM's 20 Newsgroups
//! weights are 7 million numbers). Use `Vec`s with `#[serde(with = "packed")]`.

use std::borrow::Cow;
use std::marker::PhantomData;

use serde::de::{Error, Visitor};
use serde::{Deserializer, Serializer};

pub(crate) mod sections;
mod table;
pub use table::Table;
pub(crate) use table::{derived, seq};

/// A fixed-size number, or a plain record of them.
///
/// # Safety
///
/// `SIZE` is the type's size, its alignment is at most 8 (the sections' alignment), and every pattern
/// of `SIZE` bytes is a valid value: a [`Table`] reads values straight from a file's bytes.
pub unsafe trait Word: Copy + Sized + 'static {
    /// Its size in bytes.
    const SIZE: usize;
    /// Appends its little-endian bytes.
    fn put(&self, out: &mut Vec<u8>);
    /// The number from its `SIZE` little-endian bytes.
    fn take(bytes: &[u8]) -> Self;

    /// The little-endian bytes of `values`: their own memory on a little-endian machine.
    fn bytes_of(values: &[Self]) -> Cow<'_, [u8]> {
        if cfg!(target_endian = "little") {
            // SAFETY: the values are initialized memory of this many bytes, which `Word`
            // promises holds no padding that could be uninitialized.
            let length = std::mem::size_of_val(values);
            Cow::Borrowed(unsafe { std::slice::from_raw_parts(values.as_ptr().cast(), length) })
        } else {
            let mut bytes = Vec::with_capacity(values.len() * Self::SIZE);
            values.iter().for_each(|v| v.put(&mut bytes));
            Cow::Owned(bytes)
        }
    }
}

macro_rules! word {
    ($($number:ty),*) => {$(
        // SAFETY: a primitive number: any bytes are a value, alignment at most 8.
        unsafe impl Word for $number {
            const SIZE: usize = std::mem::size_of::<$number>();
            fn put(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn take(bytes: &[u8]) -> Self {
                let mut array = [0u8; std::mem::size_of::<$number>()];
                array.copy_from_slice(bytes);
                <$number>::from_le_bytes(array)
            }
        }
    )*};
}

word!(u8, f32, u32, u64, f64);

/// Writes the numbers as their little-endian bytes, one after another.
pub(crate) fn serialize<S: Serializer, T: Word>(
    values: &[T],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut bytes = Vec::with_capacity(values.len() * T::SIZE);
    values.iter().for_each(|v| v.put(&mut bytes));
    serializer.serialize_bytes(&bytes)
}

/// Reads what `serialize` wrote.
pub fn deserialize<'de, D: Deserializer<'de>, T: Word>(
    deserializer: D,
) -> Result<Vec<T>, D::Error> {
    deserializer.deserialize_bytes(PackedVisitor(PhantomData))
}

struct PackedVisitor<T>(PhantomData<T>);

impl<T: Word> Visitor<'_> for PackedVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a byte string of little-endian numbers")
    }

    fn visit_bytes<E: Error>(self, bytes: &[u8]) -> Result<Vec<T>, E> {
        if !bytes.len().is_multiple_of(T::SIZE) {
            return Err(E::custom(
                "packed numbers: length not a multiple of their size",
            ));
        }
        Ok(bytes.chunks_exact(T::SIZE).map(T::take).collect())
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
