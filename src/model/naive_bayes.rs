//! Naive Bayes — multinomial, complement (Rennie et al. 2003, with weight normalization) and
//! Bernoulli — kept as exact sufficient statistics, so adding documents later gives the same
//! model as training on all of them at once.
//!
//! Everything is in log space: a document's score is a sum of per-term log weights, so long
//! documents never underflow. Scoring a document costs O(non-zeros × classes): the Bernoulli
//! model's absent-term factors are folded into a per-class constant.

use std::sync::OnceLock;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use super::kinds::NbKind;
use super::label_sets::LabelSets;
use crate::error::{Error, Result};
use crate::vectorize::Matrix;
use scorer::feature_totals;
pub use scorer::SparseScorer;
pub use sums::ClassSums;

/// Naive Bayes smoothing: a given value, or one chosen on the training documents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Smoothing {
    /// This additive smoothing, > 0.
    Fixed(f64),
    /// Multinomial NB only: the value from 0.0001 to 1 (half decades) with the best
    /// leave-one-out accuracy on the training documents (see `NaiveBayes::choose_alpha`).
    Auto,
}

impl Smoothing {
    /// Where there are no training documents at hand to choose from (learning from a stream,
    /// binary relevance, feature selection), `Auto` smooths by 0.01: the best fixed value by
    /// mean rank in cross-validation on the five corpora that chose the defaults.
    pub(crate) const FALLBACK: f64 = 0.01;

    /// The value to smooth by before any choice, or without one.
    pub fn value(self) -> f64 {
        match self {
            Smoothing::Fixed(alpha) => alpha,
            Smoothing::Auto => Self::FALLBACK,
        }
    }
}

impl std::fmt::Display for Smoothing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Smoothing::Fixed(alpha) => write!(f, "{alpha}"),
            Smoothing::Auto => f.write_str("auto"),
        }
    }
}

impl std::str::FromStr for Smoothing {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "auto" => Ok(Smoothing::Auto),
            _ => s
                .parse()
                .map(Smoothing::Fixed)
                .map_err(|_| format!("'{s}' is neither a number nor auto")),
        }
    }
}

/// Class prior probabilities.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub enum Priors {
    /// Proportional to the training documents per class.
    #[default]
    Learned,
    /// Equal for every class.
    Uniform,
    /// Given by the user, one per class, normalized to sum to 1.
    Given(Vec<f64>),
}

/// Scratch space for adding rows to one class's sums at a time: a slot per feature, and the
/// features touched so far. Summing into it in row order adds every feature's values in the
/// same order as [`ClassSums::merge`] does, so the sums are the same to the bit; it replaced
/// collecting and stably sorting a (feature, value) pair per non-zero, which took 30 ms of the
/// 250 ms that multinomial NB trains in on 20 Newsgroups.
struct DenseSums {
    sums: Vec<f64>,
    seen: Vec<bool>,
    touched: Vec<u32>,
}

impl DenseSums {
    fn new(features: usize) -> Self {
        DenseSums {
            sums: vec![0.0; features],
            seen: vec![false; features],
            touched: Vec::new(),
        }
    }

    /// Adds rows `rows` of `x` to `class` (for Bernoulli, their presence), leaving the scratch
    /// space as it was.
    fn add_rows(&mut self, class: &mut ClassSums, x: &Matrix, rows: &[usize], bernoulli: bool) {
        for (&j, &value) in class.indices.iter().zip(&class.values) {
            self.touch(j, value);
        }
        for &i in rows {
            let (indices, values) = crate::vectorize::matrix_row(x, i);
            for (&j, &value) in indices.iter().zip(values) {
                let value = if bernoulli {
                    f64::from(u8::from(value > 0.0))
                } else {
                    value
                };
                self.touch(j, value);
            }
        }
        self.touched.sort_unstable();
        let (mut indices, mut values) = (class.indices.to_mut(), class.values.to_mut());
        indices.clear();
        values.clear();
        for &j in &self.touched {
            let j_slot = j as usize;
            indices.push(j);
            values.push(std::mem::take(&mut self.sums[j_slot]));
            self.seen[j_slot] = false;
        }
        self.touched.clear();
    }

    fn touch(&mut self, j: u32, value: f64) {
        let slot = j as usize;
        if !self.seen[slot] {
            self.seen[slot] = true;
            self.touched.push(j);
        }
        self.sums[slot] += value;
    }
}

