//! Naive Bayes that learns one document at a time and scores exactly as the batch model would,
//! for learning from a stream with test-then-train evaluation.
//!
//! Counts are kept feature-major (each term's sums for the classes that have them) so that
//! scoring and learning a document cost O(terms × classes), never O(vocabulary). The quantities
//! that do range over the whole vocabulary are maintained as the counts change: for complement
//! NB each class's Σ_j log(α + S_j − s_cj), for Bernoulli each class's histogram of document
//! counts, from which Σ_j log(1 − p_cj) follows in O(distinct counts).

use rustc_hash::FxHashMap;

use super::{ClassSums, NaiveBayes, NbKind, Priors};

/// An incrementally trained naive Bayes model over a growing vocabulary and class list.
#[derive(Debug, Clone)]
pub(crate) struct OnlineNb {
    kind: NbKind,
    alpha: f64,
    priors: Priors,
    class_docs: Vec<f64>,
    class_totals: Vec<f64>,
    /// Per feature, (class, sum) for each class with a non-zero sum.
    features: Vec<Vec<(u32, f64)>>,
    /// Per feature, (class, log(α + s) − log α) for each sum s in `features`, in the same
    /// order: what one unit of the feature adds to a class's multinomial score beyond an unseen
    /// one. Kept as the sums change, so that scoring a document takes no logarithm per term;
    /// with its class beside it, so that scoring reads one list per term, not two.
    gains: Vec<Vec<(u32, f64)>>,
    /// Complement: S_j, Σ S_j, Σ_j log(α + S_j), and per class Σ_j log(α + S_j − s_cj).
    feature_totals: Vec<f64>,
    grand: f64,
    base_logs: f64,
    complement_logs: Vec<f64>,
    /// Bernoulli: per class, how many features have each non-zero document count.
    histograms: Vec<FxHashMap<u64, u64>>,
    /// The number of features smoothing counts, as [`NaiveBayes::space`] gives it: for hashed
    /// terms 2^bits, of which `features` holds those reached so far.
    space: usize,
}

/// One event model's scores of a row's known features, `(column, value)`, into `out`.
type Score = fn(&OnlineNb, &[(usize, f64)], &mut [f64]);

impl OnlineNb {
    /// Continues from a batch model's counts, with the same features and classes.
    pub(crate) fn from_batch(nb: &NaiveBayes) -> Self {
        let mut online = OnlineNb {
            kind: nb.kind,
            alpha: nb.alpha,
            priors: nb.priors.clone(),
            class_docs: Vec::new(),
            class_totals: Vec::new(),
            features: Vec::new(),
            gains: Vec::new(),
            feature_totals: Vec::new(),
            grand: 0.0,
            base_logs: 0.0,
            complement_logs: Vec::new(),
            histograms: Vec::new(),
            space: nb.space(),
        };
        online.grow(nb.n_features, nb.classes());
        online.class_docs.clone_from(&nb.class_docs);
        for (c, sums) in nb.sums.iter().enumerate() {
            for (&j, &s) in sums.indices.iter().zip(&sums.values) {
                online.add_sum(j as usize, c as u32, s);
            }
        }
        online
    }

    /// Number of classes.
    pub(crate) fn classes(&self) -> usize {
        self.class_docs.len()
    }

    /// Makes room for `features` features and `classes` classes, both at least the current ones;
    /// the new ones start with no counts.
    pub(crate) fn grow(&mut self, features: usize, classes: usize) {
        let alpha = self.alpha;
        for _ in self.features.len()..features {
            self.features.push(Vec::new());
            self.gains.push(Vec::new());
            self.feature_totals.push(0.0);
            self.base_logs += alpha.ln();
            self.complement_logs
                .iter_mut()
                .for_each(|a| *a += alpha.ln());
        }
        for _ in self.class_docs.len()..classes {
            self.class_docs.push(0.0);
            self.class_totals.push(0.0);
            self.complement_logs.push(self.base_logs);
            self.histograms.push(FxHashMap::default());
        }
        if let Priors::Given(p) = &mut self.priors {
            p.resize(classes, 1.0 / classes as f64);
        }
    }

    /// Learns one document of class `class`, weighted as `values` over `indices` (all within
    /// the grown features).
    pub(crate) fn add(&mut self, indices: &[u32], values: &[f64], class: u32) {
        self.class_docs[class as usize] += 1.0;
        for (&j, &value) in indices.iter().zip(values) {
            let value = if !self.kind.counts_presence() {
                value
            } else if value > 0.0 {
                1.0
            } else {
                continue;
            };
            self.add_sum(j as usize, class, value);
        }
    }

