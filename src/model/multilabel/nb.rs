//! Binary-relevance naive Bayes: for each label, documents with it against documents without it.
//! All three event models have this form; complement naive Bayes's is each label's two-class
//! complement model (the label's weights estimated from the documents without it and the
//! reverse), as `train --classifier cnb` would give on that label's yes/no problem.
//!
//! The counts kept are each label's sums over its documents and the sums over all documents;
//! a label's negative sums are the difference, so nothing is stored per label that a
//! single-label model would not store, and adding documents later is exact, as in
//! [`NaiveBayes`].

use crate::model::explain::Attribution;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::model::label_sets::LabelSets;
use crate::model::naive_bayes::{ClassSums, NaiveBayes, NbKind, Priors, SparseScorer};
use crate::vectorize::Matrix;

/// Multinomial or Bernoulli naive Bayes, one binary problem per label.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BinaryNb {
    /// Per label, its documents' counts.
    positives: NaiveBayes,
    /// Every document's counts, as one class.
    all: NaiveBayes,
    /// Each label's log posterior odds, computed on first use from the counts.
    #[serde(skip)]
    scorer: OnceLock<SparseScorer>,
}

/// Two models are equal when their counts are; the scorer is derived.
impl PartialEq for BinaryNb {
    fn eq(&self, other: &Self) -> bool {
        self.positives == other.positives && self.all == other.all
    }
}

impl BinaryNb {
    /// An untrained model of `kind` with smoothing `alpha`.
    pub fn new(kind: NbKind, alpha: f64, labels: usize, features: usize) -> Result<Self> {
        Ok(BinaryNb {
            positives: NaiveBayes::new(kind, alpha, Priors::Learned, labels, features)?,
            all: NaiveBayes::new(kind, alpha, Priors::Learned, 1, features)?,
            scorer: OnceLock::new(),
        })
    }

    /// A model from its counts: per label (`positives`, one class per label) and over every
    /// document (`all`, one class); what an online learner hands back.
    pub(crate) fn from_counts(positives: NaiveBayes, all: NaiveBayes) -> Result<Self> {
        let nb = BinaryNb {
            positives,
            all,
            scorer: OnceLock::new(),
        };
        nb.check()?;
        Ok(nb)
    }

    /// Checks both sets of counts (see [`NaiveBayes::check`]).
    pub fn check(&self) -> Result<()> {
        self.positives.check()?;
        self.all.check()?;
        if self.all.classes() != 1 || self.all.features() != self.positives.features() {
            return Err(Error::Config(
                "multi-label naive Bayes counts do not match".into(),
            ));
        }
        Ok(())
    }

    /// The event model.
    pub fn kind(&self) -> NbKind {
        self.positives.kind()
    }

    /// Training documents per label.
    pub(crate) fn label_docs(&self) -> &[f64] {
        self.positives.class_docs()
    }

    /// Training documents in all.
    pub fn documents(&self) -> f64 {
        self.all.class_docs()[0]
    }

    /// The counts per label and over all documents, for comparing models.
    pub fn counts(&self) -> (&NaiveBayes, &NaiveBayes) {
        (&self.positives, &self.all)
    }

    /// Adds rows with their label sets.
    pub fn add(&mut self, x: &Matrix, sets: &LabelSets) {
        self.positives.add_sets(x, sets);
        self.all.add(x, &vec![0; sets.len()]);
        self.scorer = OnceLock::new();
    }

    /// Renumbers features and adds labels, for an update whose vocabulary grew (see
    /// [`NaiveBayes::remap`]).
    pub(crate) fn remap(&mut self, new_of_old: &[u32], features: usize, labels: usize) {
        self.positives.remap(new_of_old, features, labels);
        self.all.remap(new_of_old, features, 1);
        self.scorer = OnceLock::new();
    }

    /// Sets the number of features smoothing counts (see [`NaiveBayes::set_space`]).
    pub(crate) fn set_space(&mut self, space: usize) {
        self.positives.set_space(space);
        self.all.set_space(space);
    }

    /// Fills `out` (one slot per label) with each label's score for one row: its log posterior
    /// odds, or for complement naive Bayes the difference of its two classes' scores.
    pub fn scores(&self, indices: &[u32], values: &[f64], out: &mut [f64]) {
        self.scorer().scores(indices, values, out);
    }

