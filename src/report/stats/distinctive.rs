//! Terms typical of a class: log-odds ratios with an informative Dirichlet prior.

/// The z-score of term w's log-odds ratio in a class against the rest of the corpus (Monroe,
/// Colaresi and Quinn 2008, "Fightin' Words", eq. 16–22), with the term's corpus count `prior`
/// as its pseudo-count α_w and the corpus's token count as α_0:
///
/// δ = ln((y_i + α_w) / (n_i + α_0 − y_i − α_w)) − ln((y_j + α_w) / (n_j + α_0 − y_j − α_w)),
/// σ² = 1/(y_i + α_w) + 1/(y_j + α_w), z = δ / σ,
///
/// where `y_i`, `n_i` are the term's and all terms' counts in the class, and `y_j`, `n_j` in the
/// rest. The prior shrinks rare terms towards zero, so a word seen twice in one class does not
/// outrank the class's real vocabulary.
pub fn log_odds_z(y_i: u64, n_i: u64, prior: u64, n: u64) -> f64 {
    let (y_i, n_i, a_w, a_0) = (y_i as f64, n_i as f64, prior as f64, n as f64);
    let (y_j, n_j) = (a_w - y_i, a_0 - n_i);
    let odds = |y: f64, total: f64| ((y + a_w) / (total + a_0 - y - a_w)).ln();
    let delta = odds(y_i, n_i) - odds(y_j, n_j);
    let variance = 1.0 / (y_i + a_w) + 1.0 / (y_j + a_w);
    delta / variance.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_formula_by_hand() {
        // A term seen 3 times in a class of 10 tokens and once in the rest (10 tokens):
        // α_w = 4, α_0 = 20; δ = ln(7/23) − ln(5/25), σ² = 1/7 + 1/5.
        let by_hand = ((7.0f64 / 23.0).ln() - (5.0f64 / 25.0).ln()) / (1.0f64 / 7.0 + 0.2).sqrt();
        assert!((log_odds_z(3, 10, 4, 20) - by_hand).abs() < 1e-12);
        // A term spread as the classes are has z = 0; one absent from the class is negative.
        assert!(log_odds_z(2, 10, 4, 20).abs() < 1e-12);
        assert!(log_odds_z(0, 10, 4, 20) < 0.0);
    }
}
