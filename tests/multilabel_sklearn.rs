//! Multi-label figures against scikit-learn's on the same label sets: micro, macro and samples
//! F1, micro and macro precision and recall, subset accuracy, Hamming loss and per-label
//! figures, within 1e-12. The fixture comes from `tests/fixtures/make_multilabel_metrics.py`.

use bowline::eval::MultiLabelCounts;
use serde_json::Value;

fn strings(value: &Value) -> Vec<String> {
    let items = value.as_array().unwrap().iter();
    items.map(|v| v.as_str().unwrap().to_string()).collect()
}

fn close(got: f64, want: &Value, what: &str) {
    let want = want.as_f64().unwrap();
    assert!(
        (got - want).abs() < 1e-12,
        "{what}: {got} vs scikit-learn's {want}"
    );
}

#[test]
fn multi_label_figures_match_scikit_learn() {
    let fixture: Value =
        serde_json::from_str(include_str!("fixtures/multilabel_metrics.json")).unwrap();
    for case in fixture.as_array().unwrap() {
        let mut counts = MultiLabelCounts::new(strings(&case["labels"]));
        let (truth, predicted) = (&case["truth"], &case["predicted"]);
        for (t, p) in truth
            .as_array()
            .unwrap()
            .iter()
            .zip(predicted.as_array().unwrap())
        {
            let t: Vec<usize> = strings(t).iter().map(|l| counts.label(l)).collect();
            let p: Vec<usize> = strings(p).iter().map(|l| counts.label(l)).collect();
            counts.add(&t, &p);
        }
        let m = counts.metrics();
        close(m.micro_f1, &case["micro_f1"], "micro F1");
        close(m.macro_f1, &case["macro_f1"], "macro F1");
        close(m.samples_f1, &case["samples_f1"], "samples F1");
        close(
            m.micro_precision,
            &case["micro_precision"],
            "micro precision",
        );
        close(m.micro_recall, &case["micro_recall"], "micro recall");
        close(
            m.macro_precision,
            &case["macro_precision"],
            "macro precision",
        );
        close(m.macro_recall, &case["macro_recall"], "macro recall");
        close(
            m.subset_accuracy,
            &case["subset_accuracy"],
            "subset accuracy",
        );
        close(m.hamming_loss, &case["hamming_loss"], "Hamming loss");
        let want = case["per_label"].as_array().unwrap();
        assert_eq!(m.per_label.len(), want.len(), "labels counted");
        // The model's label "g" is in no set, so it counts in no average.
        assert!(m.per_label.iter().all(|l| l.label != "g"));
        for (got, want) in m.per_label.iter().zip(want) {
            assert_eq!(got.label, want["label"].as_str().unwrap());
            close(got.precision, &want["precision"], "precision");
            close(got.recall, &want["recall"], "recall");
            close(got.f1, &want["f1"], "F1");
            assert_eq!(got.support, want["support"].as_u64().unwrap());
        }
    }
}
