//! Choosing multinomial naive Bayes' smoothing by leave-one-out cross-validation.
//!
//! Naive Bayes keeps its training documents only as sums, and a document's own part of them is
//! its row: the model trained without document `i` is the model trained with it, less row `i` in
//! `i`'s class. So every document can be classified by the model that never saw it, at the cost
//! of scoring it once, and every candidate smoothing can be tried without training again. The
//! best smoothing varies by three orders of magnitude between corpora (0.0003 on Reuters news,
//! 0.003 on 20 Newsgroups, 0.3 on short opinions, chosen so on the training data of the five
//! corpora that chose the defaults), so one fixed value cannot suit them all.

use rayon::prelude::*;

use super::{log_priors, NaiveBayes, NbKind, Priors};
use crate::error::{Error, Result};
use crate::vectorize::{matrix_row, Matrix};

/// The smoothing values tried, in half decades.
pub(crate) const ALPHAS: [f64; 9] = [1e-4, 3e-4, 1e-3, 3e-3, 0.01, 0.03, 0.1, 0.3, 1.0];

/// Documents scored at most: every `⌈n / SAMPLE⌉`-th training document. On the five corpora
/// that chose the defaults, choosing on 2,000 instead of all of them changed the 5-fold
/// cross-validated accuracy by at most 0.1 points, at a fraction of the cost.
pub(crate) const SAMPLE: usize = 2000;

/// The smoothing chosen, and the evidence.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Chosen {
    /// The smoothing with the best leave-one-out accuracy (ties: the larger).
    pub alpha: f64,
    /// Its leave-one-out accuracy on the documents scored.
    pub accuracy: f64,
    /// Documents scored.
    pub documents: usize,
}

/// Which of `n` documents in input order are scored: every `stride(n)`-th, from the first.
pub(crate) fn sampled(n: usize) -> impl Iterator<Item = usize> {
    (0..n).step_by(stride(n))
}

/// `⌈n / SAMPLE⌉`, at least 1.
pub(crate) fn stride(n: usize) -> usize {
    n.div_ceil(SAMPLE).max(1)
}

/// Each scored term's sums in every class that has it, term by term: what scoring one
/// document against every class reads.
struct TermSums {
    /// For each feature, its place among the scored terms, or `u32::MAX` when no scored
    /// document has it.
    slot: Vec<u32>,
    /// Where each scored term's entries start in `entries`, and, last, their end.
    offsets: Vec<usize>,
    /// (class, sum) entries, grouped by term.
    entries: Vec<(u32, f64)>,
}

impl TermSums {
    fn new(nb: &NaiveBayes, x: &Matrix, rows: &[usize]) -> Self {
        let mut slot = vec![u32::MAX; nb.n_features];
        let mut scored = 0u32;
        for &i in rows {
            for &j in matrix_row(x, i).0 {
                if slot[j as usize] == u32::MAX {
                    slot[j as usize] = scored;
                    scored += 1;
                }
            }
        }
        let mut offsets = vec![0usize; scored as usize + 1];
        let in_classes = nb.sums.iter().flat_map(|sums| sums.indices.iter());
        for &j in in_classes.filter(|&&j| slot[j as usize] != u32::MAX) {
            offsets[slot[j as usize] as usize + 1] += 1;
        }
        for k in 1..offsets.len() {
            offsets[k] += offsets[k - 1];
        }
        let mut fill = offsets.clone();
        let mut entries = vec![(0, 0.0); offsets[scored as usize]];
        for (c, sums) in nb.sums.iter().enumerate() {
            for (&j, &s) in sums.indices.iter().zip(&sums.values) {
                if let Some(next) = fill.get_mut(slot[j as usize] as usize) {
                    entries[*next] = (c as u32, s);
                    *next += 1;
                }
            }
        }
        TermSums {
            slot,
            offsets,
            entries,
        }
    }

    /// Where term `j`'s entries are in `entries`.
    fn span(&self, j: u32) -> std::ops::Range<usize> {
        let k = self.slot[j as usize] as usize;
        self.offsets[k]..self.offsets[k + 1]
    }
}

impl NaiveBayes {
    /// Chooses the smoothing of this multinomial model from [`ALPHAS`] by leave-one-out
    /// accuracy on rows `rows` of `x`, whose classes are `labels` (one per row of `x`): rows
    /// that are already part of the sums, weighed as they were added. Refuses a model of
    /// another kind, whose held-out scores this does not compute, and rows or classes outside
    /// `x`, `labels` and the model.
    pub(crate) fn choose_alpha(
        &self,
        x: &Matrix,
        labels: &[u32],
        rows: &[usize],
    ) -> Result<Chosen> {
        if self.kind != NbKind::Multinomial {
            let message = "smoothing is chosen by leave-one-out for multinomial naive Bayes only";
            return Err(Error::Config(message.into()));
        }
        let classes = self.class_docs.len();
        let fits =
            |&i: &usize| i < x.rows() && labels.get(i).is_some_and(|&c| (c as usize) < classes);
        if x.cols() != self.n_features || !rows.iter().all(fits) {
            let message = "leave-one-out rows do not match the model's features and classes";
            return Err(Error::Config(message.into()));
        }
        let held_out = HeldOut::new(self, TermSums::new(self, x, rows));
        let correct = rows
            .par_iter()
            .fold(
                || [0usize; GRID],
                |mut correct, &i| {
                    let predicted = held_out.predict(x, i, labels[i]);
                    for (count, class) in correct.iter_mut().zip(predicted) {
                        *count += usize::from(class == labels[i]);
                    }
                    correct
                },
            )
            .reduce(
                || [0usize; GRID],
                |a, b| std::array::from_fn(|k| a[k] + b[k]),
            );
        let best = (0..GRID)
            .max_by_key(|&a| (correct[a], a))
            .unwrap_or_default();
        Ok(Chosen {
            alpha: ALPHAS[best],
            accuracy: correct[best] as f64 / rows.len().max(1) as f64,
            documents: rows.len(),
        })
    }

