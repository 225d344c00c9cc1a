//! Term weighting: how counts become matrix values.

use serde::{Deserialize, Serialize};

use crate::choice::Choice;

/// How a term's count in a document becomes its term-frequency factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tf {
    /// The raw count.
    Count,
    /// 1 when present.
    Binary,
    /// Count divided by the document's length in terms (all terms the analyzer produced, whether
    /// in the vocabulary or not).
    Frequency,
    /// 1 + ln(count): dampens repeated words.
    Sublinear,
}

impl Choice for Tf {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        ("count", "The raw count", Tf::Count),
        ("binary", "1 when present", Tf::Binary),
        (
            "frequency",
            "Count divided by the document's length in terms (all terms the analyzer produced, \
             whether in the vocabulary or not)",
            Tf::Frequency,
        ),
        (
            "sublinear",
            "1 + ln(count): dampens repeated words",
            Tf::Sublinear,
        ),
    ];
}

/// The inverse-document-frequency factor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Idf {
    /// No idf factor.
    None,
    /// ln(N / df).
    Plain,
    /// ln((1 + N) / (1 + df)) + 1, as scikit-learn's default; never zero, so a term in every
    /// document still counts.
    Smooth,
}

impl Choice for Idf {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        ("none", "No idf factor", Idf::None),
        ("plain", "ln(N / df)", Idf::Plain),
        (
            "smooth",
            "ln((1 + N) / (1 + df)) + 1, as scikit-learn's default; never zero, so a term in every \
             document still counts",
            Idf::Smooth,
        ),
    ];
}

/// Row normalization.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Norm {
    /// Leave rows as they are.
    None,
    /// Scale each non-empty row to unit Euclidean length.
    L2,
}

impl Choice for Norm {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        ("none", "Leave rows as they are", Norm::None),
        (
            "l2",
            "Scale each non-empty row to unit Euclidean length",
            Norm::L2,
        ),
    ];
}

/// A complete weighting scheme. The default is sublinear TF-IDF with smoothed idf and L2 rows:
/// scikit-learn's `TfidfVectorizer(sublinear_tf=True)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Weighting {
    /// Term-frequency factor; default sublinear.
    pub tf: Tf,
    /// Idf factor; default smooth.
    pub idf: Idf,
    /// Row normalization; default L2.
    pub norm: Norm,
}

impl Default for Weighting {
    fn default() -> Self {
        Weighting {
            tf: Tf::Sublinear,
            idf: Idf::Smooth,
            norm: Norm::L2,
        }
    }
}

impl Weighting {
    /// The idf of a term found in `df` of `n` documents.
    pub fn idf(&self, df: u32, n: u32) -> f64 {
        let (df, n) = (f64::from(df), f64::from(n));
        match self.idf {
            Idf::None => 1.0,
            // A term with df 0 cannot occur in a fitted vocabulary; the guard keeps it finite.
            Idf::Plain => (n / df.max(1.0)).ln(),
            Idf::Smooth => ((1.0 + n) / (1.0 + df)).ln() + 1.0,
        }
    }

    /// The term-frequency factor of a term counted `count` times in a document of `doc_len`
    /// terms.
    pub fn tf(&self, count: f64, doc_len: u32) -> f64 {
        match self.tf {
            Tf::Count => count,
            Tf::Binary => 1.0,
            Tf::Frequency => count / f64::from(doc_len.max(1)),
            Tf::Sublinear => 1.0 + count.ln(),
        }
    }

    /// Weighs one row in place: `values` holds counts on entry and weights on return.
    /// `doc_len` is the document's length in terms; `idf[j]` belongs to `indices[j]`.
    pub(crate) fn weigh(&self, indices: &[u32], values: &mut [f64], doc_len: u32, idf: &[f64]) {
        self.weigh_by(values, doc_len, |k| idf[indices[k] as usize]);
    }

    /// Like [`Weighting::weigh`], with `idf_of(k)` giving the idf of the row's `k`-th term: for
    /// a vocabulary that grows, whose idf is computed when needed.
    pub(crate) fn weigh_by(&self, values: &mut [f64], doc_len: u32, idf_of: impl Fn(usize) -> f64) {
        self.weigh_with(values, |count| self.tf(count, doc_len), idf_of);
    }