    /// Label `label`'s log posterior odds of one row taken apart: the log prior odds (and for
    /// Bernoulli NB every term's absence) as the bias, and each term's value times its log
    /// likelihood ratio. Unlike single-label naive Bayes, nothing is centered: each label's
    /// odds are a problem of their own.
    pub fn attribute(&self, indices: &[u32], values: &[f64], label: usize) -> Attribution {
        let scorer = self.scorer();
        let mut weights = vec![0.0; scorer.classes()];
        let mut terms = Vec::with_capacity(indices.len());
        for (&j, &value) in indices.iter().zip(values) {
            if let Some(x) = scorer.unit_value(j, value) {
                scorer.term_weights(j as usize, &mut weights);
                terms.push((j, x * weights[label]));
            }
        }
        let mut scores = vec![0.0; scorer.classes()];
        scorer.scores(indices, values, &mut scores);
        Attribution {
            score: scores[label],
            bias: scorer.bias[label],
            terms,
        }
    }

    /// What one unit of feature `j` adds to each label's log odds, into `out`.
    pub(crate) fn term_weights(&self, j: usize, out: &mut [f64]) {
        self.scorer().term_weights(j, out);
    }

    fn scorer(&self) -> &SparseScorer {
        let build: fn(&Self) -> SparseScorer =
            (self.kind()).pick(Self::multinomial, Self::complement, Self::bernoulli);
        self.scorer.get_or_init(|| build(self))
    }

    /// Log prior odds of each label. A label on every document (or on none) would have infinite
    /// odds; half a document stands in for the empty side, so scores stay finite.
    fn prior_odds(&self) -> Vec<f64> {
        let n = self.documents();
        let odds = |p: f64| p.max(0.5).ln() - (n - p).max(0.5).ln();
        self.label_docs().iter().map(|&p| odds(p)).collect()
    }

    /// Every feature's sum over all documents, dense.
    fn totals(&self) -> Vec<f64> {
        let mut totals = vec![0.0; self.all.features()];
        let sums = &self.all.sums()[0];
        for (&j, &s) in sums.indices.iter().zip(&sums.values) {
            totals[j as usize] = s;
        }
        totals
    }

    /// Multinomial: label c's weight of feature j is log θ⁺_cj − log θ⁻_cj, with
    /// θ⁺_cj = (s_cj + α) / (S_c + αn) over the label's documents and
    /// θ⁻_cj = (t_j − s_cj + α) / (T − S_c + αn) over the others (t_j and T the sums over all
    /// documents). Where the label has no counts it is log α − log(t_j + α) plus a per-label
    /// constant, so the scorer keeps −log(t_j + α) as the shared base, the constant as the slope,
    /// and a delta only where the label has counts.
    fn multinomial(&self) -> SparseScorer {
        let (n, alpha) = (self.all.features(), self.positives.alpha());
        let totals = self.totals();
        let grand = self.all.sums()[0].total();
        let log_alpha = alpha.ln();
        let delta = |_, j: u32, s: f64| {
            let t = totals[j as usize];
            (s + alpha).ln() - log_alpha - (t - s + alpha).ln() + (t + alpha).ln()
        };
        let sums = self.positives.sums();
        let (mut scorer, _) = SparseScorer::new(n, self.prior_odds(), sums, delta);
        let smoothing = alpha * self.all.space() as f64;
        for (c, label) in sums.iter().enumerate() {
            let positive = label.total();
            scorer.slope[c] =
                log_alpha - (positive + smoothing).ln() + (grand - positive + smoothing).ln();
        }
        scorer.base = totals.iter().map(|&t| -(t + alpha).ln()).collect();
        scorer
    }

