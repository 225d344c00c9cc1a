//! Greedy forward selection for naive Bayes, without refitting.
//!
//! Start with no features; at each step try every remaining candidate and keep the one whose
//! addition gives the best dev metric. For multinomial and Bernoulli naive Bayes the model on a
//! feature set is a sum of per-feature terms, so adding feature j changes a dev document's class
//! scores in only two ways:
//! - a document that contains j gains j's term (recomputed exactly, O(classes));
//! - every other document's scores move by w_d · u_c(j): for multinomial NB, u_c = −Δ log D_c (the
//!   change of class c's normalizer Σ_{k∈S} s_ck + α|S|) and w_d the document's weight on the
//!   selected features; for Bernoulli NB, u_c = log(1 − p_cj) and w_d = 1.
//!
//! A document of the second kind, predicted as p, can only change its prediction when its margin
//! (best score minus second best) is below w_d · (max_c u_c − u_p). Documents are kept sorted by
//! margin / w_d in one list per predicted class, so each candidate re-predicts just the documents
//! that contain it and the few at risk, and a step costs about O(non-zeros of the dev matrix ×
//! classes). The result is exact: the same
//! predictions as refitting naive Bayes on the selected columns (tested at every step).

use rayon::prelude::*;

use crate::choice::Choice;
use crate::vectorize::{matrix_row, Matrix};

/// The event model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Multinomial naive Bayes on the weighted rows.
    Multinomial,
    /// Bernoulli naive Bayes on presence.
    Bernoulli,
}

/// What the dev set is judged by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Metric {
    /// Share of dev documents predicted right.
    Accuracy,
    /// Mean F1 over the classes.
    MacroF1,
    /// Mean −log P(true class); lower is better. Every candidate rescores every document, so
    /// this metric is much slower than the others.
    LogLoss,
}

impl Choice for Metric {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        (
            "accuracy",
            "Share of dev documents predicted right",
            Metric::Accuracy,
        ),
        ("macro-f1", "Mean F1 over the classes", Metric::MacroF1),
        (
            "log-loss",
            "Mean −log P(true class); lower is better. Every candidate rescores every document, \
             so this metric is much slower than the others",
            Metric::LogLoss,
        ),
    ];
}

impl Metric {
    /// The value with larger meaning better.
    fn better(self, value: f64) -> f64 {
        match self {
            Metric::LogLoss => -value,
            _ => value,
        }
    }
}

/// When to stop, validated by [`Greedy::validate`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Greedy {
    /// The dev metric.
    pub metric: Metric,
    /// Features at most; default 10,000.
    pub max_features: usize,
    /// A step improves when it betters the best metric so far by more than this; default 0.
    pub tol: f64,
    /// Stop after this many steps without improvement; default 500.
    pub patience: usize,
}

impl Greedy {
    /// Checks the parameters; the only place they are checked.
    pub fn validate(&self) -> crate::error::Result<()> {
        if self.max_features == 0
            || self.patience == 0
            || !(self.tol >= 0.0 && self.tol.is_finite())
        {
            return Err(crate::error::Error::Config(
                "--max-features and --patience must be at least 1, --tol >= 0".into(),
            ));
        }
        Ok(())
    }
}

/// One step: the feature added (a column of the matrices) and the dev metric after it.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Step {
    /// The column added.
    pub feature: usize,
    /// The dev metric with the features selected so far.
    pub metric: f64,
}

/// The outcome: every step taken, and how many of them the best feature set has.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Selection {
    /// The metric with no features (priors only).
    pub baseline: f64,
    /// Steps in order.
    pub steps: Vec<Step>,
    /// The best prefix of `steps`: the selected features are `steps[..best]`.
    pub best: usize,
}

/// The training side's statistics and the dev documents, for one event model.
pub(crate) struct Problem<'a> {
    event: Event,
    alpha: f64,
    classes: usize,
    log_priors: Vec<f64>,
    /// Per candidate, per class: MNB (s_cj + α, log(s_cj + α)); BNB (log p, log(1 − p)).
    stats: Vec<Vec<(f64, f64)>>,
    /// Per candidate, the dev documents that contain it and their values.
    postings: Vec<Vec<(u32, f64)>>,
    candidates: &'a [usize],
    truth: &'a [u32],
}