/// A naive Bayes model as counts: documents per class and, per class, the sum of each feature
/// (for Bernoulli, the number of documents that contain it), stored sparse.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NaiveBayes {
    kind: NbKind,
    alpha: f64,
    priors: Priors,
    class_docs: Vec<f64>,
    sums: Vec<ClassSums>,
    n_features: usize,
    /// The number of features smoothing counts, when it is more than `n_features`: for hashed
    /// terms, all 2^bits columns, of which the arrays hold only those that occur. Not stored:
    /// it comes from the vectorizer (see [`NaiveBayes::set_space`]).
    #[serde(skip)]
    space: Option<usize>,
    /// The log weights, computed on first use from the counts, or stored in the model file.
    #[serde(default, with = "crate::packed::derived")]
    scorer: OnceLock<SparseScorer>,
}

/// Two models are equal when their counts are; the scorer is derived.
impl PartialEq for NaiveBayes {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
            && self.alpha == other.alpha
            && self.priors == other.priors
            && self.class_docs == other.class_docs
            && self.sums == other.sums
            && self.n_features == other.n_features
    }
}

impl NaiveBayes {
    /// An untrained model. `alpha` is the additive (Lidstone) smoothing, > 0.
    pub fn new(
        kind: NbKind,
        alpha: f64,
        priors: Priors,
        classes: usize,
        features: usize,
    ) -> Result<Self> {
        if !(alpha > 0.0 && alpha.is_finite()) {
            return Err(Error::Config(format!(
                "--alpha (the smoothing) must be a finite number > 0, got {alpha}"
            )));
        }
        if let Priors::Given(p) = &priors {
            if p.len() != classes || p.iter().any(|&x| !(x > 0.0 && x.is_finite())) {
                return Err(Error::Config(format!("{classes} positive priors needed")));
            }
        }
        Ok(NaiveBayes {
            kind,
            alpha,
            priors,
            class_docs: vec![0.0; classes],
            sums: vec![ClassSums::default(); classes],
            n_features: features,
            space: None,
            scorer: OnceLock::new(),
        })
    }

    /// A model from its counts: documents per class and each class's sums, as
    /// [`NaiveBayes::class_docs`] and [`NaiveBayes::sums`] give them; checked as a loaded model is.
    pub(crate) fn from_counts(
        kind: NbKind,
        alpha: f64,
        priors: Priors,
        class_docs: Vec<f64>,
        sums: Vec<ClassSums>,
        features: usize,
    ) -> Result<Self> {
        let mut nb = NaiveBayes::new(kind, alpha, priors, class_docs.len(), features)?;
        nb.class_docs = class_docs;
        nb.sums = sums;
        nb.check()?;
        Ok(nb)
    }

    /// Checks what a damaged or foreign model file could get wrong and scoring relies on: one
    /// sum list per class, each with as many values as features, and, when the file stores the
    /// scorer, its shape. The sums themselves are checked by `NaiveBayes::check_sums` before
    /// they are used: a model file of format 6 stores the scorer, so scoring never reads them,
    /// and reading millions of them would cost more than the rest of loading.
    pub fn check(&self) -> Result<()> {
        let fresh = NaiveBayes::new(
            self.kind,
            self.alpha,
            self.priors.clone(),
            self.classes(),
            self.n_features,
        )?;
        // Indices ascend (checked in full by `check_sums`), so the last is the largest.
        let shaped = |s: &ClassSums| {
            s.indices.len() == s.values.len()
                && (s.indices.last()).is_none_or(|&j| (j as usize) < fresh.n_features)
        };
        let scorer_fits =
            (self.scorer.get()).is_none_or(|s| s.fits(fresh.classes(), fresh.n_features));
        if self.sums.len() != fresh.classes() || !self.sums.iter().all(shaped) || !scorer_fits {
            return Err(mismatch());
        }
        match self.scorer.get() {
            Some(_) => Ok(()),
            None => self.check_sums(),
        }
    }

    /// Checks that each class's features are ascending and within the vocabulary: what
    /// computing the scorer and adding documents rely on.
    pub(crate) fn check_sums(&self) -> Result<()> {
        let ordered = |s: &ClassSums| {
            s.indices.windows(2).all(|pair| pair[0] < pair[1])
                && s.indices
                    .last()
                    .is_none_or(|&j| (j as usize) < self.n_features)
        };
        if !self.sums.iter().all(ordered) {
            return Err(mismatch());
        }
        Ok(())
    }

    /// The event model.
    pub fn kind(&self) -> NbKind {
        self.kind
    }

    /// The additive smoothing.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    /// Number of classes.
    pub fn classes(&self) -> usize {
        self.class_docs.len()
    }

