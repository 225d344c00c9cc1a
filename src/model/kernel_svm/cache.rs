//! A least-recently-used cache of kernel matrix rows, bounded in bytes.
//!
//! A cached row holds the kernel's value for every training row, in `f32` as LIBSVM caches its
//! rows: half the memory of `f64`, twice the rows in the same budget, and rounding far below the
//! solver's tolerance. Rows are linked in a list from the most to the least recently used, as in
//! LIBSVM, so finding the row to evict costs nothing.

/// Cached rows of an `l` × `l` matrix.
pub(crate) struct RowCache {
    rows: Vec<Option<Box<[f32]>>>,
    /// The list's links; index `l` is its head, whose `next` is the most recently used row.
    prev: Vec<usize>,
    next: Vec<usize>,
    cached: usize,
    capacity: usize,
}

impl RowCache {
    /// A cache for rows of length `l` taking at most `bytes` bytes, but always room for the two
    /// rows that one solver step uses together.
    pub(crate) fn new(l: usize, bytes: usize) -> Self {
        let row_bytes = (l * size_of::<f32>()).max(1);
        let capacity = (bytes / row_bytes).clamp(2, l.max(2));
        RowCache {
            rows: (0..l).map(|_| None).collect(),
            prev: vec![l; l + 1],
            next: vec![l; l + 1],
            cached: 0,
            capacity,
        }
    }

    /// Row `i`, made the most recently used, and whether it is new (its contents are then left
    /// from an evicted row, for the caller to overwrite).
    pub(crate) fn row_mut(&mut self, i: usize) -> (&mut [f32], bool) {
        let fresh = self.rows[i].is_none();
        if fresh {
            let reused = if self.cached == self.capacity {
                self.evict()
            } else {
                self.cached += 1;
                None
            };
            self.rows[i] = Some(reused.unwrap_or_else(|| vec![0.0; self.rows.len()].into()));
        } else {
            self.unlink(i);
        }
        self.link_first(i);
        (self.rows[i].as_deref_mut().unwrap_or_default(), fresh)
    }

    /// Row `i` as cached; empty when it is not.
    pub(crate) fn row(&self, i: usize) -> &[f32] {
        self.rows[i].as_deref().unwrap_or_default()
    }

    /// Drops the least recently used row and returns its storage for reuse.
    fn evict(&mut self) -> Option<Box<[f32]>> {
        let head = self.rows.len();
        let last = self.prev[head];
        self.unlink(last);
        self.rows[last].take()
    }

    fn unlink(&mut self, i: usize) {
        let (p, n) = (self.prev[i], self.next[i]);
        self.next[p] = n;
        self.prev[n] = p;
    }

    fn link_first(&mut self, i: usize) {
        let head = self.rows.len();
        let first = self.next[head];
        self.next[i] = first;
        self.prev[i] = head;
        self.prev[first] = i;
        self.next[head] = i;
    }
}