impl<'a> Problem<'a> {
    /// Sets up selection among `candidates` (columns of both matrices), with the training rows'
    /// sums, smoothing `alpha` and learned priors, judged on the dev rows.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        event: Event,
        alpha: f64,
        train: &Matrix,
        train_labels: &[u32],
        dev: &Matrix,
        dev_labels: &'a [u32],
        classes: usize,
        candidates: &'a [usize],
    ) -> Self {
        let mut slot = vec![usize::MAX; train.cols().max(dev.cols())];
        candidates
            .iter()
            .enumerate()
            .for_each(|(i, &j)| slot[j] = i);
        let mut sums = vec![vec![0.0; classes]; candidates.len()];
        let mut docs = vec![0.0; classes];
        for (i, &label) in train_labels.iter().enumerate() {
            docs[label as usize] += 1.0;
            let (indices, values) = matrix_row(train, i);
            for (&j, &v) in indices.iter().zip(values) {
                if let Some(sum) = sums.get_mut(slot[j as usize]) {
                    sum[label as usize] += match event {
                        Event::Bernoulli => f64::from(u8::from(v > 0.0)),
                        Event::Multinomial => v,
                    };
                }
            }
        }
        let stats = sums
            .iter()
            .map(|sum| {
                sum.iter()
                    .zip(&docs)
                    .map(|(&s, &n)| match event {
                        Event::Multinomial => (s + alpha, (s + alpha).ln()),
                        Event::Bernoulli => {
                            let p = (s + alpha) / (n + 2.0 * alpha);
                            (p.ln(), (1.0 - p).ln())
                        }
                    })
                    .collect()
            })
            .collect();
        let mut postings = vec![Vec::new(); candidates.len()];
        for d in 0..dev_labels.len() {
            let (indices, values) = matrix_row(dev, d);
            for (&j, &v) in indices.iter().zip(values) {
                let i = slot[j as usize];
                if i != usize::MAX && v > 0.0 {
                    let v = if event == Event::Bernoulli { 1.0 } else { v };
                    postings[i].push((d as u32, v));
                }
            }
        }
        let total: f64 = docs.iter().sum();
        let log_priors = docs.iter().map(|&n| (n / total).ln()).collect();
        Problem {
            event,
            alpha,
            classes,
            log_priors,
            stats,
            postings,
            candidates,
            truth: dev_labels,
        }
    }

    /// Runs the selection; `progress` is called after each step with the step count and metric.
    pub(crate) fn run(&self, greedy: &Greedy, mut progress: impl FnMut(usize, f64)) -> Selection {
        let mut state = State::new(self);
        let baseline = state.metric(self, greedy.metric);
        let mut remaining: Vec<usize> = (0..self.candidates.len()).collect();
        let (mut steps, mut best, mut best_value) = (Vec::new(), 0, greedy.metric.better(baseline));
        while steps.len() < greedy.max_features && !remaining.is_empty() {
            let evaluated: Vec<f64> = remaining
                .par_iter()
                .map_init(
                    || Scratch::new(self),
                    |scratch, &i| state.try_add(self, i, greedy.metric, scratch),
                )
                .collect();
            // The first of the best, so ties go to the better-ranked candidate.
            let (position, value) =
                evaluated
                    .iter()
                    .enumerate()
                    .fold((0, f64::NEG_INFINITY), |(bi, bv), (i, &v)| {
                        let v = greedy.metric.better(v);
                        if v > bv {
                            (i, v)
                        } else {
                            (bi, bv)
                        }
                    });
            let chosen = remaining.remove(position);
            state.add(self, chosen);
            let metric = evaluated[position];
            steps.push(Step {
                feature: self.candidates[chosen],
                metric,
            });
            progress(steps.len(), metric);
            if value > best_value + greedy.tol {
                (best, best_value) = (steps.len(), value);
            } else if steps.len() - best >= greedy.patience {
                break;
            }
        }
        Selection {
            baseline,
            steps,
            best,
        }
    }
}

