//! The array sections of a model file, and the reader and writer of its postcard part that tell
//! a [`Table`](super::Table) whether it is in one.
//!
//! A model file of format 6 or later holds raw arrays followed by a small postcard part. Serde
//! gives a value no way to pass state to its fields, so the state travels with the encoder
//! itself: the postcard part is written through a postcard [`Writer`] flavor and read through a
//! [`Reader`], which wraps postcard's deserializer and carries the file's format and sections.
//! The few values that encode differently inside a model file (tables, the terms, the parts
//! stored there only) recognise them by their type ([`writing`], [`reading`]); anywhere else
//! (a vocabulary file, a cluster's messages) they encode as before, tables as packed byte
//! strings. The reader also leaves out of an older file the fields added after its format, as
//! the table it is given says, so that no field needs its own version check.
//!
//! A thread-local context did this before, but state that every encoding on a thread could see
//! needed guards against leaking from one encoding into the next, and the writer had to be
//! kept there as a raw pointer. A `DeserializeSeed` for every type that holds an array, or a
//! copy of each such type per format, would pass the state explicitly too, at the cost of
//! writing out by hand what serde derives for about fifteen types.

use std::any::TypeId;
use std::io::Write;
use std::ops::Range;
use std::sync::Arc;

use serde::de::value::U32Deserializer;
use serde::de::{DeserializeSeed, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Sections start at multiples of this, which is the alignment of every [`Word`](super::Word).
pub(crate) const ALIGN: usize = 8;

/// Bytes that tables can point into for as long as they live: a mapped file, or a copy of one
/// in memory aligned for any [`Word`](super::Word).
pub(crate) struct Backing(Store);

enum Store {
    /// A mapped file, and the open file, kept open as long as the mapping is used so that
    /// a lease on it lasts as long.
    Map {
        map: memmap2::Mmap,
        _file: std::fs::File,
    },
    /// The bytes, held in words so that they are aligned; the second field is their length.
    Words(Vec<u64>, usize),
}

impl Backing {
    /// A mapped file, kept open for as long as the mapping lives.
    pub(crate) fn mapped(map: memmap2::Mmap, file: std::fs::File) -> Self {
        Backing(Store::Map { map, _file: file })
    }

    /// A copy of `bytes` at an address aligned for any [`Word`](super::Word): the one copy a
    /// model decoded from memory, rather than mapped from its file, costs.
    pub(crate) fn copied(bytes: &[u8]) -> Self {
        let mut words = vec![0u64; bytes.len().div_ceil(ALIGN)];
        // SAFETY: the words hold at least `bytes.len()` bytes, and any bytes are valid `u64`s.
        let out =
            unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), bytes.len()) };
        out.copy_from_slice(bytes);
        Backing(Store::Words(words, bytes.len()))
    }

    /// The whole of `file`, read into memory aligned for any [`Word`](super::Word).
    pub(crate) fn read(mut file: &std::fs::File) -> std::io::Result<Self> {
        let length = usize::try_from(file.metadata()?.len()).map_err(std::io::Error::other)?;
        let mut words = vec![0u64; length.div_ceil(ALIGN)];
        // SAFETY: the words hold at least `length` bytes, and any bytes are valid `u64`s.
        let bytes =
            unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), length) };
        std::io::Read::read_exact(&mut file, bytes)?;
        Ok(Backing(Store::Words(words, length)))
    }

    /// The bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        match &self.0 {
            Store::Map { map, .. } => map,
            Store::Words(words, length) => {
                // SAFETY: the words own at least `length` initialized bytes, and `u8` has no
                // alignment or validity requirement.
                unsafe { std::slice::from_raw_parts(words.as_ptr().cast::<u8>(), *length) }
            }
        }
    }
}

impl std::fmt::Debug for Backing {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Backing({} bytes)", self.bytes().len())
    }
}

/// The writer of a model file's postcard part, as a postcard flavor: it keeps the postcard part,
/// which is small, and lays the tables out as sections, writing each to `out` as it is met.
pub(crate) struct Writer<'w> {
    postcard: Vec<u8>,
    /// Bytes of all sections with the padding between them.
    length: u64,
    crc: crc32fast::Hasher,
    /// Where the sections go; without it they are only measured. Set once, when the writer is
    /// made, and never replaced (see [`writing`]).
    out: Option<&'w mut dyn Write>,
    /// The first error writing met.
    error: Option<std::io::Error>,
    /// Whether the format written holds every field, even those that a file of an older
    /// format holds only sometimes (see [`Writer::writes_every_field`]).
    every_field: bool,
    /// The format written.
    version: u32,
}

