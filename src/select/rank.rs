//! Feature rankings from document counts: how strongly a term's presence is tied to the classes.
//!
//! All four scores look at presence only (in how many documents of each class a term occurs):
//! - `df`: document frequency;
//! - `chi2`: χ² of the 2×2 table term present/absent × in class/not, per class; a term's score is
//!   its largest over the classes;
//! - `mi`: the mutual information, in bits, between the term's presence and membership of one
//!   class (the expected value over the four cells of that table); largest over the classes;
//! - `ig`: information gain, in bits, as Rainbow prints it: the mutual information between the
//!   term's presence and the class variable, H(C) − P(t) H(C | t) − P(¬t) H(C | ¬t).

use crate::choice::Choice;
use crate::vectorize::{matrix_row, Matrix};

/// A ranking criterion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RankBy {
    /// χ² of presence against each class (largest over the classes).
    Chi2,
    /// Information gain over the class variable (Rainbow's).
    Ig,
    /// Mutual information of presence and each class (largest over the classes).
    Mi,
    /// Document frequency.
    Df,
}

impl Choice for RankBy {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        (
            "chi2",
            "χ² of presence against each class (largest over the classes)",
            RankBy::Chi2,
        ),
        (
            "ig",
            "Information gain over the class variable (Rainbow's)",
            RankBy::Ig,
        ),
        (
            "mi",
            "Mutual information of presence and each class (largest over the classes)",
            RankBy::Mi,
        ),
        ("df", "Document frequency", RankBy::Df),
    ];
}

/// In how many documents of each class each term occurs.
#[derive(Debug, Clone)]
pub(crate) struct Presence {
    /// Term-major: `counts[j * classes + c]`.
    counts: Vec<u32>,
    class_docs: Vec<u32>,
    docs: u32,
}

impl Presence {
    /// Counts presence in the rows `rows` of `x`, whose classes are `labels[i]`, for `classes`
    /// classes.
    pub(crate) fn count(x: &Matrix, labels: &[u32], rows: &[usize], classes: usize) -> Self {
        let mut counts = vec![0u32; x.cols() * classes];
        let mut class_docs = vec![0u32; classes];
        for &i in rows {
            let c = labels[i] as usize;
            class_docs[c] += 1;
            for &j in matrix_row(x, i).0 {
                counts[j as usize * classes + c] += 1;
            }
        }
        Presence {
            counts,
            class_docs,
            docs: rows.len() as u32,
        }
    }

    /// Number of terms.
    pub(crate) fn terms(&self) -> usize {
        self.counts.len() / self.class_docs.len().max(1)
    }

    /// Term `j`'s document frequency.
    pub(crate) fn df(&self, j: usize) -> u32 {
        self.of(j).iter().sum()
    }

    fn of(&self, j: usize) -> &[u32] {
        let k = self.class_docs.len();
        &self.counts[j * k..(j + 1) * k]
    }

    /// Term `j`'s score for class `c`: χ² or mutual information (other criteria do not depend
    /// on a class and give the overall score).
    pub(crate) fn class_score(&self, by: RankBy, j: usize, c: usize) -> f64 {
        let n = f64::from(self.docs);
        let a = f64::from(self.of(j)[c]);
        let b = f64::from(self.df(j)) - a;
        let cc = f64::from(self.class_docs[c]) - a;
        let d = n - a - b - cc;
        match by {
            RankBy::Chi2 => {
                let denominator = (a + cc) * (b + d) * (a + b) * (cc + d);
                if denominator == 0.0 {
                    0.0
                } else {
                    n * (a * d - b * cc).powi(2) / denominator
                }
            }
            RankBy::Mi => {
                let cell = |joint: f64, row: f64, column: f64| {
                    if joint == 0.0 {
                        0.0
                    } else {
                        joint / n * (n * joint / (row * column)).log2()
                    }
                };
                cell(a, a + b, a + cc)
                    + cell(b, a + b, b + d)
                    + cell(cc, cc + d, a + cc)
                    + cell(d, cc + d, b + d)
            }
            RankBy::Ig | RankBy::Df => self.score(by, j),
        }
    }

