//! Deterministic, stratified splits: a dev (held-out) part, and k folds for cross-validation.
//!
//! Within each class, documents are ordered by a seeded hash of their id, so a document's side
//! depends on its id and the seed only, not on the input order or the thread count; taking the
//! same share of every class keeps the class balance of each part equal to the whole.

use std::path::Path;

use crate::error::{Error, Result};

/// A 64-bit hash of `id` under `seed` (FNV-1a, then SplitMix64's finalizer to spread the bits).
pub(crate) fn seeded_hash(id: &str, seed: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed;
    for &b in id.as_bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// Each class's document positions, ordered by seeded hash (ties by position).
fn shuffled_by_class(ids: &[String], labels: &[u32], seed: u64) -> Vec<Vec<usize>> {
    let classes = labels.iter().map(|&l| l as usize + 1).max().unwrap_or(0);
    let mut by_class = vec![Vec::new(); classes];
    for (i, &label) in labels.iter().enumerate() {
        by_class[label as usize].push(i);
    }
    for members in &mut by_class {
        members.sort_by_key(|&i| (seeded_hash(&ids[i], seed), i));
    }
    by_class
}

/// Which documents go to the dev part: `fraction` of each class (rounded, at least one document
/// of any class with two or more), the rest train.
pub fn dev_split(ids: &[String], labels: &[u32], fraction: f64, seed: u64) -> Result<Vec<bool>> {
    if !(fraction > 0.0 && fraction < 1.0) {
        return Err(Error::Config(format!(
            "--dev-split must be in (0, 1), got {fraction}"
        )));
    }
    let mut dev = vec![false; labels.len()];
    for members in shuffled_by_class(ids, labels, seed) {
        let n = members.len();
        let take = ((fraction * n as f64).round() as usize)
            .clamp(usize::from(n >= 2), n.saturating_sub(1));
        members.iter().take(take).for_each(|&i| dev[i] = true);
    }
    Ok(dev)
}

/// Refuses `k` folds of `n` documents of `corpus` when there are fewer documents than folds,
/// naming what the folds are for (`purpose`): the check of the commands whose fold count is not
/// `--folds`, made before any work on the documents.
pub(crate) fn enough_documents(corpus: &Path, purpose: &str, k: usize, n: usize) -> Result<()> {
    if k > n {
        let message = format!("{k} {purpose} folds need as many documents; there are {n}");
        return Err(Error::input(corpus, message));
    }
    Ok(())
}

/// Each document's fold in `0..k`: within each class, documents are dealt to the folds in turn,
/// so every fold's class counts differ by at most one.
pub fn folds(ids: &[String], labels: &[u32], k: usize, seed: u64) -> Result<Vec<usize>> {
    if k < 2 || k > labels.len() {
        return Err(Error::Config(format!(
            "--folds must be between 2 and the number of documents ({}), got {k}",
            labels.len()
        )));
    }
    let mut fold = vec![0; labels.len()];
    let mut next = 0;
    for members in shuffled_by_class(ids, labels, seed) {
        for &i in &members {
            fold[i] = next % k;
            next += 1;
        }
    }
    Ok(fold)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus() -> (Vec<String>, Vec<u32>) {
        let labels: Vec<u32> = (0..100).map(|i| u32::from(i % 10 == 0)).collect();
        let ids = (0..100).map(|i| format!("doc{i}")).collect();
        (ids, labels)
    }

    #[test]
    fn a_dev_split_is_stratified_and_reproducible_by_seed() {
        let (ids, labels) = corpus();
        let dev = dev_split(&ids, &labels, 0.2, 7).unwrap();
        let per_class = |c: u32| (0..100).filter(|&i| dev[i] && labels[i] == c).count();
        assert_eq!((per_class(0), per_class(1)), (18, 2));
        assert_eq!(dev_split(&ids, &labels, 0.2, 7).unwrap(), dev);
        assert_ne!(dev_split(&ids, &labels, 0.2, 8).unwrap(), dev);
        // The split follows the ids, not the input order.
        let (mut rev_ids, mut rev_labels) = (ids.clone(), labels.clone());
        rev_ids.reverse();
        rev_labels.reverse();
        let mut reversed = dev_split(&rev_ids, &rev_labels, 0.2, 7).unwrap();
        reversed.reverse();
        assert_eq!(reversed, dev);
        assert!(dev_split(&ids, &labels, 1.0, 7).is_err());
    }

    #[test]
    fn folds_are_stratified_and_cover_every_document_once() {
        let (ids, labels) = corpus();
        let fold = folds(&ids, &labels, 5, 1).unwrap();
        for f in 0..5 {
            let members: Vec<usize> = (0..100).filter(|&i| fold[i] == f).collect();
            assert_eq!(members.len(), 20);
            assert_eq!(members.iter().filter(|&&i| labels[i] == 1).count(), 2);
        }
        assert!(folds(&ids, &labels, 1, 1).is_err());
    }
}
