//! Multi-label training data, shared by the solvers that train on it and by the multi-label
//! classifier: the label ids of every training row, and per label the scores of rows held out.

/// The label ids of every training row, sorted, stored end to end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LabelSets {
    /// Row `i`'s ids are `ids[starts[i]..starts[i + 1]]`.
    starts: Vec<usize>,
    ids: Vec<u32>,
}

impl LabelSets {
    /// No rows.
    pub fn new() -> Self {
        LabelSets {
            starts: vec![0],
            ids: Vec::new(),
        }
    }

    /// Appends a row with the label ids `ids` (in any order, repeats dropped).
    pub fn push(&mut self, ids: impl IntoIterator<Item = u32>) {
        let mut row: Vec<u32> = ids.into_iter().collect();
        row.sort_unstable();
        row.dedup();
        self.ids.extend(row);
        self.starts.push(self.ids.len());
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `i`'s label ids, ascending.
    pub fn row(&self, i: usize) -> &[u32] {
        &self.ids[self.starts[i]..self.starts[i + 1]]
    }

    /// Whether row `i` has label `c`.
    #[inline]
    pub fn contains(&self, i: usize, c: usize) -> bool {
        self.row(i).iter().any(|&id| id as usize == c)
    }

    /// The rows `rows`, in that order.
    pub fn select(&self, rows: &[usize]) -> LabelSets {
        let mut out = LabelSets::new();
        rows.iter()
            .for_each(|&i| out.push(self.row(i).iter().copied()));
        out
    }

    /// Rows per label, over `labels` labels.
    pub fn counts(&self, labels: usize) -> Vec<u64> {
        let mut counts = vec![0u64; labels];
        self.ids.iter().for_each(|&c| counts[c as usize] += 1);
        counts
    }
}

/// Per label, each held-out document's score for it and whether it has it: what
/// [`choose_threshold`](super::multilabel::choose_threshold) reads.
pub(crate) type HeldOutScores = Vec<Vec<(f64, bool)>>;