    /// Like [`Weighting::weigh_by`], with `tf_of(count)` giving the tf factor of a count: for a
    /// caller that has the factors at hand.
    pub(crate) fn weigh_with(
        &self,
        values: &mut [f64],
        tf_of: impl Fn(f64) -> f64,
        idf_of: impl Fn(usize) -> f64,
    ) {
        // A hashed column's count can be negative (signed hashing): the factor is that of its
        // magnitude, with its sign. A count of a vocabulary's term is positive and unchanged.
        for (k, value) in values.iter_mut().enumerate() {
            let factor = tf_of(value.abs()) * idf_of(k);
            *value = if *value < 0.0 { -factor } else { factor };
        }
        if self.norm == Norm::L2 {
            let length = values.iter().map(|v| v * v).sum::<f64>().sqrt();
            if length > 0.0 {
                values.iter_mut().for_each(|v| *v /= length);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weigh(tf: Tf, idf: Idf, norm: Norm, counts: &[f64], doc_len: u32) -> Vec<f64> {
        let weighting = Weighting { tf, idf, norm };
        // Two terms: df 1 and df 4 of N = 4 documents.
        let idf: Vec<f64> = [1, 4].iter().map(|&df| weighting.idf(df, 4)).collect();
        let mut values = counts.to_vec();
        weighting.weigh(&[0, 1], &mut values, doc_len, &idf);
        values
    }

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn hand_computed_weights() {
        use {Idf as I, Norm as N, Tf as T};
        assert!(close(
            &weigh(T::Count, I::None, N::None, &[3.0, 1.0], 5),
            &[3.0, 1.0]
        ));
        assert!(close(
            &weigh(T::Binary, I::None, N::None, &[3.0, 1.0], 5),
            &[1.0, 1.0]
        ));
        assert!(close(
            &weigh(T::Frequency, I::None, N::None, &[3.0, 1.0], 5),
            &[0.6, 0.2]
        ));
        let sub = 1.0 + 3f64.ln();
        assert!(close(
            &weigh(T::Sublinear, I::None, N::None, &[3.0, 1.0], 5),
            &[sub, 1.0]
        ));
        // Plain idf: ln(4/1) and ln(4/4) = 0.
        let plain = 4f64.ln();
        assert!(close(
            &weigh(T::Count, I::Plain, N::None, &[3.0, 1.0], 5),
            &[3.0 * plain, 0.0]
        ));
        // Smooth idf: ln(5/2) + 1 and ln(5/5) + 1 = 1.
        let smooth = 2.5f64.ln() + 1.0;
        assert!(close(
            &weigh(T::Count, I::Smooth, N::None, &[3.0, 1.0], 5),
            &[3.0 * smooth, 1.0]
        ));
        // L2: (3, 4) becomes (0.6, 0.8).
        assert!(close(
            &weigh(T::Count, I::None, N::L2, &[3.0, 4.0], 7),
            &[0.6, 0.8]
        ));
        let (a, b) = (sub * smooth, 1.0);
        let n = (a * a + b * b).sqrt();
        assert!(close(
            &weigh(T::Sublinear, I::Smooth, N::L2, &[3.0, 1.0], 5),
            &[a / n, b / n]
        ));
    }

    #[test]
    fn a_negative_count_keeps_its_sign() {
        use {Idf as I, Norm as N, Tf as T};
        // Signed hashing's counts: each factor is that of the magnitude, with the count's sign.
        let sub = 1.0 + 3f64.ln();
        assert!(close(
            &weigh(T::Sublinear, I::None, N::None, &[-3.0, 1.0], 4),
            &[-sub, 1.0]
        ));
        assert!(close(
            &weigh(T::Binary, I::None, N::None, &[-2.0, 5.0], 7),
            &[-1.0, 1.0]
        ));
        assert!(close(
            &weigh(T::Count, I::None, N::L2, &[-3.0, 4.0], 7),
            &[-0.6, 0.8]
        ));
    }

    #[test]
    fn an_empty_row_stays_empty_under_l2() {
        let mut values: Vec<f64> = Vec::new();
        Weighting::default().weigh(&[], &mut values, 0, &[]);
        assert!(values.is_empty());
    }
}
