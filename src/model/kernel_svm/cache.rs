//! A least-recently-used cache of kernel matrix rows, bounded in bytes.
//!
//! Each cached row has an entry for every training row, NaN where not yet computed: with
//! shrinking the solver asks only for the entries of the active rows, and fills the others when
//! it needs them, so a row is never computed twice while cached. Rows are linked in a list from
//! the most to the least recently used, as in LIBSVM, so finding the row to evict costs nothing.

/// Cached rows of an `l` × `l` matrix.
pub(crate) struct RowCache {
    rows: Vec<Option<Box<[f64]>>>,
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
        let row_bytes = (l * size_of::<f64>()).max(1);
        let capacity = (bytes / row_bytes).clamp(2, l.max(2));
        RowCache {
            rows: (0..l).map(|_| None).collect(),
            prev: vec![l; l + 1],
            next: vec![l; l + 1],
            cached: 0,
            capacity,
        }
    }

    /// Row `i`, made the most recently used; a new row is all NaN.
    pub(crate) fn row_mut(&mut self, i: usize) -> &mut [f64] {
        if self.rows[i].is_some() {
            self.unlink(i);
        } else {
            let reused = if self.cached == self.capacity {
                self.evict()
            } else {
                self.cached += 1;
                None
            };
            let mut row = reused.unwrap_or_else(|| vec![f64::NAN; self.rows.len()].into());
            row.fill(f64::NAN);
            self.rows[i] = Some(row);
        }
        self.link_first(i);
        self.rows[i].as_deref_mut().unwrap_or_default()
    }

    /// Row `i` as cached; empty when it is not.
    pub(crate) fn row(&self, i: usize) -> &[f64] {
        self.rows[i].as_deref().unwrap_or_default()
    }

    /// Drops the least recently used row and returns its storage for reuse.
    fn evict(&mut self) -> Option<Box<[f64]>> {
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