    /// Term `j`'s overall score.
    pub(crate) fn score(&self, by: RankBy, j: usize) -> f64 {
        match by {
            RankBy::Df => f64::from(self.df(j)),
            RankBy::Ig => self.information_gain(j),
            RankBy::Chi2 | RankBy::Mi => (0..self.class_docs.len())
                .map(|c| self.class_score(by, j, c))
                .fold(0.0, f64::max),
        }
    }

    fn information_gain(&self, j: usize) -> f64 {
        let n = f64::from(self.docs);
        let df = f64::from(self.df(j));
        let entropy = |counts: &mut dyn Iterator<Item = f64>, total: f64| -> f64 {
            if total == 0.0 {
                return 0.0;
            }
            counts
                .filter(|&x| x > 0.0)
                .map(|x| -(x / total) * (x / total).log2())
                .sum()
        };
        let classes = &self.class_docs;
        let with = self.of(j);
        let h = entropy(&mut classes.iter().map(|&x| f64::from(x)), n);
        let h_with = entropy(&mut with.iter().map(|&x| f64::from(x)), df);
        let without = classes
            .iter()
            .zip(with)
            .map(|(&all, &w)| f64::from(all - w));
        let h_without = entropy(&mut without.into_iter(), n - df);
        h - df / n * h_with - (n - df) / n * h_without
    }

    /// The `top` best terms by `by` (for class `c` when given) among those in at least `min_df`
    /// documents, best first, ties by term id.
    pub(crate) fn top(
        &self,
        by: RankBy,
        class: Option<usize>,
        top: usize,
        min_df: u32,
    ) -> Vec<(usize, f64)> {
        let score = |j: usize| match class {
            Some(c) => self.class_score(by, j, c),
            None => self.score(by, j),
        };
        let kept = (0..self.terms()).filter(|&j| self.df(j) >= min_df);
        let mut scored: Vec<(usize, f64)> = kept.map(|j| (j, score(j))).collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored.truncate(top);
        scored
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vectorize::{MatrixBuilder, SparseRow};

    /// Four documents, two classes: term 0 in both of class 0's documents and nowhere else;
    /// term 1 in every document; term 2 in one document of each class.
    fn presence() -> Presence {
        let rows: [&[u32]; 4] = [&[0, 1, 2], &[0, 1], &[1, 2], &[1]];
        let mut builder = MatrixBuilder::default();
        for row in rows {
            builder.push(&SparseRow {
                indices: row.to_vec(),
                values: vec![1.0; row.len()],
            });
        }
        let x = builder.finish(3).unwrap();
        Presence::count(&x, &[0, 0, 1, 1], &[0, 1, 2, 3], 2)
    }

    #[test]
    fn scores_by_hand() {
        let p = presence();
        // Term 0 separates the classes perfectly: χ² = N = 4, IG = MI = H(C) = 1 bit.
        assert!((p.score(RankBy::Chi2, 0) - 4.0).abs() < 1e-12);
        assert!((p.score(RankBy::Ig, 0) - 1.0).abs() < 1e-12);
        assert!((p.score(RankBy::Mi, 0) - 1.0).abs() < 1e-12);
        // Terms 1 and 2 say nothing about the class.
        for j in [1, 2] {
            assert_eq!(p.score(RankBy::Chi2, j), 0.0);
            assert!(p.score(RankBy::Ig, j).abs() < 1e-12);
            assert!(p.score(RankBy::Mi, j).abs() < 1e-12);
        }
        assert_eq!(p.score(RankBy::Df, 1), 4.0);
        assert_eq!(p.top(RankBy::Chi2, None, 2, 1)[0].0, 0);
        assert_eq!(p.top(RankBy::Df, None, 1, 1), [(1, 4.0)]);
        assert_eq!(p.top(RankBy::Chi2, None, 5, 3).len(), 1);
    }
}