    /// Complement: label c's problem has two classes, "has c" and "lacks c", and complement
    /// naive Bayes (as [`NaiveBayes`] computes it, normalized and without priors) weighs each
    /// class by the other's counts: "has c" by θ⁻_cj = (t_j − s_cj + α) / (T − S_c + αn) and
    /// "lacks c" by θ⁺_cj = (s_cj + α) / (S_c + αn), each log weight divided by its sum over the
    /// features, L⁻_c and L⁺_c. The score is "has c"'s minus "lacks c"'s, so 0 is where the
    /// two-class model would change its mind:
    /// Σ_j x_j (log θ⁻_cj / L⁻_c − log θ⁺_cj / L⁺_c). With r_c = L⁻_c / L⁺_c that is 1 / L⁻_c
    /// times a shared log(t_j + α), a per-label slope, and a delta where the label has counts.
    fn complement(&self) -> SparseScorer {
        let (n, alpha) = (self.all.features(), self.positives.alpha());
        let totals = self.totals();
        let grand = self.all.sums()[0].total();
        let log_alpha = alpha.ln();
        let base: Vec<f64> = totals.iter().map(|&t| (t + alpha).ln()).collect();
        // A column beyond the arrays (hashed, never reached) has no counts: its base is log α.
        let space = self.all.space() as f64;
        let base_total: f64 = base.iter().sum::<f64>() + (space - n as f64) * log_alpha;
        let smoothing = alpha * space;
        let sums = self.positives.sums();
        // Per label: (log of θ⁺'s denominator, of θ⁻'s, L⁻_c, r_c).
        let parts: Vec<(f64, f64, f64, f64)> = sums
            .iter()
            .map(|label| {
                let positive = label.total();
                let (d_plus, d_minus) = (
                    (positive + smoothing).ln(),
                    (grand - positive + smoothing).ln(),
                );
                let (mut own, mut rest) = (0.0, 0.0);
                for (&j, &s) in label.indices.iter().zip(&label.values) {
                    let t = totals[j as usize];
                    own += (s + alpha).ln() - log_alpha;
                    rest += (t - s + alpha).ln() - base[j as usize];
                }
                let l_plus = own + space * (log_alpha - d_plus);
                let l_minus = base_total + rest - space * d_minus;
                (d_plus, d_minus, l_minus, l_minus / l_plus)
            })
            .collect();
        let delta = |c: usize, j: u32, s: f64| {
            let t = totals[j as usize];
            let r = parts[c].3;
            (t - s + alpha).ln() - base[j as usize] - r * ((s + alpha).ln() - log_alpha)
        };
        let (mut scorer, _) = SparseScorer::new(n, vec![0.0; sums.len()], sums, delta);
        for (c, &(d_plus, d_minus, l_minus, r)) in parts.iter().enumerate() {
            scorer.slope[c] = -d_minus - r * (log_alpha - d_plus);
            scorer.scale[c] = 1.0 / l_minus;
        }
        scorer.base = base.into();
        scorer
    }

    /// Bernoulli: with p_cj = (s_cj + α) / (N_c + 2α) over the label's documents and
    /// q_cj = (t_j − s_cj + α) / (N − N_c + 2α) over the others, a present term adds
    /// logit p − logit q and an absent one log(1 − p) − log(1 − q). The absent-term factors are
    /// summed into the bias. q depends on both the label and the term, so every term seen in
    /// training gets a delta in every label; a term never seen has the per-label slope.
    fn bernoulli(&self) -> SparseScorer {
        let (n, alpha) = (self.all.features(), self.positives.alpha());
        let documents = self.documents();
        let seen = &self.all.sums()[0];
        let totals = self.totals();
        let docs = self.label_docs().to_vec();
        let p = |c: usize, s: f64| (s + alpha) / (docs[c] + 2.0 * alpha);
        let q = |c: usize, t: f64| (t + alpha) / (documents - docs[c] + 2.0 * alpha);
        let logit = |x: f64| x.ln() - (1.0 - x).ln();
        let present = |c: usize, s: f64, t: f64| logit(p(c, s)) - logit(q(c, t - s));
        let absent = |c: usize, s: f64, t: f64| (1.0 - p(c, s)).ln() - (1.0 - q(c, t - s)).ln();
        // Each label's sums over every seen term, zero where the label never had it.
        let dense: Vec<ClassSums> = self
            .positives
            .sums()
            .iter()
            .map(|label| spread_over(label, seen))
            .collect();
        let delta =
            |c: usize, j: u32, s: f64| present(c, s, totals[j as usize]) - present(c, 0.0, 0.0);
        let (mut scorer, _) = SparseScorer::new(n, self.prior_odds(), &dense, delta);
        scorer.binary = true;
        let unseen = (self.all.space() - seen.indices.len()) as f64;
        for (c, label) in dense.iter().enumerate() {
            let missing: f64 = (label.indices.iter().zip(&label.values))
                .map(|(&j, &s)| absent(c, s, totals[j as usize]))
                .sum();
            scorer.bias[c] += missing + unseen * absent(c, 0.0, 0.0);
            scorer.slope[c] = present(c, 0.0, 0.0);
        }
        scorer
    }
}

/// `label`'s sums over the features of `seen` (a superset), zero where it has none.
fn spread_over(label: &ClassSums, seen: &ClassSums) -> ClassSums {
    let mut values = Vec::with_capacity(seen.indices.len());
    let mut own = label.indices.iter().zip(&label.values).peekable();
    for &j in &seen.indices {
        match own.peek() {
            Some(&(&k, &s)) if k == j => {
                values.push(s);
                own.next();
            }
            _ => values.push(0.0),
        }
    }
    ClassSums {
        indices: seen.indices.clone(),
        values: values.into(),
    }
}
