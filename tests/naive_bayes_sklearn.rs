//! bowline's naive Bayes models against scikit-learn's on the same count matrix: identical
//! predictions and log-probabilities within 1e-6. The fixture comes from
//! `tests/fixtures/make_naive_bayes.py`.

mod common;

use bowline::model::{normalize_log_probabilities, NaiveBayes, NbKind, Priors};
use serde_json::Value;

#[test]
fn predictions_and_log_probabilities_match_scikit_learn() {
    let fixture: Value = serde_json::from_str(include_str!("fixtures/naive_bayes.json")).unwrap();
    let (train, test) = (
        common::dense_matrix(&fixture["x_train"]),
        common::dense_matrix(&fixture["x_test"]),
    );
    let labels: Vec<u32> = fixture["y_train"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect();
    let classes = fixture["classes"].as_u64().unwrap() as usize;
    let alpha = fixture["alpha"].as_f64().unwrap();
    for (name, kind) in [
        ("multinomial", NbKind::Multinomial),
        ("complement", NbKind::Complement),
        ("bernoulli", NbKind::Bernoulli),
    ] {
        let mut model =
            NaiveBayes::new(kind, alpha, Priors::Learned, classes, train.cols()).unwrap();
        model.add(&train, &labels);
        let scorer = model.scorer();
        let expected = &fixture["models"][name];
        for (i, row) in test.outer_iterator().enumerate() {
            let mut scores = vec![0.0; classes];
            scorer.scores(row.indices(), row.data(), &mut scores);
            let predicted = (0..classes)
                .max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a)))
                .unwrap();
            assert_eq!(
                predicted as u64,
                expected["predict"][i].as_u64().unwrap(),
                "{name} row {i}"
            );
            normalize_log_probabilities(&mut scores);
            for (c, p) in scores.iter().enumerate() {
                let theirs = expected["log_proba"][i][c].as_f64().unwrap();
                assert!(
                    (p.ln() - theirs).abs() < 1e-6,
                    "{name} row {i} class {c}: {} vs {theirs}",
                    p.ln()
                );
            }
        }
    }
}
