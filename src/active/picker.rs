//! Keeping the best documents of a pool as it streams by, and spreading a batch over them.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::Strategy;
use crate::eval::seeded_hash;
use crate::vectorize::SparseRow;

/// A pool document proposed for labelling.
#[derive(Debug, Clone, PartialEq)]
pub struct Suggestion {
    /// The document's id in the pool.
    pub id: String,
    /// The start of its text, on one line.
    pub excerpt: String,
    /// The model's guess.
    pub guess: String,
    /// The guess's probability.
    pub probability: f64,
    /// What the strategy scored it: higher asks sooner.
    pub score: f64,
}

/// Characters of a document shown in its excerpt.
const EXCERPT_CHARS: usize = 160;
/// `diverse` spreads its batch over this many times as many close calls.
const DIVERSE_POOL: usize = 10;

/// A candidate kept while the pool streams by, ordered so that the heap's top is the one to drop.
struct Kept {
    key: f64,
    order: u64,
    suggestion: Suggestion,
    row: SparseRow,
}

impl PartialEq for Kept {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Kept {}

impl PartialOrd for Kept {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Kept {
    /// The lowest key is the greatest, so that it sits on the heap's top to be dropped; among
    /// equal keys the later document is dropped first, so the pick is the same at any thread
    /// count.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .key
            .total_cmp(&self.key)
            .then(self.order.cmp(&other.order))
    }
}

/// Keeps the documents a strategy would ask about first, as the pool streams by.
pub struct Picker {
    strategy: Strategy,
    n: usize,
    seed: u64,
    kept: BinaryHeap<Kept>,
    seen: u64,
}

impl Picker {
    /// A picker of `n` documents by `strategy`; `seed` orders `random`.
    pub fn new(strategy: Strategy, n: usize, seed: u64) -> Self {
        Picker {
            strategy,
            n,
            seed,
            kept: BinaryHeap::new(),
            seen: 0,
        }
    }

    /// How many candidates are kept while the pool streams by.
    fn capacity(&self) -> usize {
        match self.strategy {
            Strategy::Diverse => self.n.saturating_mul(DIVERSE_POOL),
            _ => self.n,
        }
    }

    /// Offers a pool document: its id, the model's class `labels` and `probabilities` (in the
    /// model's order), and its weighted row, which `diverse` compares. Its excerpt is left empty
    /// for [`excerpt`] to fill: a pool's texts are not kept while it streams by.
    pub fn offer(
        &mut self,
        id: &str,
        (labels, probabilities): (&[String], &[f64]),
        row: &SparseRow,
    ) {
        let order = self.seen;
        self.seen += 1;
        let score = self.strategy.score(probabilities);
        let key = match self.strategy {
            // The largest hash is kept, so the sample depends on the seed and ids alone.
            Strategy::Random => seeded_hash(id, self.seed) as f64,
            _ => score,
        };
        if self.kept.len() >= self.capacity() {
            match self.kept.peek() {
                Some(worst) if worst.key < key => {
                    self.kept.pop();
                }
                _ => return,
            }
        }
        let best = (0..probabilities.len()).max_by(|&a, &b| {
            probabilities[a]
                .total_cmp(&probabilities[b])
                .then(b.cmp(&a))
        });
        let suggestion = Suggestion {
            id: id.to_string(),
            excerpt: String::new(),
            guess: best.map_or_else(String::new, |b| labels[b].clone()),
            probability: best.map_or(0.0, |b| probabilities[b]),
            score,
        };
        let row = match self.strategy {
            Strategy::Diverse => row.clone(),
            _ => SparseRow::default(),
        };
        self.kept.push(Kept {
            key,
            order,
            suggestion,
            row,
        });
    }

    /// The documents to label, first to ask first.
    pub fn finish(self) -> Vec<Suggestion> {
        // The heap's sorted order is the reverse of its `Ord`: the highest key first.
        let kept = self.kept.into_sorted_vec();
        match self.strategy {
            Strategy::Diverse => spread(kept, self.n),
            _ => kept.into_iter().map(|k| k.suggestion).collect(),
        }
    }
}

/// Picks `n` of the candidates (highest score first): the first is the closest call, each next
/// the one whose score times its cosine distance to the nearest pick so far is largest (a
/// weighted farthest-first traversal).
fn spread(candidates: Vec<Kept>, n: usize) -> Vec<Suggestion> {
    let norms: Vec<f64> = candidates.iter().map(|k| norm(&k.row)).collect();
    let mut nearest = vec![1.0f64; candidates.len()];
    let mut taken = vec![false; candidates.len()];
    let mut picks = Vec::new();
    while picks.len() < n.min(candidates.len()) {
        let next = (0..candidates.len())
            .filter(|&i| !taken[i])
            .max_by(|&a, &b| {
                let weight = |i: usize| candidates[i].suggestion.score * nearest[i];
                weight(a).total_cmp(&weight(b)).then(b.cmp(&a))
            });
        let Some(next) = next else { break };
        taken[next] = true;
        for i in 0..candidates.len() {
            let cosine = dot(&candidates[i].row, &candidates[next].row) / (norms[i] * norms[next]);
            let distance = if cosine.is_finite() {
                1.0 - cosine
            } else {
                1.0
            };
            nearest[i] = nearest[i].min(distance.max(0.0));
        }
        picks.push(next);
    }
    let mut candidates: Vec<Option<Kept>> = candidates.into_iter().map(Some).collect();
    picks
        .into_iter()
        .filter_map(|i| candidates[i].take().map(|k| k.suggestion))
        .collect()
}

/// The dot product of two rows with increasing column ids.
fn dot(a: &SparseRow, b: &SparseRow) -> f64 {
    let (mut i, mut j, mut sum) = (0, 0, 0.0);
    while i < a.indices.len() && j < b.indices.len() {
        match a.indices[i].cmp(&b.indices[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                sum += a.values[i] * b.values[j];
                i += 1;
                j += 1;
            }
        }
    }
    sum
}

fn norm(row: &SparseRow) -> f64 {
    row.values.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// The start of `text` on one line: runs of white space become one space.
pub fn excerpt(text: &str) -> String {
    let words = text.split_whitespace();
    let mut out = String::new();
    for word in words {
        if out.chars().count() >= EXCERPT_CHARS {
            out.push('…');
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}