    /// Number of features.
    pub(crate) fn features(&self) -> usize {
        self.n_features
    }

    /// Sets the number of features smoothing counts, `space` (at least the features), as the
    /// vectorizer's [`space`](crate::vectorize::FittedVectorizer::space) gives it. It must be set
    /// before the scorer is computed; a model file's stored scorer was computed with it.
    pub(crate) fn set_space(&mut self, space: usize) {
        self.space = Some(space);
    }

    /// The number of features smoothing counts: every column a term could fall in.
    pub(crate) fn space(&self) -> usize {
        self.space.unwrap_or(self.n_features).max(self.n_features)
    }

    /// Training documents seen per class.
    pub(crate) fn class_docs(&self) -> &[f64] {
        &self.class_docs
    }

    /// Adds labelled rows: `labels[i]` is row `i`'s class.
    pub fn add(&mut self, x: &Matrix, labels: &[u32]) {
        let mut rows = vec![Vec::new(); self.classes()];
        for (i, &class) in labels.iter().enumerate() {
            self.class_docs[class as usize] += 1.0;
            rows[class as usize].push(i);
        }
        self.add_class_rows(x, rows);
    }

    /// Adds rows that may each belong to several classes: row `i` counts in every class of
    /// `sets.row(i)` (binary relevance's positive counts).
    pub(crate) fn add_sets(&mut self, x: &Matrix, sets: &LabelSets) {
        let mut rows = vec![Vec::new(); self.classes()];
        for i in 0..sets.len() {
            for &class in sets.row(i) {
                self.class_docs[class as usize] += 1.0;
                rows[class as usize].push(i);
            }
        }
        self.add_class_rows(x, rows);
    }

    /// Each class's sums of its features.
    pub(crate) fn sums(&self) -> &[ClassSums] {
        &self.sums
    }

    /// Adds rows `rows[c]` of `x` to class `c`'s sums, for every class.
    fn add_class_rows(&mut self, x: &Matrix, rows: Vec<Vec<usize>>) {
        let presence = self.kind.counts_presence();
        let features = x.cols().max(self.n_features);
        self.sums.par_iter_mut().zip(rows).for_each_init(
            || DenseSums::new(features),
            |dense, (sums, rows)| dense.add_rows(sums, x, &rows, presence),
        );
        self.scorer = OnceLock::new();
    }

    /// Renumbers features and adds classes, for an update whose vocabulary grew: `new_of_old[j]`
    /// is old feature `j`'s new column; the statistics of new features and classes start at 0.
    pub(crate) fn remap(&mut self, new_of_old: &[u32], features: usize, classes: usize) {
        for sums in &mut self.sums {
            let pairs: Vec<(u32, f64)> = sums
                .indices
                .iter()
                .map(|&j| new_of_old[j as usize])
                .zip(sums.values.iter().copied())
                .collect();
            *sums = ClassSums::default();
            sums.merge(pairs);
        }
        self.sums.resize(classes, ClassSums::default());
        self.class_docs.resize(classes, 0.0);
        if let Priors::Given(p) = &mut self.priors {
            p.resize(classes, 1.0 / classes as f64);
        }
        self.n_features = features;
        self.scorer = OnceLock::new();
    }

    fn log_priors(&self) -> Vec<f64> {
        log_priors(&self.priors, &self.class_docs)
    }

    /// The log weights for scoring, computed once from the counts.
    pub fn scorer(&self) -> &SparseScorer {
        let build: fn(&Self) -> SparseScorer =
            (self.kind).pick(Self::multinomial, Self::complement, Self::bernoulli);
        self.scorer.get_or_init(|| build(self))
    }

    /// log θ_cj = log(α + s_cj) − log(Σ_j s_cj + αn): log α − log D_c for every feature, plus a
    /// delta where the class has counts.
    fn multinomial(&self) -> SparseScorer {
        let (n, alpha) = (self.n_features, self.alpha);
        let delta = |_, _, s: f64| (s + alpha).ln() - alpha.ln();
        let (mut scorer, _) = SparseScorer::new(n, self.log_priors(), &self.sums, delta);
        let space = self.space() as f64;
        for (c, sums) in self.sums.iter().enumerate() {
            scorer.slope[c] = alpha.ln() - (sums.total() + alpha * space).ln();
        }
        scorer
    }