    /// Adds `value` to class `class`'s sum of feature `j`, keeping the derived sums current.
    fn add_sum(&mut self, j: usize, class: u32, value: f64) {
        let before = sum_of(&self.features[j], class);
        // The sums an event model derives from class `class`'s sum of feature `j`, which grows
        // from `before` by `value`: none for multinomial NB.
        let derive: fn(&mut Self, usize, u32, f64, f64) = (self.kind).pick(
            |_, _, _, _, _| {},
            Self::shift_complement,
            Self::shift_histogram,
        );
        derive(self, j, class, before, value);
        let (sums, gains) = (&mut self.features[j], &mut self.gains[j]);
        let alpha = self.alpha;
        match sums.iter().position(|(c, _)| *c == class) {
            Some(k) => {
                sums[k].1 += value;
                gains[k].1 = (alpha + sums[k].1).ln() - alpha.ln();
            }
            None => {
                sums.push((class, value));
                gains.push((class, (alpha + value).ln() - alpha.ln()));
            }
        }
        self.class_totals[class as usize] += value;
    }

    /// Bernoulli NB's histogram of class `class`'s document counts, after its count of a
    /// feature grows from `before` by `value`.
    fn shift_histogram(&mut self, _: usize, class: u32, before: f64, value: f64) {
        let histogram = &mut self.histograms[class as usize];
        if before > 0.0 {
            if let Some(count) = histogram.get_mut(&(before as u64)) {
                *count -= 1;
            }
        }
        *histogram.entry((before + value) as u64).or_default() += 1;
    }

    /// Complement sums after S_j grows by `value` in class `class`: every other class's
    /// complement count of feature j grows too. (Class `class`'s own sum before is not needed.)
    fn shift_complement(&mut self, j: usize, class: u32, _: f64, value: f64) {
        let (alpha, before) = (self.alpha, self.feature_totals[j]);
        let after = before + value;
        for (c, logs) in self.complement_logs.iter_mut().enumerate() {
            if c as u32 != class {
                let own = sum_of(&self.features[j], c as u32);
                *logs += (alpha + after - own).ln() - (alpha + before - own).ln();
            }
        }
        self.base_logs += (alpha + after).ln() - (alpha + before).ln();
        self.feature_totals[j] = after;
        self.grand += value;
    }

    /// Scores one weighted row for every class, as [`NaiveBayes::scorer`] would after the same
    /// documents; columns beyond the known features are ignored.
    pub(crate) fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        let known = indices
            .iter()
            .zip(values)
            .filter(|&(&j, &v)| (j as usize) < self.features.len() && v != 0.0);
        let known: Vec<(usize, f64)> = known.map(|(&j, &v)| (j as usize, v)).collect();
        let score: Score = (self.kind).pick(Self::multinomial, Self::complement, Self::bernoulli);
        score(self, &known, out);
    }

    /// The number of features smoothing counts: the space, or the features if more.
    fn space(&self) -> usize {
        self.space.max(self.features.len())
    }

    fn multinomial(&self, row: &[(usize, f64)], out: &mut [f64]) {
        let (alpha, n) = (self.alpha, self.space() as f64);
        let total: f64 = row.iter().map(|&(_, v)| v).sum();
        let priors = self.log_priors();
        for (c, score) in out.iter_mut().enumerate() {
            let denominator = (self.class_totals[c] + alpha * n).ln();
            *score = priors[c] + total * (alpha.ln() - denominator);
        }
        for &(j, v) in row {
            for &(c, gain) in &self.gains[j] {
                out[c as usize] += v * gain;
            }
        }
    }

    fn complement(&self, row: &[(usize, f64)], out: &mut [f64]) {
        let (alpha, n) = (self.alpha, self.space() as f64);
        // A feature not reached yet has no counts: log(α + S_j − s_cj) is log α.
        let unreached = (self.space() - self.features.len()) as f64 * alpha.ln();
        let total: f64 = row.iter().map(|&(_, v)| v).sum();
        let shared: f64 = row
            .iter()
            .map(|&(j, v)| v * (alpha + self.feature_totals[j]).ln())
            .sum();
        out.iter_mut().for_each(|s| *s = shared);
        for &(j, v) in row {
            let all = self.feature_totals[j];
            for &(c, s) in &self.features[j] {
                out[c as usize] += v * ((alpha + all - s).ln() - (alpha + all).ln());
            }
        }
        for (c, score) in out.iter_mut().enumerate() {
            let denominator = (self.grand - self.class_totals[c] + alpha * n).ln();
            let normalizer = self.complement_logs[c] + unreached - n * denominator;
            *score = (*score - total * denominator) / normalizer;
        }
    }

    fn bernoulli(&self, row: &[(usize, f64)], out: &mut [f64]) {
        let (alpha, n) = (self.alpha, self.space() as f64);
        let present = row.len() as f64;
        let priors = self.log_priors();
        for (c, score) in out.iter_mut().enumerate() {
            let docs = self.class_docs[c];
            let histogram = &self.histograms[c];
            let seen: u64 = histogram.values().sum();
            let mut missing = (n - seen as f64) * (docs + alpha).ln();
            for (&count, &features) in histogram {
                missing += features as f64 * (docs + alpha - count as f64).ln();
            }
            missing -= n * (docs + 2.0 * alpha).ln();
            let unseen = alpha.ln() - (docs + alpha).ln();
            *score = priors[c] + missing + present * unseen;
        }
        for &(j, _) in row {
            for &(c, s) in &self.features[j] {
                let docs = self.class_docs[c as usize];
                let weight = (s + alpha).ln() - (docs + alpha - s).ln();
                out[c as usize] += weight - (alpha.ln() - (docs + alpha).ln());
            }
        }
    }

    fn log_priors(&self) -> Vec<f64> {
        if self.kind == NbKind::Complement {
            return vec![0.0; self.classes()];
        }
        super::log_priors(&self.priors, &self.class_docs)
    }

    /// The batch model with the same counts, features renumbered by `columns` (a feature's
    /// column in the sorted vocabulary).
    pub(crate) fn to_batch(&self, columns: &[u32]) -> NaiveBayes {
        let mut pairs: Vec<Vec<(u32, f64)>> = vec![Vec::new(); self.classes()];
        for (j, sums) in self.features.iter().enumerate() {
            for &(c, s) in sums {
                pairs[c as usize].push((columns[j], s));
            }
        }
        let sums = pairs
            .into_iter()
            .map(|mut class| {
                class.sort_unstable_by_key(|&(j, _)| j);
                ClassSums {
                    indices: class.iter().map(|p| p.0).collect(),
                    values: class.iter().map(|p| p.1).collect(),
                }
            })
            .collect();
        NaiveBayes {
            kind: self.kind,
            alpha: self.alpha,
            priors: self.priors.clone(),
            class_docs: self.class_docs.clone(),
            sums,
            n_features: self.features.len(),
            space: Some(self.space),
            scorer: Default::default(),
        }
    }
}

