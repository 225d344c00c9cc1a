use super::*;
use crate::vectorize::MatrixBuilder;
use crate::vectorize::SparseRow;

/// Features a, b, c. Class 0: "a a b", "a c"; class 1: "b b c".
fn tiny() -> (Matrix, Vec<u32>) {
    let rows: [&[(u32, f64)]; 3] = [
        &[(0, 2.0), (1, 1.0)],
        &[(0, 1.0), (2, 1.0)],
        &[(1, 2.0), (2, 1.0)],
    ];
    let mut builder = MatrixBuilder::default();
    for row in rows {
        builder.push(&SparseRow {
            indices: row.iter().map(|p| p.0).collect(),
            values: row.iter().map(|p| p.1).collect(),
        });
    }
    (builder.finish(3).unwrap(), vec![0, 0, 1])
}

fn trained(kind: NbKind) -> NaiveBayes {
    let (x, y) = tiny();
    let mut model = NaiveBayes::new(kind, 1.0, Priors::Learned, 2, 3).unwrap();
    model.add(&x, &y);
    model
}

/// Scores of the test document "a b".
fn scores(model: &NaiveBayes) -> Vec<f64> {
    let mut out = vec![0.0; 2];
    model.scorer().scores(&[0, 1], &[1.0, 1.0], &mut out);
    out
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn multinomial_by_hand() {
    let s = scores(&trained(NbKind::Multinomial));
    // θ0 = (4, 2, 2) / 8, θ1 = (1, 3, 2) / 6; priors 2/3 and 1/3.
    assert!(close(
        s[0],
        (2.0f64 / 3.0).ln() + 0.5f64.ln() + 0.25f64.ln()
    ));
    assert!(close(
        s[1],
        (1.0f64 / 3.0).ln() + (1.0f64 / 6.0).ln() + 0.5f64.ln()
    ));
    let mut p = s.clone();
    normalize_log_probabilities(&mut p);
    assert!(close(p[0], 0.75) && close(p[1], 0.25));
}

#[test]
fn complement_by_hand() {
    let s = scores(&trained(NbKind::Complement));
    // Class 0's complement counts (0, 2, 1) + 1 over 6; class 1's (3, 1, 1) + 1 over 8.
    let logged0 = [1.0f64 / 6.0, 0.5, 1.0 / 3.0].map(f64::ln);
    let logged1 = [0.5f64, 0.25, 0.25].map(f64::ln);
    let (t0, t1) = (logged0.iter().sum::<f64>(), logged1.iter().sum::<f64>());
    assert!(close(s[0], (logged0[0] + logged0[1]) / t0));
    assert!(close(s[1], (logged1[0] + logged1[1]) / t1));
}

#[test]
fn bernoulli_by_hand_counts_absent_terms() {
    let s = scores(&trained(NbKind::Bernoulli));
    // p0 = (3/4, 2/4, 2/4), p1 = (1/3, 2/3, 2/3); the document has a and b, not c.
    let s0 = (2.0f64 / 3.0).ln() + 0.75f64.ln() + 0.5f64.ln() + 0.5f64.ln();
    let s1 = (1.0f64 / 3.0).ln() + (1.0f64 / 3.0).ln() + (2.0f64 / 3.0).ln() + (1.0f64 / 3.0).ln();
    assert!(close(s[0], s0), "{} {s0}", s[0]);
    assert!(close(s[1], s1), "{} {s1}", s[1]);
}

#[test]
fn uniform_and_given_priors() {
    let (x, y) = tiny();
    let mut uniform = NaiveBayes::new(NbKind::Multinomial, 1.0, Priors::Uniform, 2, 3).unwrap();
    uniform.add(&x, &y);
    let s = scores(&uniform);
    assert!(close(s[0], 0.5f64.ln() + 0.5f64.ln() + 0.25f64.ln()));
    let mut given = NaiveBayes::new(
        NbKind::Multinomial,
        1.0,
        Priors::Given(vec![1.0, 3.0]),
        2,
        3,
    )
    .unwrap();
    given.add(&x, &y);
    assert!(close(
        scores(&given)[1],
        0.75f64.ln() + (1.0f64 / 6.0).ln() + 0.5f64.ln()
    ));
    assert!(NaiveBayes::new(NbKind::Multinomial, 0.0, Priors::Learned, 2, 3).is_err());
}

#[test]
fn adding_in_two_parts_equals_adding_at_once() {
    let (x, y) = tiny();
    let whole = trained(NbKind::Multinomial);
    let mut parts = NaiveBayes::new(NbKind::Multinomial, 1.0, Priors::Learned, 2, 3).unwrap();
    parts.add(&x.slice_outer(0..2).to_owned(), &y[..2]);
    parts.add(&x.slice_outer(2..3).to_owned(), &y[2..]);
    assert_eq!(parts, whole);
}

#[test]
fn long_documents_do_not_underflow() {
    let model = trained(NbKind::Multinomial);
    let mut out = vec![0.0; 2];
    model.scorer().scores(&[0, 1], &[1e6, 1e6], &mut out);
    normalize_log_probabilities(&mut out);
    assert!(out.iter().all(|p| p.is_finite()) && close(out[0] + out[1], 1.0));
}
