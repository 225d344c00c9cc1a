//! A bounded, uniform sample of the rows a linear SVM was trained on, kept in the model so that
//! `bowline update` can revisit earlier examples without the original corpus.
//!
//! Rows are admitted by Vitter's Algorithm R: the t-th row ever offered takes a random slot with
//! probability capacity / t, so after any sequence of training and updates the reservoir is a
//! uniform sample of every row seen. Each kept row carries its dual variables, one per class,
//! which lets an update continue the dual coordinate descent where training left it.

use serde::{Deserialize, Serialize};

use super::random::SplitMix;
use crate::packed::Table;

/// One kept training row: weighted values as the model last saw them, its class, and its dual
/// variable in each class's binary problem.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeptRow {
    /// Column ids, ascending.
    pub indices: Table<u32>,
    /// Weighted values, as `f32`: half the size, and far more precise than the solver's tolerance.
    pub values: Table<f32>,
    /// Class id.
    pub label: u32,
    /// Dual variable per class.
    pub alpha: Table<f32>,
}

/// The sample and the state of its sampling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reservoir {
    capacity: u32,
    seen: u64,
    random: SplitMix,
    rows: Vec<KeptRow>,
}

impl Reservoir {
    /// An empty reservoir holding at most `capacity` rows.
    pub fn new(capacity: u32, seed: u64) -> Self {
        Reservoir {
            capacity,
            seen: 0,
            random: SplitMix(seed),
            rows: Vec::new(),
        }
    }

    /// Rows offered so far, kept or not.
    pub(crate) fn seen(&self) -> u64 {
        self.seen
    }

    /// The kept rows.
    pub fn rows(&self) -> &[KeptRow] {
        &self.rows
    }

    /// The kept rows, to update in place (an update re-weighs them and moves their columns).
    pub(crate) fn rows_mut(&mut self) -> &mut [KeptRow] {
        &mut self.rows
    }

    /// One reservoir of `capacity` rows from reservoirs of disjoint streams, each of the same
    /// capacity or more: a uniform sample of the union of the streams, as one reservoir offered
    /// every row would hold. Each part's rows are shuffled (the order of a reservoir's slots
    /// follows its stream's order), then each slot takes the next row of a part chosen with
    /// probability its rows not yet taken over all rows not yet taken, as a draw without
    /// replacement from the union would.
    pub fn merged(parts: Vec<Reservoir>, capacity: u32, seed: u64) -> Self {
        let mut random = SplitMix(seed);
        let seen: u64 = parts.iter().map(|p| p.seen).sum();
        let mut pools: Vec<(u64, std::vec::IntoIter<KeptRow>)> = parts
            .into_iter()
            .map(|part| {
                let mut order: Vec<usize> = (0..part.rows.len()).collect();
                random.shuffle(&mut order);
                let mut rows: Vec<Option<KeptRow>> = part.rows.into_iter().map(Some).collect();
                let shuffled: Vec<KeptRow> = order.iter().filter_map(|&i| rows[i].take()).collect();
                (part.seen, shuffled.into_iter())
            })
            .collect();
        let mut rows = Vec::new();
        let mut left = seen;
        while rows.len() < capacity as usize && left > 0 {
            let mut draw = random.below(left);
            let Some((unseen, pool)) = pools.iter_mut().find(|(unseen, _)| {
                let here = draw < *unseen;
                draw = draw.saturating_sub(*unseen);
                here
            }) else {
                break;
            };
            *unseen -= 1;
            left -= 1;
            rows.extend(pool.next());
        }
        Reservoir {
            capacity,
            seen,
            random,
            rows,
        }
    }

    /// Offers the next row; `make` builds it only when it is kept.
    pub(crate) fn offer(&mut self, make: impl FnOnce() -> KeptRow) {
        self.seen += 1;
        if self.rows.len() < self.capacity as usize {
            self.rows.push(make());
            return;
        }
        let slot = self.random.below(self.seen) as usize;
        if slot < self.rows.len() {
            self.rows[slot] = make();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(label: u32) -> KeptRow {
        KeptRow {
            indices: Table::default(),
            values: Table::default(),
            label,
            alpha: Table::default(),
        }
    }

    #[test]
    fn keeps_everything_until_full_then_a_bounded_sample() {
        let mut reservoir = Reservoir::new(3, 1);
        (0..3).for_each(|i| reservoir.offer(|| row(i)));
        let labels: Vec<u32> = reservoir.rows().iter().map(|r| r.label).collect();
        assert_eq!(labels, [0, 1, 2]);
        (3..1000).for_each(|i| reservoir.offer(|| row(i)));
        assert_eq!(reservoir.rows().len(), 3);
        assert_eq!(reservoir.seen(), 1000);
    }

    #[test]
    fn merged_reservoirs_are_a_uniform_sample_of_the_union() {
        // Streams of 2 and 8 rows (labels 0..2 and 2..10) into 4 slots, merged 2,000 times:
        // each of the 10 rows should be kept in about 4/10 of them, whichever stream it was in.
        let mut kept = [0u32; 10];
        for seed in 0..2000 {
            let (mut a, mut b) = (Reservoir::new(4, seed), Reservoir::new(4, seed + 7919));
            (0..2).for_each(|i| a.offer(|| row(i)));
            (2..10).for_each(|i| b.offer(|| row(i)));
            let merged = Reservoir::merged(vec![a, b], 4, seed);
            assert_eq!((merged.rows().len(), merged.seen()), (4, 10));
            merged
                .rows()
                .iter()
                .for_each(|r| kept[r.label as usize] += 1);
        }
        assert!(kept.iter().all(|&k| (720..880).contains(&k)), "{kept:?}");
    }

    #[test]
    fn the_sample_is_uniform_over_every_row_offered() {
        // 2,000 rounds of 10 rows into 2 slots: each row should be kept in about 1/5 of them.
        let mut kept = [0u32; 10];
        for seed in 0..2000 {
            let mut reservoir = Reservoir::new(2, seed);
            (0..10).for_each(|i| reservoir.offer(|| row(i)));
            reservoir
                .rows()
                .iter()
                .for_each(|r| kept[r.label as usize] += 1);
        }
        assert!(kept.iter().all(|&k| (320..480).contains(&k)), "{kept:?}");
    }
}
