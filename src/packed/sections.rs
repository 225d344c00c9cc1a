//! The array sections of a model file, and the context that tells a [`Table`](super::Table)
//! being encoded or decoded whether it is in one.
//!
//! A model file of format 6 holds raw arrays followed by a small postcard part. Serde gives a
//! value no way to pass state to its fields, so the context is thread-local: the model file's
//! writer and reader set it for the one thread that encodes or decodes, and every table inside
//! the model sees it. Outside it (a vocabulary file, an older model file) tables encode as
//! before, as one packed byte string.

use std::cell::RefCell;
use std::io::Write;
use std::ops::Range;
use std::sync::Arc;

/// Sections start at multiples of this, which is the alignment of every [`Word`](super::Word).
pub const ALIGN: usize = 8;

/// Bytes that tables can point into for as long as they live: a mapped file, or a copy of one
/// in memory aligned for any [`Word`](super::Word).
pub struct Backing(Store);

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
    pub fn mapped(map: memmap2::Mmap, file: std::fs::File) -> Self {
        Backing(Store::Map { map, _file: file })
    }

    /// A copy of `bytes` at an address aligned for any [`Word`](super::Word): the one copy a
    /// model decoded from memory, rather than mapped from its file, costs.
    pub fn copied(bytes: &[u8]) -> Self {
        let mut words = vec![0u64; bytes.len().div_ceil(ALIGN)];
        // SAFETY: the words hold at least `bytes.len()` bytes, and any bytes are valid `u64`s.
        let out =
            unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), bytes.len()) };
        out.copy_from_slice(bytes);
        Backing(Store::Words(words, bytes.len()))
    }

    /// The whole of `file`, read into memory aligned for any [`Word`](super::Word).
    pub fn read(mut file: &std::fs::File) -> std::io::Result<Self> {
        let length = usize::try_from(file.metadata()?.len()).map_err(std::io::Error::other)?;
        let mut words = vec![0u64; length.div_ceil(ALIGN)];
        // SAFETY: the words hold at least `length` bytes, and any bytes are valid `u64`s.
        let bytes =
            unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), length) };
        std::io::Read::read_exact(&mut file, bytes)?;
        Ok(Backing(Store::Words(words, length)))
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
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

/// What a table meets while a model file is encoded or decoded.
enum Context {
    /// Encoding: tables are laid out one after another and encode only where they are.
    Writing(Layout),
    /// Decoding: tables point into `range` of the backing.
    Reading(Arc<Backing>, Range<usize>),
}

thread_local! {
    static CONTEXT: RefCell<Option<Context>> = const { RefCell::new(None) };
}

/// The sections of a model being written: their total length and CRC-32, and, on the pass
/// that writes them, where to.
#[derive(Default)]
pub struct Layout {
    /// Bytes of all sections with the padding between them.
    pub length: u64,
    crc: crc32fast::Hasher,
    /// The output, on the pass that writes (see [`with_writer`]).
    out: Option<*mut (dyn Write + 'static)>,
    /// The first error writing met.
    error: Option<std::io::Error>,
}

impl Layout {
    /// The CRC-32 of the sections' bytes, padding included.
    pub fn crc(&self) -> u32 {
        self.crc.clone().finalize()
    }