/// Class `class`'s sum in a feature's list, 0 when absent.
fn sum_of(sums: &[(u32, f64)], class: u32) -> f64 {
    sums.iter().find(|p| p.0 == class).map_or(0.0, |p| p.1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectorize::{MatrixBuilder, SparseRow};

    /// Rows over 4 features with classes that appear one by one, and a probe.
    fn rows() -> Vec<(Vec<(u32, f64)>, u32)> {
        vec![
            (vec![(0, 2.0), (1, 1.0)], 0),
            (vec![(0, 1.0), (2, 0.5)], 1),
            (vec![(1, 3.0), (3, 1.0)], 0),
            (vec![(2, 1.0), (3, 2.0)], 2),
            (vec![(0, 1.0), (3, 1.0)], 1),
        ]
    }

    #[test]
    fn scores_equal_the_batch_model_after_every_document() {
        for kind in [NbKind::Multinomial, NbKind::Complement, NbKind::Bernoulli] {
            let mut online =
                OnlineNb::from_batch(&NaiveBayes::new(kind, 0.5, Priors::Learned, 0, 0).unwrap());
            let mut builder = MatrixBuilder::default();
            let mut labels = Vec::new();
            for (row, class) in rows() {
                let features = 1 + row.iter().map(|p| p.0 as usize).max().unwrap();
                online.grow(
                    features.max(online.features.len()),
                    online.classes().max(class as usize + 1),
                );
                let (indices, values): (Vec<u32>, Vec<f64>) = row.into_iter().unzip();
                online.add(&indices, &values, class);
                builder.push(&SparseRow { indices, values });
                labels.push(class);
                let n = online.features.len();
                let matrix = std::mem::take(&mut builder).finish(n).unwrap();
                let mut batch =
                    NaiveBayes::new(kind, 0.5, Priors::Learned, online.classes(), n).unwrap();
                batch.add(&matrix, &labels);
                let (mut ours, mut theirs) =
                    (vec![0.0; online.classes()], vec![0.0; online.classes()]);
                let probe = ([0u32, 2, 3], [1.0, 2.0, 0.5]);
                online.scores(&probe.0, &probe.1, &mut ours);
                batch.scorer().scores(&probe.0, &probe.1, &mut theirs);
                for (a, b) in ours.iter().zip(&theirs) {
                    assert!((a - b).abs() < 1e-9, "{kind:?}: {ours:?} vs {theirs:?}");
                }
                let identity: Vec<u32> = (0..n as u32).collect();
                assert_eq!(online.to_batch(&identity), batch);
                for row in matrix.outer_iterator() {
                    builder.push(&SparseRow {
                        indices: row.indices().to_vec(),
                        values: row.data().to_vec(),
                    });
                }
            }
        }
    }
}
