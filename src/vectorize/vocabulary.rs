//! Vocabulary pruning: provisional ids with their statistics become the final, sorted vocabulary.

use rayon::slice::ParallelSliceMut;

use super::config::VectorizerConfig;
use super::TermList;

/// Applies `min_df`, `max_df` and `max_features` to the terms (indexed by provisional id) and
/// sorts the survivors by term.
///
/// Returns the final terms with their document frequencies, and a map from provisional id to
/// final id (`u32::MAX` for a pruned term). `max_features` keeps the terms with the highest total
/// count, ties broken by term, so the result never depends on input order or thread timing.
pub fn prune(
    terms: &TermList,
    df: &[u32],
    total: &[u64],
    config: &VectorizerConfig,
    n_docs: u32,
) -> (TermList, Vec<u32>, Vec<u32>) {
    let df_of = |id: u32| df.get(id as usize).copied().unwrap_or(0);
    let mut kept: Vec<u32> = (0..terms.len() as u32)
        .filter(within_df_bounds(df, config, n_docs))
        .collect();
    if let Some(limit) = config.max_features {
        if kept.len() > limit {
            kept.sort_unstable_by(|&a, &b| {
                let (a, b) = (a as usize, b as usize);
                total[b]
                    .cmp(&total[a])
                    .then_with(|| terms[a].cmp(&terms[b]))
            });
            kept.truncate(limit);
        }
    }
    sort_by_term(&mut kept, terms);
    let mut remap = vec![u32::MAX; terms.len()];
    for (new, &old) in kept.iter().enumerate() {
        remap[old as usize] = new as u32;
    }
    let kept_df = kept.iter().map(|&id| df_of(id)).collect();
    let names = kept.iter().map(|&id| &terms[id as usize]).collect();
    (names, kept_df, remap)
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
