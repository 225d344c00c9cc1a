//! [`Terms`]: the terms of one document in one buffer.

/// The terms of one document, stored as one string plus the end offset of each term.
///
/// One buffer per document instead of one `String` per term keeps allocation out of the hot path:
/// a stage rewrites a document's terms into a reused scratch buffer and swaps the two.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Terms {
    text: String,
    ends: Vec<u32>,
}

impl Terms {
    /// Empty terms.
    pub fn new() -> Self {
        Terms::default()
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when there are no terms.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Removes every term, keeping the allocations.
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// Appends a term.
    pub fn push(&mut self, term: &str) {
        self.text.push_str(term);
        self.end_term();
    }

    /// Appends a term built by writing into the buffer; call after pushing its pieces with
    /// [`Terms::push_piece`]. Lets n-grams and lowercasing build a term without a temporary string.
    pub(crate) fn end_term(&mut self) {
        // Documents are capped at `max_doc_bytes` (u64), but a term buffer over 4 GiB would need
        // a single document of that size after analysis; the offset type bounds it explicitly.
        let end = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        self.ends.push(end);
    }

    /// Appends text to the term being built.
    pub(crate) fn push_piece(&mut self, piece: &str) {
        self.text.push_str(piece);
    }

    /// Appends one character to the term being built.
    pub(crate) fn push_char(&mut self, c: char) {
        self.text.push(c);
    }

    /// The term at `index`.
    pub fn get(&self, index: usize) -> &str {
        let start = if index == 0 {
            0
        } else {
            self.ends[index - 1] as usize
        };
        &self.text[start..self.ends[index] as usize]
    }

    /// The terms in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// The whole buffer, terms back to back; lets a stage test or rewrite all terms at once.
    pub(crate) fn buffer(&self) -> &str {
        &self.text
    }

    /// Mutable access to the buffer for rewrites that keep every byte offset (ASCII lowercasing).
    pub(crate) fn buffer_mut(&mut self) -> &mut str {
        &mut self.text
    }
}

impl<'a> FromIterator<&'a str> for Terms {
    fn from_iter<I: IntoIterator<Item = &'a str>>(iter: I) -> Self {
        let mut terms = Terms::new();
        for term in iter {
            terms.push(term);
        }
        terms
    }
}