/// Why [`encode`] failed.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Writing a section failed.
    Write(std::io::Error),
    /// Postcard could not encode a value.
    Encode(postcard::Error),
}

/// What [`encode`] made: the postcard part, and the sections' length and CRC-32.
pub(crate) struct Encoded {
    pub(crate) postcard: Vec<u8>,
    pub(crate) length: u64,
    pub(crate) crc: u32,
}

/// Encodes `value` as a model file's postcard part, its tables laid out as sections and written
/// to `out` as they are met (only measured without `out`, to learn their length and CRC-32
/// for the header), in format `version`. `every_field` says that the format written holds every
/// field (see [`Writer::writes_every_field`]). Fails with the writing's error, or else with the
/// encoding's.
pub(crate) fn encode<T: Serialize + ?Sized>(
    value: &T,
    out: Option<&mut dyn Write>,
    (version, every_field): (u32, bool),
) -> Result<Encoded, Failure> {
    let writer = Writer {
        postcard: Vec::new(),
        length: 0,
        crc: crc32fast::Hasher::new(),
        out,
        error: None,
        every_field,
        version,
    };
    let mut serializer = postcard::Serializer { output: writer };
    let encoded = value.serialize(&mut serializer);
    let writer = serializer.output;
    if let Some(error) = writer.error {
        return Err(Failure::Write(error));
    }
    encoded.map_err(Failure::Encode)?;
    Ok(Encoded {
        postcard: writer.postcard,
        length: writer.length,
        crc: writer.crc.finalize(),
    })
}

impl Writer<'_> {
    /// Whether the format written holds every field its reader knows: a file of the newest
    /// format does, since its reader reads them all, while a file of an older one leaves out a
    /// field that only some files of that format hold (the hashed columns of format 10).
    pub(crate) fn writes_every_field(&self) -> bool {
        self.every_field
    }

    /// The format written.
    pub(crate) fn version(&self) -> u32 {
        self.version
    }

    /// Adds a section, writes it when writing, and returns its offset. A section is written
    /// while its table is being encoded, so that no pointer to a table outlives its encoding (a
    /// value may encode a temporary copy of itself).
    pub(crate) fn push(&mut self, bytes: &[u8]) -> u64 {
        let start = self.length as usize;
        let pad = &[0u8; ALIGN][..start.next_multiple_of(ALIGN) - start];
        self.crc.update(pad);
        self.crc.update(bytes);
        let offset = self.length + pad.len() as u64;
        self.length = offset + bytes.len() as u64;
        if let (Some(out), None) = (&mut self.out, &self.error) {
            let written = out.write_all(pad).and_then(|()| out.write_all(bytes));
            self.error = written.err();
        }
        offset
    }
}

impl postcard::ser_flavors::Flavor for Writer<'_> {
    type Output = ();

    fn try_extend(&mut self, bytes: &[u8]) -> postcard::Result<()> {
        self.postcard.extend_from_slice(bytes);
        Ok(())
    }

    fn try_push(&mut self, byte: u8) -> postcard::Result<()> {
        self.postcard.push(byte);
        Ok(())
    }

    fn finalize(self) -> postcard::Result<()> {
        Ok(())
    }
}