    /// Complement weights log(α + S_j − s_cj) − log D_c, with S_j the feature's sum over all
    /// classes, normalized per class: a shared log(α + S_j) per feature, a delta where the
    /// class has counts, and a per-class scale of 1 / Σ_j weight.
    fn complement(&self) -> SparseScorer {
        let (n, alpha) = (self.n_features, self.alpha);
        let all = feature_totals(n, &self.sums);
        let grand: f64 = all.iter().sum();
        let base: Vec<f64> = all.par_iter().map(|&a| (a + alpha).ln()).collect();
        // Most terms of a bigram vocabulary occur in one class only (92% on 20 Newsgroups); for
        // them the rest is exactly 0 and its log is log α, which saves 43% of the logs.
        let log_alpha = alpha.ln();
        let delta = |_, j: u32, s: f64| {
            let rest = all[j as usize] - s;
            let log_rest = if rest == 0.0 {
                log_alpha
            } else {
                (rest + alpha).ln()
            };
            log_rest - base[j as usize]
        };
        // Complement NB ignores priors (as scikit-learn does with more than one class).
        let priors = vec![0.0; self.classes()];
        let (mut scorer, totals) = SparseScorer::new(n, priors, &self.sums, delta);
        // A column beyond the arrays (hashed, never reached) has no counts: its base is log α.
        let unseen = (self.space() - n) as f64;
        let base_total: f64 = base.iter().sum::<f64>() + unseen * log_alpha;
        let space = self.space() as f64;
        for (c, sums) in self.sums.iter().enumerate() {
            let denominator = (grand - sums.total() + alpha * space).ln();
            // Rennie et al.'s normalization: each class's weights sum to 1 in magnitude, so
            // classes with more data do not dominate. The sum is negative, so the ratio is
            // positive and largest for terms rare outside the class.
            let total = base_total + totals[c] - space * denominator;
            scorer.slope[c] = -denominator;
            scorer.scale[c] = 1.0 / total;
        }
        scorer.base = base.into();
        scorer
    }

    /// Bernoulli: a present term adds log p − log(1 − p), an absent one log(1 − p), with
    /// p_cj = (s_cj + α) / (N_c + 2α). Absent-term factors are summed into the bias, so scoring
    /// touches only the present terms; a term the class never saw has the same weight for every
    /// such term, the per-class slope.
    fn bernoulli(&self) -> SparseScorer {
        let (n, alpha) = (self.n_features, self.alpha);
        let docs = &self.class_docs;
        let unseen_weight = |c: usize| alpha.ln() - (docs[c] + alpha).ln();
        let p = |c: usize, s: f64| (s + alpha) / (docs[c] + 2.0 * alpha);
        let missing: Vec<f64> = (self.sums.par_iter().enumerate())
            .map(|(c, sums)| sums.values.iter().map(|&s| (1.0 - p(c, s)).ln()).sum())
            .collect();
        let delta = |c: usize, _, s: f64| {
            let p = p(c, s);
            p.ln() - (1.0 - p).ln() - unseen_weight(c)
        };
        let (mut scorer, _) = SparseScorer::new(n, self.log_priors(), &self.sums, delta);
        scorer.binary = true;
        for (c, sums) in self.sums.iter().enumerate() {
            let unseen_missing = ((docs[c] + alpha) / (docs[c] + 2.0 * alpha)).ln();
            let unseen = (self.space() - sums.indices.len()) as f64;
            scorer.bias[c] += missing[c] + unseen_missing * unseen;
            scorer.slope[c] = unseen_weight(c);
        }
        scorer
    }
}

fn mismatch() -> Error {
    Error::Config("naive Bayes sums do not match its features".into())
}

/// Log class priors: learned from the documents per class, uniform, or given.
fn log_priors(priors: &Priors, class_docs: &[f64]) -> Vec<f64> {
    let k = class_docs.len() as f64;
    let raw: Vec<f64> = match priors {
        Priors::Learned => class_docs.to_vec(),
        Priors::Uniform => vec![1.0; class_docs.len()],
        Priors::Given(p) => p.clone(),
    };
    let total: f64 = raw.iter().sum();
    raw.iter()
        .map(|&p| {
            if total > 0.0 {
                (p / total).ln()
            } else {
                -k.ln()
            }
        })
        .collect()
}

/// Turns joint log-likelihoods into posterior probabilities, in place, by log-sum-exp.
pub fn normalize_log_probabilities(scores: &mut [f64]) {
    let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let total: f64 = scores.iter().map(|s| (s - max).exp()).sum();
    let log_total = max + total.ln();
    scores.iter_mut().for_each(|s| *s = (*s - log_total).exp());
}

mod explain;
pub(crate) mod loo;
mod online;
mod scorer;
mod sums;
pub(crate) use online::OnlineNb;

#[cfg(test)]
mod tests;
