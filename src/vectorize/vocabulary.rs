//! Vocabulary pruning: provisional ids with their statistics become the final, sorted vocabulary.

use rayon::slice::ParallelSliceMut;

use super::config::VectorizerConfig;
use super::TermList;

/// Terms by provisional id, as pruning reads them: spelled out in a list, or still as the
/// interner's parts.
pub(crate) trait TermSource {
    /// Number of provisional ids.
    fn count(&self) -> usize;

    /// The ids sorted by their terms' bytes, with those terms in that order.
    fn sorted(&self, ids: Vec<u32>) -> (Vec<u32>, TermList);
}

impl TermSource for TermList {
    fn count(&self) -> usize {
        self.len()
    }

    fn sorted(&self, mut ids: Vec<u32>) -> (Vec<u32>, TermList) {
        sort_by_term(&mut ids, self);
        let bytes = ids
            .iter()
            .map(|&id| self.term_bytes(id as usize).len())
            .sum();
        let mut list = TermList::with_capacity(ids.len(), bytes);
        ids.iter().for_each(|&id| list.push(&self[id as usize]));
        (ids, list)
    }
}

/// Applies `min_df`, `max_df` and `max_features` to the terms (indexed by provisional id) and
/// sorts the survivors by term.
///
/// Returns the final terms with their document frequencies, and a map from provisional id to
/// final id (`u32::MAX` for a pruned term). `max_features` keeps the terms with the highest total
/// count, ties broken by term, so the result never depends on input order or thread timing.
pub fn prune(
    terms: &impl TermSource,
    df: &[u32],
    total: &[u64],
    config: &VectorizerConfig,
    n_docs: u32,
) -> (TermList, Vec<u32>, Vec<u32>) {
    let df_of = |id: u32| df.get(id as usize).copied().unwrap_or(0);
    let mut kept: Vec<u32> = (0..terms.count() as u32)
        .filter(within_df_bounds(df, config, n_docs))
        .collect();
    if let Some(limit) = config.max_features.filter(|&limit| kept.len() > limit) {
        kept = most_frequent(terms, kept, total, limit);
    }
    let (kept, names) = terms.sorted(kept);
    let mut remap = vec![u32::MAX; terms.count()];
    for (new, &old) in kept.iter().enumerate() {
        remap[old as usize] = new as u32;
    }
    let kept_df = kept.iter().map(|&id| df_of(id)).collect();
    (names, kept_df, remap)
}

/// The `limit` ids of `ids` with the highest totals, ties broken by term, in no order. Only the
/// ties at the lowest total kept need their terms.
fn most_frequent(terms: &impl TermSource, ids: Vec<u32>, total: &[u64], limit: usize) -> Vec<u32> {
    let total_of = |id: u32| total.get(id as usize).copied().unwrap_or(0);
    let Some(last) = limit.checked_sub(1) else {
        return Vec::new();
    };
    let mut totals: Vec<u64> = ids.iter().map(|&id| total_of(id)).collect();
    let (_, &mut bound, _) = totals.select_nth_unstable_by(last, |a, b| b.cmp(a));
    let mut kept: Vec<u32> = ids
        .iter()
        .copied()
        .filter(|&id| total_of(id) > bound)
        .collect();
    let tied = ids
        .into_iter()
        .filter(|&id| total_of(id) == bound)
        .collect();
    let (tied, _) = terms.sorted(tied);
    kept.extend(tied.into_iter().take(limit - kept.len()));
    kept
}

/// Prunes hashed columns by document frequency: `columns[id]` is the hashed column of provisional
/// id `id`, `df[id]` its document frequency. Returns the kept hashed columns in ascending order,
/// their document frequencies, and each id's index among them (`u32::MAX` when pruned): a
/// column no document reached has no index, as it has no array entry anywhere.
pub fn prune_hashed(
    columns: &[u32],
    df: &[u32],
    config: &VectorizerConfig,
    n_docs: u32,
) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let wanted = within_df_bounds(df, config, n_docs);
    let mut kept: Vec<u32> = (0..df.len() as u32).filter(|id| wanted(id)).collect();
    kept.sort_unstable_by_key(|&id| columns[id as usize]);
    let mut remap = vec![u32::MAX; df.len()];
    for (index, &id) in kept.iter().enumerate() {
        remap[id as usize] = index as u32;
    }
    let kept_columns = kept.iter().map(|&id| columns[id as usize]).collect();
    let kept_df = kept.iter().map(|&id| df[id as usize]).collect();
    (kept_columns, kept_df, remap)
}

/// Whether a provisional id's term occurs and meets `min_df` and `max_df`: the terms that
/// pruning by document frequency keeps, and the only ones [`prune`] needs spelled out.
pub fn within_df_bounds<'a>(
    df: &'a [u32],
    config: &VectorizerConfig,
    n_docs: u32,
) -> impl Fn(&u32) -> bool + 'a {
    let bounds = config.min_df.min_count(n_docs).max(1)..=config.max_df.max_count(n_docs);
    move |&id| bounds.contains(&df.get(id as usize).copied().unwrap_or(0))
}

/// Sorts ids by their terms' bytes. Comparing two strings costs a call and a loop, so each id is
/// paired with its term's first eight bytes as a big-endian integer, and strings are compared
/// only when those are equal. Terms never hold NUL bytes (they are made of word characters), so
/// zero padding orders a short term before its extensions, as byte order does.
fn sort_by_term(ids: &mut [u32], terms: &TermList) {
    let prefix = |id: u32| {
        let mut bytes = [0u8; 8];
        let term = terms[id as usize].as_bytes();
        let len = term.len().min(8);
        bytes[..len].copy_from_slice(&term[..len]);
        u64::from_be_bytes(bytes)
    };
    let mut keyed: Vec<(u64, u32)> = ids.iter().map(|&id| (prefix(id), id)).collect();
    keyed.par_sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| terms[a.1 as usize].cmp(&terms[b.1 as usize]))
    });
    for (slot, (_, id)) in ids.iter_mut().zip(keyed) {
        *slot = id;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_sort_is_byte_order() {
        let words = [
            "zebra",
            "abcdefghij",
            "abcdefghi",
            "abcdefgh",
            "ab",
            "b",
            "a b",
            "é",
            "abcdefgha",
        ];
        let terms: TermList = words.iter().collect();
        let mut ids: Vec<u32> = (0..terms.len() as u32).collect();
        sort_by_term(&mut ids, &terms);
        let sorted: Vec<&str> = ids.iter().map(|&i| words[i as usize]).collect();
        let mut expected = words.to_vec();
        expected.sort_unstable();
        assert_eq!(sorted, expected);
    }
}