/// The model file's writer, when `serializer` is the one that writes a model file's postcard
/// part; `None` for any other serializer.
pub(crate) fn writing<'a, S: Serializer>(serializer: &'a mut S) -> Option<&'a mut Writer<'a>> {
    type Target = &'static mut postcard::Serializer<Writer<'static>>;
    if typeid::of::<S>() != TypeId::of::<Target>() {
        return None;
    }
    // SAFETY: `S` has the type of `Target` but for its lifetimes (`typeid::of` erases them), so
    // it is a `&mut` to postcard's serializer over a `Writer`, which has a pointer's layout. The
    // reference made here borrows `serializer`, so it is unique and lasts no longer than the
    // serializer it points to. The writer's own lifetime, that of `out`, is shortened to that
    // borrow: harmless, since `out` is never assigned after the writer is made, so nothing
    // shorter-lived can be stored in it through this reference.
    let serializer =
        unsafe { &mut **(serializer as *mut S).cast::<*mut postcard::Serializer<Writer<'a>>>() };
    Some(&mut serializer.output)
}

/// A field that model files hold from format `version` on: the [`Reader`] of an older file
/// reads nothing there, and the field takes its default (`#[serde(default)]`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Since {
    /// The format that added the field.
    pub(crate) version: u32,
    /// The name serde gives the struct that holds it.
    pub(crate) owner: &'static str,
    /// The field's name.
    pub(crate) field: &'static str,
}

/// The sections of a model file being read: the bytes, and where the sections lie in them.
#[derive(Clone)]
pub(crate) struct Sections {
    backing: Arc<Backing>,
    range: Range<usize>,
}

impl Sections {
    /// The sections at `range` of `backing`.
    pub(crate) fn new(backing: Arc<Backing>, range: Range<usize>) -> Self {
        Sections { backing, range }
    }

    /// The backing and the position in it of `length` bytes at `offset` of the sections, if
    /// they are all in the file and aligned.
    pub(crate) fn locate(self, offset: u64, length: u64) -> Result<(Arc<Backing>, usize), String> {
        let end = offset.checked_add(length);
        if end.is_none_or(|end| end > self.range.len() as u64) {
            return Err(format!(
                "an array of {length} bytes at {offset} ends past the file's {} bytes of arrays",
                self.range.len()
            ));
        }
        let start = self.range.start + offset as usize;
        if !(self.backing.bytes().as_ptr() as usize + start).is_multiple_of(ALIGN) {
            return Err(format!("an array at {offset} is not aligned"));
        }
        Ok((self.backing, start))
    }
}

/// The reader of a model file's postcard part: postcard's deserializer, which it wraps so that
/// every value inside reaches it ([`reading`]), and which reads a struct's fields as the file's
/// format has them.
pub(crate) struct Reader<'de> {
    postcard: postcard::Deserializer<'de, postcard::de_flavors::Slice<'de>>,
    version: u32,
    fields: &'static [Since],
    /// The format that added the newest of `fields`: a file of it or later has them all.
    newest: u32,
    sections: Option<Sections>,
}

impl<'de> Reader<'de> {
    /// A reader of the postcard part `bytes` of a file of format `version`, to which `fields`
    /// gives the fields added since the oldest format; `sections`, when the format has them.
    pub(crate) fn new(
        bytes: &'de [u8],
        version: u32,
        fields: &'static [Since],
        sections: Option<Sections>,
    ) -> Self {
        Reader {
            postcard: postcard::Deserializer::from_bytes(bytes),
            version,
            fields,
            newest: fields.iter().map(|f| f.version).max().unwrap_or(0),
            sections,
        }
    }

    /// Whether the file holds `field` of the struct serde names `owner`.
    fn holds(&self, owner: &str, field: &str) -> bool {
        self.version >= self.newest
            || self
                .fields
                .iter()
                .all(|f| f.owner != owner || f.field != field || f.version <= self.version)
    }
}

/// The sections of the model file being read, when `deserializer` is a model file's [`Reader`]
/// and the file has sections; `None` for any other deserializer.
pub(crate) fn reading<'a, 'de, D: Deserializer<'de>>(
    deserializer: &'a mut D,
) -> Option<&'a Sections> {
    if typeid::of::<D>() != TypeId::of::<&'static mut Reader<'static>>() {
        return None;
    }
    // SAFETY: `D` has the type of `&mut Reader` but for its lifetimes (`typeid::of` erases them),
    // and a `&mut` has a pointer's layout. The reference made here borrows `deserializer`, so
    // it lasts no longer than the reader it points to, and only what holds no lifetime (the
    // sections) is taken from it.
    let reader = unsafe { &**(deserializer as *mut D).cast::<*mut Reader<'de>>() };
    reader.sections.as_ref()
}

/// Reads a number with postcard's own encoding of it: a byte as it is, a larger one as a
/// varint (how postcard writes lengths and variant indices too).
fn number<'de, T: Deserialize<'de>>(reader: &mut Reader<'de>) -> postcard::Result<T> {
    T::deserialize(&mut reader.postcard)
}

