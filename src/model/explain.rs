//! Explanations: a class's score taken apart into a bias and one contribution per term of the
//! document, so that the bias plus the contributions of all the document's terms is the score,
//! up to rounding (the tests hold them to 1e-6).
//!
//! The score explained is, per kind:
//!
//! - **Linear SVM**: the decision value `w_c · x + b_c` of class `c` against the rest. The bias
//!   is the intercept `b_c`; term `j` of value `x_j` contributes `w_cj · x_j`. A calibrated SVM
//!   ranks by a sigmoid of each decision value; the decision value is what is explained.
//! - **Naive Bayes** (multinomial, complement, Bernoulli): the classifier's score (the log joint
//!   likelihood `log P(c) + log P(d | c)`; for complement NB its normalized complement weights)
//!   less the mean of that score over the classes. Subtracting a quantity shared by every class
//!   changes neither the ranking nor the posterior probabilities, and it makes each term's
//!   contribution a log-likelihood ratio against the average class: positive when the term
//!   speaks for `c`, negative when it speaks against it. Uncentered, every multinomial term
//!   would contribute a negative log-probability and the terms that said least would rank
//!   first. Term `j` contributes `x_j · (w_cj − mean_k w_kj)`, where `w_cj` is what one unit of
//!   the term adds to class `c`'s score (`log θ_cj` for multinomial NB; for Bernoulli NB,
//!   `log p_cj − log(1 − p_cj)`, the change from the term's absence to its presence, with
//!   `x_j` = 1); the bias is the rest of the score, likewise centered: the log prior and, for
//!   Bernoulli NB, the log-probability that every vocabulary term is absent,
//!   `Σ_j log(1 − p_cj)`.
//! - **k-NN**: class `c`'s vote, the summed similarities of the document's neighbours of class
//!   `c`. A neighbour's similarity is a sum of one product per shared term (the query's value
//!   times the neighbour's weight; for BM25 the neighbour's term weight), and each term gets its
//!   share of it: its product over the sum of the products, times the similarity. The bias is 0,
//!   except for a document with no neighbour, whose vote is the class's share of the training
//!   documents: all bias.

/// A class's score taken apart: `bias` plus the sum of `terms`' contributions is `score`.
#[derive(Debug, Clone, PartialEq)]
pub struct Attribution {
    /// The score explained (see the [module](self) documentation for each kind's definition).
    pub score: f64,
    /// The part of the score that no term of the document carries.
    pub bias: f64,
    /// `(column, contribution)` for every term of the document the classifier knows, in
    /// column order.
    pub terms: Vec<(u32, f64)>,
}

impl Attribution {
    /// The `k` terms of largest contribution, largest first (ties go to the lower column), and
    /// the summed contribution of the others.
    pub fn top(&self, k: usize) -> (Vec<(u32, f64)>, f64) {
        let mut ranked = self.terms.clone();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        // A fold from +0, since an empty float sum is −0, which would print as "-0".
        let rest = ranked.iter().skip(k).fold(0.0, |sum, t| sum + t.1);
        ranked.truncate(k);
        (ranked, rest)
    }

    /// The bias plus every contribution: the score, up to rounding.
    pub fn total(&self) -> f64 {
        self.bias + self.terms.iter().map(|t| t.1).sum::<f64>()
    }
}
