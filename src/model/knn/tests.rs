use super::*;
use crate::vectorize::{Idf, MatrixBuilder, Norm, SparseRow, Tf};

/// Rows of (feature, count) pairs over `features` features.
fn matrix(rows: &[&[(u32, f64)]], features: usize) -> Matrix {
    let mut builder = MatrixBuilder::default();
    for row in rows {
        builder.push(&SparseRow {
            indices: row.iter().map(|p| p.0).collect(),
            values: row.iter().map(|p| p.1).collect(),
        });
    }
    builder.finish(features).unwrap()
}

/// Features a, b, c, d. Class 0: "a a b", "a c", "a"; class 1: "b b c", "d".
fn tiny() -> (Matrix, Vec<u32>) {
    let rows: [&[(u32, f64)]; 5] = [
        &[(0, 2.0), (1, 1.0)],
        &[(0, 1.0), (2, 1.0)],
        &[(1, 2.0), (2, 1.0)],
        &[(3, 1.0)],
        &[(0, 1.0)],
    ];
    (matrix(&rows, 4), vec![0, 0, 1, 1, 0])
}

/// Raw counts scaled to unit length: cosine over counts, easy to follow by hand.
fn plain() -> Weighting {
    Weighting {
        tf: Tf::Count,
        idf: Idf::None,
        norm: Norm::L2,
    }
}

fn trained(k: usize, similarity: Similarity, weighting: Weighting) -> Knn {
    let (x, y) = tiny();
    Knn::train(&x, &y, 2, weighting, KnnParams { k, similarity }).unwrap()
}

fn votes(knn: &Knn, indices: &[u32], values: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; knn.classes()];
    knn.scores(indices, values, &mut out);
    out
}

fn close(a: &[f64], b: &[f64], tolerance: f64) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < tolerance)
}

#[test]
fn cosine_neighbours_vote_with_their_similarity() {
    // The query "a b" has cosines 3/√5, 1/√2, 2/√5, 0 and 1 with the five rows; the
    // nearest are rows 0 (class 0), 4 (class 0), 2 (class 1) and 1 (class 0), in that order.
    let (r0, r1, r2, r4) = (3.0 / 5f64.sqrt(), 0.5f64.sqrt(), 2.0 / 5f64.sqrt(), 1.0);
    let query = |k| {
        votes(
            &trained(k, Similarity::Cosine, plain()),
            &[0, 1],
            &[1.0, 1.0],
        )
    };
    assert!(close(&query(1), &[r0, 0.0], 1e-6));
    assert!(close(&query(2), &[r0 + r4, 0.0], 1e-6));
    assert!(close(&query(3), &[r0 + r4, r2], 1e-6));
    // Row 3 shares no term with the query: it never votes, however large k is.
    assert!(close(&query(4), &[r0 + r4 + r1, r2], 1e-6));
    assert!(close(&query(50), &[r0 + r4 + r1, r2], 1e-6));
}

#[test]
fn the_query_scale_does_not_change_the_neighbours_or_the_probabilities() {
    let knn = trained(3, Similarity::Cosine, plain());
    let mut once = votes(&knn, &[0, 1], &[1.0, 1.0]);
    let mut twice = votes(&knn, &[0, 1], &[2.0, 2.0]);
    normalize_votes(&mut once);
    normalize_votes(&mut twice);
    assert!(close(&once, &twice, 1e-9));
}

#[test]
fn probabilities_are_shares_of_the_votes_with_a_floor() {
    let mut p = vec![3.0, 1.0, 0.0];
    normalize_votes(&mut p);
    let floor = PROBABILITY_FLOOR;
    let scale = 1.0 + 3.0 * floor;
    let expected = [
        (0.75 + floor) / scale,
        (0.25 + floor) / scale,
        floor / scale,
    ];
    assert!(close(&p, &expected, 1e-15));
    assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(p[2] > 0.0);
}

#[test]
fn a_query_without_neighbours_gets_the_class_priors() {
    let knn = trained(3, Similarity::Cosine, plain());
    // Three of the five training documents are in class 0.
    assert!(close(&votes(&knn, &[], &[]), &[0.6, 0.4], 1e-12));
    // A column beyond the model's features is a term it never saw.
    assert!(close(&votes(&knn, &[7], &[1.0]), &[0.6, 0.4], 1e-12));
}

#[test]
fn ties_go_to_the_lower_row() {
    let x = matrix(&[&[(0, 1.0)], &[(0, 1.0)]], 1);
    let params = KnnParams {
        k: 1,
        similarity: Similarity::Cosine,
    };
    for labels in [[1u32, 0], [0, 1]] {
        let knn = Knn::train(&x, &labels, 2, plain(), params).unwrap();
        let out = votes(&knn, &[0], &[1.0]);
        let winner = labels[0] as usize;
        assert!(out[winner] > 0.0 && out[1 - winner] == 0.0, "{out:?}");
    }
}