macro_rules! forward {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> postcard::Result<V::Value> {
            (&mut self.postcard).$method(visitor)
        }
    )*};
}

impl<'de> Deserializer<'de> for &mut Reader<'de> {
    type Error = postcard::Error;

    forward! {
        deserialize_any deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32
        deserialize_i64 deserialize_i128 deserialize_u8 deserialize_u16 deserialize_u32
        deserialize_u64 deserialize_u128 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
        deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> postcard::Result<V::Value> {
        match number::<u8>(self)? {
            0 => visitor.visit_none(),
            1 => visitor.visit_some(self),
            _ => Err(postcard::Error::DeserializeBadOption),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        v: V,
    ) -> postcard::Result<V::Value> {
        v.visit_unit()
    }

    fn deserialize_newtype_struct<V>(
        self,
        _: &'static str,
        visitor: V,
    ) -> postcard::Result<V::Value>
    where
        V: Visitor<'de>,
    {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> postcard::Result<V::Value> {
        let left = number(self)?;
        visitor.visit_seq(Elements { reader: self, left })
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        left: usize,
        visitor: V,
    ) -> postcard::Result<V::Value> {
        visitor.visit_seq(Elements { reader: self, left })
    }

    fn deserialize_tuple_struct<V>(
        self,
        _: &'static str,
        left: usize,
        v: V,
    ) -> postcard::Result<V::Value>
    where
        V: Visitor<'de>,
    {
        v.visit_seq(Elements { reader: self, left })
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> postcard::Result<V::Value> {
        let left = number(self)?;
        visitor.visit_map(Elements { reader: self, left })
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        owner: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> postcard::Result<V::Value> {
        visitor.visit_seq(Fields {
            reader: self,
            owner,
            fields,
        })
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> postcard::Result<V::Value> {
        visitor.visit_enum(self)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The elements of a sequence, tuple or map, of which `left` are still to be read.
struct Elements<'a, 'de> {
    reader: &'a mut Reader<'de>,
    left: usize,
}

impl<'de> Elements<'_, 'de> {
    fn next<S: DeserializeSeed<'de>>(&mut self, seed: S) -> postcard::Result<Option<S::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.reader).map(Some)
    }
}

impl<'de> SeqAccess<'de> for Elements<'_, 'de> {
    type Error = postcard::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> postcard::Result<Option<S::Value>> {
        self.next(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> MapAccess<'de> for Elements<'_, 'de> {
    type Error = postcard::Error;

    fn next_key_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> postcard::Result<Option<S::Value>> {
        self.next(seed)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> postcard::Result<S::Value> {
        seed.deserialize(&mut *self.reader)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// A struct's fields still to be read. One the file's format lacks reads as absent, which gives
/// it its default: postcard knows no field names, so reading it would take the next field's
/// bytes.
struct Fields<'a, 'de> {
    reader: &'a mut Reader<'de>,
    owner: &'static str,
    fields: &'static [&'static str],
}

impl<'de> SeqAccess<'de> for Fields<'_, 'de> {
    type Error = postcard::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> postcard::Result<Option<S::Value>> {
        let Some((field, rest)) = self.fields.split_first() else {
            return Ok(None);
        };
        self.fields = rest;
        if !self.reader.holds(self.owner, field) {
            return Ok(None);
        }
        seed.deserialize(&mut *self.reader).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len())
    }
}

impl<'de> EnumAccess<'de> for &mut Reader<'de> {
    type Error = postcard::Error;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> postcard::Result<(S::Value, Self)> {
        let index: u32 = number(self)?;
        let variant = seed.deserialize(U32Deserializer::new(index))?;
        Ok((variant, self))
    }
}

impl<'de> VariantAccess<'de> for &mut Reader<'de> {
    type Error = postcard::Error;

    fn unit_variant(self) -> postcard::Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> postcard::Result<S::Value> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, left: usize, visitor: V) -> postcard::Result<V::Value> {
        visitor.visit_seq(Elements { reader: self, left })
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> postcard::Result<V::Value> {
        self.tuple_variant(fields.len(), visitor)
    }
}

#[cfg(test)]
mod tests;