/// The dev documents' scores for the features selected so far.
struct State {
    /// MNB: per class Σ_{k∈S} (s_ck + α) and its log; BNB: unused.
    normalizer: Vec<f64>,
    log_normalizer: Vec<f64>,
    /// MNB: per class log(normalizer + α), the new normalizer for a candidate the class never
    /// saw, which most classes never saw: one logarithm per class and step instead of one per
    /// class and candidate.
    log_unseen: Vec<f64>,
    selected: usize,
    /// MNB: per document and class Σ_{k∈S∩d} x_dk log(s_ck + α); BNB: the scores themselves.
    partial: Vec<f64>,
    /// MNB: per document Σ_{k∈S∩d} x_dk; BNB: 1.
    weight: Vec<f64>,
    scores: Vec<f64>,
    predicted: Vec<u32>,
    /// Per predicted class, its documents by margin / weight, ascending.
    at_risk: Vec<Vec<(f64, u32)>>,
    confusion: Counts,
}

/// Per-class counts for accuracy and macro-F1.
#[derive(Clone)]
struct Counts {
    correct: i64,
    tp: Vec<i64>,
    fp: Vec<i64>,
    fn_: Vec<i64>,
}

impl Counts {
    fn record(&mut self, truth: u32, predicted: u32, sign: i64) {
        let (t, p) = (truth as usize, predicted as usize);
        if t == p {
            self.correct += sign;
            self.tp[t] += sign;
        } else {
            self.fp[p] += sign;
            self.fn_[t] += sign;
        }
    }

    fn value(&self, metric: Metric, docs: usize) -> f64 {
        match metric {
            Metric::Accuracy => self.correct as f64 / docs.max(1) as f64,
            _ => {
                let f1 = (0..self.tp.len()).map(|c| {
                    let denominator = 2 * self.tp[c] + self.fp[c] + self.fn_[c];
                    if denominator == 0 {
                        0.0
                    } else {
                        2.0 * self.tp[c] as f64 / denominator as f64
                    }
                });
                f1.sum::<f64>() / self.tp.len().max(1) as f64
            }
        }
    }
}

/// One worker's buffers for trying candidates.
struct Scratch {
    stamp: Vec<u32>,
    generation: u32,
    shift: Vec<f64>,
    fresh: Vec<f64>,
    log_new: Vec<f64>,
    counts: Option<Counts>,
}

impl Scratch {
    fn new(problem: &Problem) -> Self {
        Scratch {
            stamp: vec![0; problem.truth.len()],
            generation: 0,
            shift: vec![0.0; problem.classes],
            fresh: vec![0.0; problem.classes],
            log_new: vec![0.0; problem.classes],
            counts: None,
        }
    }
}

/// The first class of highest score.
fn first_max(scores: &[f64]) -> u32 {
    let mut best = 0;
    for (c, &s) in scores.iter().enumerate().skip(1) {
        if s > scores[best] {
            best = c;
        }
    }
    best as u32
}