#[test]
fn cosine_applies_the_vectorizer_weighting_with_the_model_document_frequencies() {
    // Sublinear tf and smooth idf over N = 5: a has df 3, b df 2.
    let knn = trained(1, Similarity::Cosine, Weighting::default());
    let idf = |df: f64| (6.0 / (1.0 + df)).ln() + 1.0;
    // Row 0, "a a b": (1 + ln 2) idf(3), idf(2), scaled to unit length.
    let (a, b) = ((1.0 + 2f64.ln()) * idf(3.0), idf(2.0));
    let length = (a * a + b * b).sqrt();
    let out = votes(&knn, &[0, 1], &[0.6, 0.8]);
    assert!(close(&out, &[(0.6 * a + 0.8 * b) / length, 0.0], 1e-6));
}

#[test]
fn bm25_by_hand() {
    let knn = trained(5, Similarity::bm25(), plain());
    // N = 5 documents of lengths 3, 2, 3, 1 and 1: the average length is 2.
    let idf = |df: f64| (1.0 + (5.0 - df + 0.5) / (df + 0.5)).ln();
    let (idf_a, idf_b) = (idf(3.0), idf(2.0));
    let term = |tf: f64, length: f64| tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / 2.0));
    let row0 = idf_a * term(2.0, 3.0) + idf_b * term(1.0, 3.0);
    let row1 = idf_a * term(1.0, 2.0);
    let row2 = idf_b * term(2.0, 3.0);
    let row4 = idf_a * term(1.0, 1.0);
    // The query counts each of its terms once, whatever its weights.
    let out = votes(&knn, &[0, 1], &[5.0, 0.5]);
    assert!(close(&out, &[row0 + row1 + row4, row2], 1e-5), "{out:?}");
}

#[test]
fn updating_equals_training_on_the_union() {
    // First "a c" (class 0) and "d" (class 1), over the vocabulary a, c, d.
    let old = matrix(&[&[(0, 1.0), (1, 1.0)], &[(2, 1.0)]], 3);
    let params = KnnParams {
        k: 3,
        similarity: Similarity::Cosine,
    };
    for similarity in [Similarity::Cosine, Similarity::bm25()] {
        let params = KnnParams {
            similarity,
            ..params
        };
        let weighting = Weighting::default();
        let mut updated = Knn::train(&old, &[0, 1], 2, weighting, params).unwrap();
        // Then "a a b" (0), "b b c" (1) and "a" (a new class, 2): b is a new term, between a and c.
        updated.remap(&[0, 2, 3], 4, 3);
        let new = matrix(
            &[&[(0, 2.0), (1, 1.0)], &[(1, 2.0), (2, 1.0)], &[(0, 1.0)]],
            4,
        );
        updated.add(&new, &[0, 1, 2]).unwrap();
        let union = matrix(
            &[
                &[(0, 1.0), (2, 1.0)],
                &[(3, 1.0)],
                &[(0, 2.0), (1, 1.0)],
                &[(1, 2.0), (2, 1.0)],
                &[(0, 1.0)],
            ],
            4,
        );
        let all = Knn::train(&union, &[0, 1, 0, 1, 2], 3, weighting, params).unwrap();
        assert_eq!(updated, all);
        for (indices, values) in [(&[0u32, 1][..], &[0.6, 0.8][..]), (&[2, 3], &[1.0, 1.0])] {
            let (mut u, mut a) = (
                votes(&updated, indices, values),
                votes(&all, indices, values),
            );
            assert_eq!(u, a);
            normalize_votes(&mut u);
            normalize_votes(&mut a);
            assert_eq!(u, a);
        }
    }
}

#[test]
fn survives_encoding_and_refuses_broken_postings() {
    let knn = trained(2, Similarity::bm25(), Weighting::default());
    let bytes = postcard::to_stdvec(&knn).unwrap();
    let back: Knn = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(back, knn);
    assert_eq!(
        votes(&back, &[0, 2], &[1.0, 1.0]),
        votes(&knn, &[0, 2], &[1.0, 1.0])
    );
    let mut broken = knn.clone();
    broken.stored.rows.to_mut()[0] = 99;
    let bytes = postcard::to_stdvec(&broken).unwrap();
    assert!(postcard::from_bytes::<Knn>(&bytes).is_err());
}

#[test]
fn parameters_are_checked() {
    let (x, y) = tiny();
    let train = |k, similarity| Knn::train(&x, &y, 2, plain(), KnnParams { k, similarity });
    assert!(train(0, Similarity::Cosine).is_err());
    assert!(train(1, Similarity::Bm25 { k1: -1.0, b: 0.5 }).is_err());
    assert!(train(1, Similarity::Bm25 { k1: 1.0, b: 1.5 }).is_err());
    assert!(train(1, Similarity::Bm25 { k1: 0.0, b: 1.0 }).is_ok());
    assert!(Knn::train(&x, &[0, 0, 1, 1, 2], 2, plain(), KnnParams::default()).is_err());
}
