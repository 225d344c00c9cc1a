//! Vocabulary pruning: provisional ids with their statistics become the final, sorted vocabulary.

use rayon::slice::ParallelSliceMut;

use super::config::VectorizerConfig;

/// Applies `min_df`, `max_df` and `max_features` to the terms (indexed by provisional id) and
/// sorts the survivors by term.
///
/// Returns the final terms with their document frequencies, and a map from provisional id to
/// final id (`u32::MAX` for a pruned term). `max_features` keeps the terms with the highest total
/// count, ties broken by term, so the result never depends on input order or thread timing.
pub fn prune(
    mut terms: Vec<Box<str>>,
    df: &[u32],
    total: &[u64],
    config: &VectorizerConfig,
    n_docs: u32,
) -> (Vec<String>, Vec<u32>, Vec<u32>) {
    let (min_df, max_df) = (
        config.min_df.min_count(n_docs),
        config.max_df.max_count(n_docs),
    );
    let df_of = |id: u32| df.get(id as usize).copied().unwrap_or(0);
    let mut kept: Vec<u32> = (0..terms.len() as u32)
        .filter(|&id| df_of(id) > 0 && (min_df..=max_df).contains(&df_of(id)))
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
    kept.par_sort_unstable_by(|&a, &b| terms[a as usize].cmp(&terms[b as usize]));
    let mut remap = vec![u32::MAX; terms.len()];
    for (new, &old) in kept.iter().enumerate() {
        remap[old as usize] = new as u32;
    }
    let kept_df = kept.iter().map(|&id| df_of(id)).collect();
    let names = kept
        .iter()
        .map(|&id| std::mem::take(&mut terms[id as usize]).into_string())
        .collect();
    (names, kept_df, remap)
}
