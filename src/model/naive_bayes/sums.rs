//! The counts naive Bayes keeps: one class's feature sums, which the model adds rows to and the
//! scorer turns into weights.

use serde::{Deserialize, Serialize};

use crate::packed::Table;

/// One class's feature sums, sparse: most terms never occur in most classes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClassSums {
    /// Feature ids, ascending.
    pub indices: Table<u32>,
    /// The sum of each feature over the class's rows (for Bernoulli, its document count).
    pub values: Table<f64>,
}

impl ClassSums {
    /// Adds `(feature, value)` pairs, in row order, to these sums.
    pub(in crate::model) fn merge(&mut self, pairs: Vec<(u32, f64)>) {
        let (mut indices, mut values) = (self.indices.to_mut(), self.values.to_mut());
        let mut all: Vec<(u32, f64)> = indices.drain(..).zip(values.drain(..)).collect();
        all.extend(pairs);
        // A stable sort keeps each feature's values in row order, so the sums are added in the
        // same order however the rows were split between calls.
        all.sort_by_key(|&(j, _)| j);
        for (j, value) in all {
            match (indices.last(), values.last_mut()) {
                (Some(&last), Some(sum)) if last == j => *sum += value,
                _ => {
                    indices.push(j);
                    values.push(value);
                }
            }
        }
    }

    /// The sum of every feature's values.
    pub fn total(&self) -> f64 {
        self.values.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_adds_each_features_values_and_keeps_features_ascending() {
        let mut sums = ClassSums::default();
        sums.merge(vec![(3, 1.0), (1, 2.0)]);
        sums.merge(vec![(1, 0.5), (2, 4.0), (3, 1.0)]);
        assert_eq!(*sums.indices, [1, 2, 3]);
        assert_eq!(*sums.values, [2.5, 4.0, 2.0]);
        assert_eq!(sums.total(), 8.5);
    }
}