/// The first class of highest score, and the gap to the next best.
fn best_and_margin(scores: &[f64]) -> (u32, f64) {
    let (mut best, mut top, mut second) = (0, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for (c, &s) in scores.iter().enumerate() {
        if s > top {
            (second, top, best) = (top, s, c);
        } else if s > second {
            second = s;
        }
    }
    (best as u32, top - second)
}

impl State {
    fn new(problem: &Problem) -> Self {
        let (n, k) = (problem.truth.len(), problem.classes);
        let mut state = State {
            normalizer: vec![0.0; k],
            log_normalizer: vec![0.0; k],
            log_unseen: vec![problem.alpha.ln(); k],
            selected: 0,
            partial: vec![0.0; n * k],
            weight: vec![
                if problem.event == Event::Bernoulli {
                    1.0
                } else {
                    0.0
                };
                n
            ],
            scores: vec![0.0; n * k],
            predicted: vec![0; n],
            at_risk: vec![Vec::new(); k],
            confusion: Counts {
                correct: 0,
                tp: vec![0; k],
                fp: vec![0; k],
                fn_: vec![0; k],
            },
        };
        state.rescore(problem);
        state
    }

    /// Recomputes every score, prediction and margin.
    fn rescore(&mut self, problem: &Problem) {
        let k = problem.classes;
        self.at_risk.iter_mut().for_each(Vec::clear);
        self.confusion = Counts {
            correct: 0,
            tp: vec![0; k],
            fp: vec![0; k],
            fn_: vec![0; k],
        };
        for d in 0..problem.truth.len() {
            let row = &mut self.scores[d * k..(d + 1) * k];
            for (c, score) in row.iter_mut().enumerate() {
                *score = problem.log_priors[c] + self.partial[d * k + c];
                // A document without selected features has no likelihood term (and 0 · log 0
                // would be NaN before the first feature).
                if problem.event == Event::Multinomial && self.weight[d] > 0.0 {
                    *score -= self.weight[d] * self.log_normalizer[c];
                }
            }
            let (best, margin) = best_and_margin(row);
            self.predicted[d] = best;
            self.confusion.record(problem.truth[d], best, 1);
            if self.weight[d] > 0.0 {
                self.at_risk[best as usize].push((margin / self.weight[d], d as u32));
            }
        }
        for documents in &mut self.at_risk {
            documents.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
    }

    fn metric(&self, problem: &Problem, metric: Metric) -> f64 {
        match metric {
            Metric::LogLoss => {
                let k = problem.classes;
                let n = problem.truth.len();
                (0..n)
                    .map(|d| log_loss(&self.scores[d * k..(d + 1) * k], problem.truth[d]))
                    .sum::<f64>()
                    / n.max(1) as f64
            }
            _ => self.confusion.value(metric, problem.truth.len()),
        }
    }

    /// The scores of a document that contains candidate `i` with value `x`, were it added.
    fn with_candidate(
        &self,
        problem: &Problem,
        i: usize,
        d: usize,
        x: f64,
        out: &mut [f64],
        log_new: &[f64],
    ) {
        let k = problem.classes;
        let stats = &problem.stats[i];
        let (partial, scores) = (
            &self.partial[d * k..(d + 1) * k],
            &self.scores[d * k..(d + 1) * k],
        );
        match problem.event {
            // One feature alone has θ = 1 in every class: the priors decide. Said outright,
            // because the general formula leaves rounding noise that would break ties.
            Event::Multinomial if self.selected == 0 => out.copy_from_slice(&problem.log_priors),
            Event::Multinomial => {
                let weight = self.weight[d] + x;
                let parts = problem
                    .log_priors
                    .iter()
                    .zip(partial)
                    .zip(stats)
                    .zip(log_new);
                for (o, (((prior, part), &(_, log_sum)), new)) in out.iter_mut().zip(parts) {
                    *o = prior + part + x * log_sum - weight * new;
                }
            }
            Event::Bernoulli => {
                for (o, (score, &(log_p, _))) in out.iter_mut().zip(scores.iter().zip(stats)) {
                    *o = score + log_p;
                }
            }
        }
    }

    /// The dev metric if candidate `i` were added.
    fn try_add(&self, problem: &Problem, i: usize, metric: Metric, scratch: &mut Scratch) -> f64 {
        let k = problem.classes;
        // The per-unit shift of documents without the candidate, and (MNB) the new normalizers.
        let mut log_new = std::mem::take(&mut scratch.log_new);
        let slots = scratch.shift.iter_mut().zip(log_new.iter_mut());
        for (c, (shift, new)) in slots.enumerate() {
            let (first, second) = problem.stats[i][c];
            *shift = match problem.event {
                Event::Multinomial => {
                    *new = if first == problem.alpha {
                        self.log_unseen[c]
                    } else {
                        (self.normalizer[c] + first).ln()
                    };
                    if self.selected == 0 {
                        0.0
                    } else {
                        self.log_normalizer[c] - *new
                    }
                }
                Event::Bernoulli => second,
            };
        }
        if metric == Metric::LogLoss {
            let value = self.log_loss_with(problem, i, &log_new, scratch);
            scratch.log_new = log_new;
            return value;
        }
        // A document predicted as p changes only if some class gains more than its margin on p.
        let highest = scratch
            .shift
            .iter()
            .fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        scratch.generation += 1;
        let generation = scratch.generation;
        let mut counts = scratch
            .counts
            .take()
            .unwrap_or_else(|| self.confusion.clone());
        counts.clone_from(&self.confusion);
        let mut fresh = std::mem::take(&mut scratch.fresh);
        for &(d, x) in &problem.postings[i] {
            let d = d as usize;
            scratch.stamp[d] = generation;
            self.with_candidate(problem, i, d, x, &mut fresh, &log_new);
            self.repredict(problem, d, &fresh, &mut counts);
        }
        for (p, documents) in self.at_risk.iter().enumerate() {
            let gain = highest - scratch.shift[p];
            // Most candidates put no document at risk: one look at the smallest ratio saves the
            // search.
            if documents.first().is_none_or(|&(ratio, _)| ratio >= gain) {
                continue;
            }
            let risky = documents.partition_point(|&(ratio, _)| ratio < gain);
            for &(_, d) in &documents[..risky] {
                let d = d as usize;
                if scratch.stamp[d] == generation {
                    continue;
                }
                self.shifted(k, d, &scratch.shift, &mut fresh);
                self.repredict(problem, d, &fresh, &mut counts);
            }
        }
        scratch.fresh = fresh;
        scratch.log_new = log_new;
        let value = counts.value(metric, problem.truth.len());
        scratch.counts = Some(counts);
        value
    }

    /// Document `d`'s scores moved by its weight times `shift`, into `out`.
    fn shifted(&self, k: usize, d: usize, shift: &[f64], out: &mut [f64]) {
        let scores = &self.scores[d * k..(d + 1) * k];
        for ((o, s), u) in out.iter_mut().zip(scores).zip(shift) {
            *o = s + self.weight[d] * u;
        }
    }

    fn repredict(&self, problem: &Problem, d: usize, scores: &[f64], counts: &mut Counts) {
        let best = first_max(scores);
        if best != self.predicted[d] {
            counts.record(problem.truth[d], self.predicted[d], -1);
            counts.record(problem.truth[d], best, 1);
        }
    }

    fn log_loss_with(
        &self,
        problem: &Problem,
        i: usize,
        log_new: &[f64],
        scratch: &mut Scratch,
    ) -> f64 {
        let (n, k) = (problem.truth.len(), problem.classes);
        scratch.generation += 1;
        let generation = scratch.generation;
        let mut fresh = std::mem::take(&mut scratch.fresh);
        let mut total = 0.0;
        for &(d, x) in &problem.postings[i] {
            scratch.stamp[d as usize] = generation;
            self.with_candidate(problem, i, d as usize, x, &mut fresh, log_new);
            total += log_loss(&fresh, problem.truth[d as usize]);
        }
        for d in (0..n).filter(|&d| scratch.stamp[d] != generation) {
            self.shifted(k, d, &scratch.shift, &mut fresh);
            total += log_loss(&fresh, problem.truth[d]);
        }
        scratch.fresh = fresh;
        total / n.max(1) as f64
    }

    /// Adds candidate `i` for good.
    fn add(&mut self, problem: &Problem, i: usize) {
        let k = problem.classes;
        for &(d, x) in &problem.postings[i] {
            let d = d as usize;
            for c in 0..k {
                let (first, second) = problem.stats[i][c];
                self.partial[d * k + c] += match problem.event {
                    Event::Multinomial => x * second,
                    Event::Bernoulli => first - second,
                };
            }
            if problem.event == Event::Multinomial {
                self.weight[d] += x;
            }
        }
        for c in 0..k {
            let (first, second) = problem.stats[i][c];
            match problem.event {
                Event::Multinomial => {
                    self.normalizer[c] += first;
                    self.log_normalizer[c] = self.normalizer[c].ln();
                    self.log_unseen[c] = (self.normalizer[c] + problem.alpha).ln();
                }
                // Every document gains log(1 − p); those with the feature got log p − log(1 − p)
                // on top above.
                Event::Bernoulli => {
                    (0..problem.truth.len()).for_each(|d| self.partial[d * k + c] += second);
                }
            }
        }
        self.selected += 1;
        self.rescore(problem);
    }
}

/// −log of the normalized probability of `truth` from joint log-likelihoods.
fn log_loss(scores: &[f64], truth: u32) -> f64 {
    let max = scores.iter().fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let total: f64 = scores.iter().map(|s| (s - max).exp()).sum();
    max + total.ln() - scores[truth as usize]
}

#[cfg(test)]
mod tests;