    /// Sets the smoothing, for a model whose sums are complete.
    pub(crate) fn set_alpha(&mut self, alpha: f64) {
        self.alpha = alpha;
        self.scorer = std::sync::OnceLock::new();
    }
}

const GRID: usize = ALPHAS.len();

/// A value for each smoothing of [`ALPHAS`].
type PerAlpha = [f64; GRID];

/// The same in single precision, for the table of every scored term's sums: it is the largest
/// thing choosing holds (815,000 entries on 20 Newsgroups), and its rounding, a part in ten
/// million of each term's weight, moves no prediction that is not a near tie.
type PerAlpha32 = [f32; GRID];

/// Classifies a training document with the model trained without it, at every smoothing at
/// once: the terms and their sums are read once for all of them.
struct HeldOut<'a> {
    nb: &'a NaiveBayes,
    terms: TermSums,
    /// log(s + α) − log α for each of `terms`' entries.
    lift: Vec<PerAlpha32>,
    log_alpha: PerAlpha,
    totals: Vec<f64>,
    /// The log priors of the model without one document of class `own`, at `own`.
    priors_without: Vec<Vec<f64>>,
}

impl<'a> HeldOut<'a> {
    fn new(nb: &'a NaiveBayes, terms: TermSums) -> Self {
        let log_alpha = ALPHAS.map(f64::ln);
        let lift = (terms.entries.par_iter())
            .map(|&(_, s)| std::array::from_fn(|a| ((s + ALPHAS[a]).ln() - log_alpha[a]) as f32))
            .collect();
        HeldOut {
            nb,
            terms,
            lift,
            log_alpha,
            totals: nb.sums.iter().map(|s| s.total()).collect(),
            priors_without: (0..nb.classes())
                .map(|own| priors_without(nb, own))
                .collect(),
        }
    }

    /// The class of row `i` of `x`, a document of class `own`, by the model without it, at
    /// each smoothing. A term that only this document has would not be in that model's
    /// vocabulary, so it counts for no class.
    fn predict(&self, x: &Matrix, i: usize, own: u32) -> [u32; GRID] {
        let mut scores = vec![[0.0; GRID]; self.nb.classes()];
        let (indices, values) = matrix_row(x, i);
        let (mut kept_mass, mut only_here) = (0.0, 0usize);
        for (&j, &value) in indices.iter().zip(values) {
            let span = self.terms.span(j);
            let entries = &self.terms.entries[span.clone()];
            if let [(c, s)] = entries {
                if *c == own && *s - value <= 0.0 {
                    only_here += 1;
                    continue;
                }
            }
            kept_mass += value;
            for (&(c, s), lift) in entries.iter().zip(&self.lift[span]) {
                let score = &mut scores[c as usize];
                if c == own {
                    // The class's sum without this document.
                    for a in 0..GRID {
                        score[a] += value * ((s - value + ALPHAS[a]).ln() - self.log_alpha[a]);
                    }
                } else {
                    for a in 0..GRID {
                        score[a] += value * f64::from(lift[a]);
                    }
                }
            }
        }
        let features = (self.nb.space() - only_here) as f64;
        let mass: f64 = values.iter().sum();
        let priors = &self.priors_without[own as usize];
        let mut best = [(f64::NEG_INFINITY, 0u32); GRID];
        for (c, score) in scores.iter().enumerate() {
            let total = self.totals[c] - if c as u32 == own { mass } else { 0.0 };
            for a in 0..GRID {
                let normalizer = kept_mass * (total + ALPHAS[a] * features).ln();
                let score = priors[c] + score[a] - normalizer;
                if score > best[a].0 {
                    best[a] = (score, c as u32);
                }
            }
        }
        best.map(|(_, c)| c)
    }
}

/// `nb`'s log priors without one document of class `own`.
fn priors_without(nb: &NaiveBayes, own: usize) -> Vec<f64> {
    let mut docs = nb.class_docs.clone();
    if matches!(nb.priors, Priors::Learned) {
        docs[own] -= 1.0;
    }
    log_priors(&nb.priors, &docs)
}

#[cfg(test)]
mod tests;