    /// Adds a section, writes it when writing, and returns its offset. A section is written
    /// while its table is being encoded, so no pointer to a table outlives its encoding (a
    /// value may encode a temporary copy of itself).
    fn push(&mut self, bytes: &[u8]) -> u64 {
        let pad = &[0u8; ALIGN][..padding(self.length as usize)];
        self.crc.update(pad);
        self.crc.update(bytes);
        let offset = self.length + pad.len() as u64;
        self.length = offset + bytes.len() as u64;
        if let (Some(out), None) = (self.out, &self.error) {
            // SAFETY: `with_writer` holds the writer's borrow while this pointer is set, and
            // clears it before returning.
            let out = unsafe { &mut *out };
            let written = out.write_all(pad).and_then(|()| out.write_all(bytes));
            self.error = written.err();
        }
        offset
    }
}

/// Bytes of padding after `offset` to the next multiple of [`ALIGN`].
pub fn padding(offset: usize) -> usize {
    offset.next_multiple_of(ALIGN) - offset
}

/// Runs `encode` with tables laid out as sections, and returns its result and the layout.
pub fn with_layout<R>(encode: impl FnOnce() -> R) -> (R, Layout) {
    let _guard = Guard::set(Context::Writing(Layout::default()));
    let result = encode();
    (result, take_layout())
}

/// Like [`with_layout`], writing each section to `out` as it is laid out; returns the result
/// of `encode` and of the writing.
pub fn with_writer<R>(out: &mut dyn Write, encode: impl FnOnce() -> R) -> (R, std::io::Result<()>) {
    let out: *mut (dyn Write + '_) = out;
    // SAFETY: only the lifetime changes; the guard clears the context, and with it the
    // pointer, before `out`'s borrow ends.
    let out: *mut (dyn Write + 'static) = unsafe { std::mem::transmute(out) };
    let _guard = Guard::set(Context::Writing(Layout {
        out: Some(out),
        ..Layout::default()
    }));
    let result = encode();
    let written = take_layout().error.map_or(Ok(()), Err);
    (result, written)
}

fn take_layout() -> Layout {
    match CONTEXT.with(|c| c.borrow_mut().take()) {
        Some(Context::Writing(layout)) => layout,
        _ => Layout::default(),
    }
}

/// Runs `decode` with tables pointing into `range` of `backing`.
pub fn with_sections<R>(
    backing: &Arc<Backing>,
    range: Range<usize>,
    decode: impl FnOnce() -> R,
) -> R {
    let _guard = Guard::set(Context::Reading(Arc::clone(backing), range));
    decode()
}

/// Whether a model file of format 6 is being encoded or decoded on this thread.
pub fn active() -> bool {
    CONTEXT.with(|c| c.borrow().is_some())
}

/// Lays `bytes` out as the next section when a model file is being written; returns its offset.
pub(super) fn lay_out(bytes: &[u8]) -> Option<u64> {
    CONTEXT.with(|c| match &mut *c.borrow_mut() {
        Some(Context::Writing(layout)) => Some(layout.push(bytes)),
        _ => None,
    })
}

/// The backing and the position in it of `length` bytes at `offset` of the sections, when a
/// model file is being read: `Some(Err)` when they are not all in the file or misaligned.
pub(super) fn find(offset: u64, length: u64) -> Option<Result<(Arc<Backing>, usize), String>> {
    CONTEXT.with(|c| match &*c.borrow() {
        Some(Context::Reading(backing, range)) => Some(locate(backing, range, offset, length)),
        _ => None,
    })
}

fn locate(
    backing: &Arc<Backing>,
    range: &Range<usize>,
    offset: u64,
    length: u64,
) -> Result<(Arc<Backing>, usize), String> {
    let end = offset.checked_add(length);
    if end.is_none_or(|end| end > range.len() as u64) {
        return Err(format!(
            "an array of {length} bytes at {offset} ends past the file's {} bytes of arrays",
            range.len()
        ));
    }
    let start = range.start + offset as usize;
    if !(backing.bytes().as_ptr() as usize + start).is_multiple_of(ALIGN) {
        return Err(format!("an array at {offset} is not aligned"));
    }
    Ok((Arc::clone(backing), start))
}

/// Sets the context and clears it when dropped, even by a panic, so that no later encoding on
/// this thread meets a stale one.
struct Guard;

impl Guard {
    fn set(context: Context) -> Self {
        CONTEXT.with(|c| *c.borrow_mut() = Some(context));
        Guard
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        CONTEXT.with(|c| *c.borrow_mut() = None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packed::Table;

    type Pair = (Table<u32>, Table<f64>);

    /// The sections and the postcard part of `pair`, as a model file lays them out.
    fn encode(pair: &Pair) -> (Vec<u8>, Vec<u8>) {
        let (mut sections, mut meta) = (Vec::new(), Vec::new());
        let (encoded, written) = with_writer(&mut sections, || postcard::to_io(pair, &mut meta));
        encoded.unwrap();
        written.unwrap();
        (sections, meta)
    }

    fn decode(sections: &[u8], meta: &[u8]) -> postcard::Result<Pair> {
        let backing = Arc::new(Backing::copied(sections));
        with_sections(&backing, 0..sections.len(), || postcard::from_bytes(meta))
    }

    #[test]
    fn tables_round_trip_through_sections_aligned_and_in_place() {
        let pair: Pair = (vec![1, 2, 3].into(), vec![0.5, -1.0].into());
        let (sections, meta) = encode(&pair);
        let ((), layout) = with_layout(|| ());
        assert_eq!(layout.length, 0);
        // 12 bytes of u32, 4 of padding, 16 of f64.
        assert_eq!(sections.len(), 32);
        assert_eq!(decode(&sections, &meta).unwrap(), pair);
        // Outside a model file, tables are packed byte strings, as before.
        let packed = postcard::to_stdvec(&pair).unwrap();
        assert_eq!(postcard::from_bytes::<Pair>(&packed).unwrap(), pair);
    }

    #[test]
    fn a_table_outside_the_sections_or_misaligned_is_refused() {
        let pair: Pair = (vec![1, 2, 3].into(), vec![0.5, -1.0].into());
        let (sections, meta) = encode(&pair);
        assert!(decode(&sections[..31], &meta).is_err());
        // The second table's offset (16) moved to 12: inside the sections, but misaligned.
        let mut moved = meta.clone();
        let at = moved.iter().rposition(|&b| b == 16).unwrap();
        moved[at] = 12;
        assert!(decode(&sections, &moved).is_err());
    }
}
