//! ROC AUC and average precision agree with scikit-learn's `roc_auc_score` and
//! `average_precision_score` on the score sets of `fixtures/curves.json` (ties, one score for
//! everyone, decision values, rare positives, a class with no document) and on multi-label
//! indicator tables (per label, macro and micro), to 1e-9. The fixture is made by
//! `fixtures/make_curves.py`.

use bowline::eval::{class_curves, LabelScoreTable, ScoreKind, ScoreTable};
use serde_json::Value;

const TOLERANCE: f64 = 1e-9;

fn fixture() -> Value {
    let text = std::fs::read_to_string("tests/fixtures/curves.json").unwrap();
    serde_json::from_str(&text).unwrap()
}

fn floats(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

fn close(ours: Option<f64>, theirs: &Value, what: &str) {
    match theirs.as_f64() {
        Some(theirs) => {
            let ours = ours.unwrap_or_else(|| panic!("{what}: none, scikit-learn {theirs}"));
            assert!(
                (ours - theirs).abs() < TOLERANCE,
                "{what}: {ours} against scikit-learn's {theirs}"
            );
        }
        None => assert_eq!(ours, None, "{what}"),
    }
}

#[test]
fn binary_figures_equal_scikit_learn() {
    let fixture = fixture();
    let sets = fixture["binary"].as_array().unwrap();
    assert_eq!(sets.len(), 7);
    for set in sets {
        let name = set["name"].as_str().unwrap();
        let scores = floats(&set["scores"]);
        let positive = set["positive"].as_array().unwrap();
        let mut pairs: Vec<(f64, bool)> = scores
            .iter()
            .zip(positive)
            .map(|(&s, p)| (s, p.as_bool().unwrap()))
            .collect();
        let curves = class_curves(name, &mut pairs);
        close(curves.roc_auc, &set["roc_auc"], &format!("{name}: ROC AUC"));
        close(
            curves.average_precision,
            &set["average_precision"],
            &format!("{name}: average precision"),
        );
        // The curves start at the origin and end at (1, 1) (ROC) or full recall (PR).
        let roc = curves.roc.unwrap();
        assert_eq!((roc.fpr[0], roc.tpr[0]), (0.0, 0.0), "{name}");
        assert_eq!((roc.fpr.last(), roc.tpr.last()), (Some(&1.0), Some(&1.0)));
        let pr = curves.precision_recall.unwrap();
        assert_eq!(pr.recall.last(), Some(&1.0), "{name}");
    }
}

#[test]
fn one_against_the_rest_tables_equal_scikit_learn_and_absent_classes_are_left_out() {
    let fixture = fixture();
    for set in fixture["tables"].as_array().unwrap() {
        let name = set["name"].as_str().unwrap();
        let labels: Vec<String> = set["labels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap().to_string())
            .collect();
        let mut table = ScoreTable::new(labels, ScoreKind::Probability);
        let truth = set["truth"].as_array().unwrap();
        for (row, t) in set["scores"].as_array().unwrap().iter().zip(truth) {
            table.push(&floats(row), t.as_u64().unwrap() as u32);
        }
        let curves = table.curves();
        for (c, theirs) in set["per_class"].as_array().unwrap().iter().enumerate() {
            let ours = &curves.per_class[c];
            close(
                ours.roc_auc,
                &theirs["roc_auc"],
                &format!("{name} {c}: AUC"),
            );
            let what = format!("{name} {c}: average precision");
            close(ours.average_precision, &theirs["average_precision"], &what);
        }
        close(curves.macro_roc_auc, &set["macro_roc_auc"], name);
        close(
            curves.macro_average_precision,
            &set["macro_average_precision"],
            name,
        );
        if let Some(theirs) = set.get("sklearn_macro_roc_auc") {
            close(curves.macro_roc_auc, theirs, &format!("{name}: macro AUC"));
            let ap = &set["sklearn_macro_average_precision"];
            close(
                curves.macro_average_precision,
                ap,
                &format!("{name}: macro AP"),
            );
        } else {
            // scikit-learn gives an absent class an average precision of 0; bowline none, so
            // that the class does not lower the macro mean.
            assert_eq!(set["sklearn_absent_class_average_precision"], 0.0);
            let absent = curves.per_class.last().unwrap();
            assert_eq!((absent.positives, absent.roc_auc), (0, None));
        }
    }
}

#[test]
fn multi_label_figures_equal_scikit_learn_per_label_macro_and_micro() {
    let fixture = fixture();
    let sets = fixture["multilabel"].as_array().unwrap();
    assert_eq!(sets.len(), 2);
    for set in sets {
        let name = set["name"].as_str().unwrap();
        let labels: Vec<String> = set["labels"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l.as_str().unwrap().to_string())
            .collect();
        let mut table = LabelScoreTable::new(labels, ScoreKind::DecisionValue);
        let truth = set["truth"].as_array().unwrap();
        for (row, t) in set["scores"].as_array().unwrap().iter().zip(truth) {
            let ids: Vec<usize> = t
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_u64().unwrap() as usize)
                .collect();
            table.push(&floats(row), &ids);
        }
        let curves = table.curves();
        for (c, theirs) in set["per_label"].as_array().unwrap().iter().enumerate() {
            let ours = &curves.per_class[c];
            close(
                ours.roc_auc,
                &theirs["roc_auc"],
                &format!("{name} {c}: AUC"),
            );
            let what = format!("{name} {c}: average precision");
            close(ours.average_precision, &theirs["average_precision"], &what);
        }
        close(curves.macro_roc_auc, &set["macro_roc_auc"], name);
        let what = format!("{name}: macro AP");
        close(
            curves.macro_average_precision,
            &set["macro_average_precision"],
            &what,
        );
        let micro = curves.micro.as_ref().unwrap();
        close(
            micro.roc_auc,
            &set["micro_roc_auc"],
            &format!("{name}: micro AUC"),
        );
        let what = format!("{name}: micro AP");
        close(
            micro.average_precision,
            &set["micro_average_precision"],
            &what,
        );
    }
}
