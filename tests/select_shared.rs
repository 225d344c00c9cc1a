//! Greedy forward selection on 20 Newsgroups (`../shared/corpora`, run by `.ci/run`).

mod common;

use common::{arg, bowline, outcome};

#[test]
#[ignore = "needs ../shared/corpora"]
fn news_selection_comes_within_a_point_of_all_features_with_at_most_1000() {
    let dir = tempfile::tempdir().unwrap();
    let (model, report) = (dir.path().join("m.model"), dir.path().join("r.json"));
    let args = [
        "select",
        "../shared/corpora/20news-bydate/train",
        "-o",
        arg(&model),
        "--classifier",
        "mnb",
        "--candidates",
        "20000",
        "--max-features",
        "1000",
        "--report",
        arg(&report),
        "-q",
    ];
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    let selection: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let (selected, dev, all) = (
        selection["selected"].as_u64().unwrap(),
        selection["selected_dev"].as_f64().unwrap(),
        selection["all_features"].as_f64().unwrap(),
    );
    eprintln!("selected {selected} features: dev {dev:.4}, all features {all:.4}");
    assert!((1..=1000).contains(&selected), "{selected} features");
    assert!(
        dev >= all - 0.01,
        "dev {dev} against {all} with every feature"
    );
    // The curve the report gives is the model's: its last kept step is the dev figure.
    let kept = &selection["steps"][selected as usize - 1]["metric"];
    assert!((kept.as_f64().unwrap() - dev).abs() < 1e-9);
}
