//! `bowline eval --curves` and `eval --html`: ROC AUC and average precision in text and JSON
//! with the curves' points, which score each kind of model ranks by, and the HTML report in
//! headless Chromium.

mod common;

use std::path::Path;

use common::{arg, bowline, browser, outcome, train_quietly, write_tree};
use serde_json::Value;

/// Documents the bundled corpus's models have not seen, some of them on two topics, so that
/// the figures are neither perfect nor trivial.
const HELD_OUT: &[(&str, &[u8])] = &[
    (
        "computing/1.txt",
        b"the compiler crashed when the program read the file",
    ),
    (
        "computing/2.txt",
        b"install the software update and restart the server",
    ),
    (
        "computing/3.txt",
        b"a database of recipes runs on the kitchen computer",
    ),
    ("cooking/1.txt", b"bake the bread until the crust is golden"),
    ("cooking/2.txt", b"simmer the sauce with garlic and onions"),
    ("cooking/3.txt", b"astronauts eat dried food in orbit"),
    ("space/1.txt", b"the telescope watched a distant galaxy"),
    ("space/2.txt", b"the rocket carried a satellite to orbit"),
    ("space/3.txt", b"the team trained hard before the launch"),
    (
        "sports/1.txt",
        b"the striker scored a goal in the final match",
    ),
    ("sports/2.txt", b"the runner won the race by a second"),
    ("sports/3.txt", b"the players ate pasta before the game"),
];

fn json_of(args: &[&str]) -> Value {
    let (code, stdout, stderr) = outcome(&bowline(args, b""));
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).unwrap()
}

#[test]
fn curves_in_json_have_every_field_and_the_score_of_each_kind() {
    let dir = tempfile::tempdir().unwrap();
    let (mnb, svm) = (dir.path().join("mnb.model"), dir.path().join("svm.model"));
    train_quietly("corpora", &mnb, "mnb");
    train_quietly("corpora", &svm, "svm");
    let json = json_of(&["eval", arg(&mnb), "corpora", "--curves", "--json", "-q"]);
    assert_eq!(json["schema_version"], 1);
    let curves = &json["curves"];
    assert_eq!(curves["score"], "probability");
    // Training documents: every class is ranked first by its own documents.
    assert_eq!(curves["macro_roc_auc"], 1.0);
    assert_eq!(curves["macro_average_precision"], 1.0);
    let per_class = curves["per_class"].as_array().unwrap();
    let labels: Vec<&str> = per_class
        .iter()
        .map(|c| c["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["computing", "cooking", "space", "sports"]);
    for class in per_class {
        let (p, n) = (class["positives"].as_u64(), class["negatives"].as_u64());
        assert_eq!(p.unwrap() + n.unwrap(), 61);
        assert_eq!(
            (&class["roc_auc"], &class["average_precision"]),
            (&1.0.into(), &1.0.into())
        );
        let roc = &class["roc"];
        let points = roc["fpr"].as_array().unwrap().len();
        assert!(points >= 3);
        assert_eq!(roc["tpr"].as_array().unwrap().len(), points);
        assert_eq!(roc["thresholds"].as_array().unwrap().len(), points);
        // The first point calls nothing positive: its threshold is +∞, written null.
        assert_eq!(roc["thresholds"][0], Value::Null);
        let pr = &class["precision_recall"];
        assert_eq!(pr["recall"][0], 0.0);
        assert_eq!(
            pr["precision"].as_array().unwrap().len(),
            pr["recall"].as_array().unwrap().len()
        );
    }
    let reliability = &json["reliability"];
    assert_eq!(reliability["bins"].as_array().unwrap().len(), 10);
    assert_eq!(reliability["documents"], 61);
    // An uncalibrated SVM ranks by decision values and has no reliability to show.
    let json = json_of(&["eval", arg(&svm), "corpora", "--curves", "--json", "-q"]);
    assert_eq!(json["curves"]["score"], "decision_value");
    assert!(json.get("reliability").is_none());
    // Without --curves the JSON is as before.
    let json = json_of(&["eval", arg(&mnb), "corpora", "--json", "-q"]);
    assert!(json.get("curves").is_none() && json.get("reliability").is_none());
}

#[test]
fn curves_in_text_on_held_out_documents() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("mnb.model");
    train_quietly("corpora", &model, "mnb");
    let held_out = dir.path().join("held-out");
    write_tree(&held_out, HELD_OUT);
    let (code, stdout, stderr) = outcome(&bowline(
        &["eval", arg(&model), arg(&held_out), "--curves", "-q"],
        b"",
    ));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("\none class against the rest, ranked by probabilities\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("class      ROC AUC  avg prec.  positives\n"),
        "{stdout}"
    );
    let macro_line = stdout.lines().find(|l| l.starts_with("macro ")).unwrap();
    let figures: Vec<f64> = macro_line
        .split_whitespace()
        .skip(1)
        .map(|f| f.parse().unwrap())
        .collect();
    assert!(figures.iter().all(|&f| f > 0.5 && f <= 1.0), "{macro_line}");
}

/// The page of a naive Bayes model and of an uncalibrated SVM, in headless Chromium: its
/// header, every chart drawn with its text inside it and its ticks in order, nothing fetched.
#[test]
fn html_report_renders_offline_in_chromium() {
    let dir = tempfile::tempdir().unwrap();
    let held_out = dir.path().join("held-out");
    write_tree(&held_out, HELD_OUT);
    let chromium = browser::chromium();
    for (kind, charts) in [("mnb", 5), ("svm", 4)] {
        let model = dir.path().join(format!("{kind}.model"));
        train_quietly("corpora", &model, kind);
        let page = dir.path().join(format!("{kind}.html"));
        let args = [
            "eval",
            arg(&model),
            arg(&held_out),
            "--html",
            arg(&page),
            "-q",
        ];
        let (code, stdout, stderr) = outcome(&bowline(&args, b""));
        assert_eq!(code, 0, "{stderr}");
        // The page adds to the output; it does not change it.
        assert!(!stdout.contains("ROC AUC"), "{stdout}");
        let html = std::fs::read_to_string(&page).unwrap();
        for fact in [
            format!("<td>model</td><td>{}</td>", model.display()),
            format!("<td>corpus</td><td>{}</td>", held_out.display()),
            format!("<td>bowline</td><td>{}", env!("CARGO_PKG_VERSION")),
            "<td>analysis</td><td>--stop-words".to_string(),
            "<td>weighting</td><td>--min-df".to_string(),
            format!("<td>kind</td><td>{kind}"),
        ] {
            assert!(html.contains(&fact), "{fact} missing:\n{html}");
        }
        assert_eq!(html.matches("<svg").count(), charts);
        if kind == "svm" {
            assert!(html.contains("uncalibrated SVM"), "{html}");
        }
        let Some(chromium) = chromium.as_deref() else {
            continue;
        };
        let rendered = browser::render(chromium, dir.path(), &html);
        let titles: Vec<&str> = rendered.charts.iter().map(|c| c.title.as_str()).collect();
        let mut expected = vec![
            "Confusion matrix",
            "Precision, recall and F1",
            "ROC curves (AUC in the legend)",
            "Precision-recall curves (average precision in the legend)",
        ];
        if kind == "mnb" {
            expected.push("Reliability diagram");
        }
        assert_eq!(titles, expected);
        // Rates and probabilities run from 0 to 1 in steps of 0.2.
        let unit = ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"];
        for chart in &rendered.charts[2..] {
            assert_eq!(
                (&chart.x_ticks, &chart.y_ticks),
                (
                    &unit.map(String::from).to_vec(),
                    &unit.map(String::from).to_vec()
                ),
                "{}",
                chart.title
            );
        }
        // Each of the 4 classes has its own curve.
        assert!(rendered.charts[2].data.1 >= 4, "{:?}", rendered.charts[2]);
    }
}

#[test]
fn the_page_is_not_written_over_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    train_quietly("corpora", &model, "mnb");
    let before = std::fs::read(&model).unwrap();
    let (code, _, stderr) = outcome(&bowline(
        &["eval", arg(&model), "corpora", "--html", arg(&model), "-q"],
        b"",
    ));
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(std::fs::read(Path::new(&model)).unwrap(), before);
}

/// A multi-label model's page: its averaged figures, per-label bars and each label's ROC and
/// precision-recall curves with the micro ones, rendered in Chromium; `--curves` in text and
/// JSON, and `classify --explain` explains every label given.
#[test]
fn a_multi_label_model_gets_a_per_label_page_curves_and_explanations() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("tags.jsonl");
    let mut lines = String::new();
    for i in 0..20 {
        for (labels, text) in [
            (r#"["space"]"#, "rocket orbit launch"),
            (r#"["food"]"#, "bread soup oven"),
            (r#"["space", "food"]"#, "astronaut food rocket soup"),
        ] {
            lines += &format!("{{\"labels\": {labels}, \"text\": \"{text} {i}\"}}\n");
        }
    }
    std::fs::write(&corpus, lines).unwrap();
    let model = dir.path().join("tags.model");
    train_quietly(arg(&corpus), &model, "svm");
    // Held-out documents whose words mislead, so that the rankings are not all perfect.
    let held_out = dir.path().join("held-out.jsonl");
    std::fs::write(
        &held_out,
        concat!(
            "{\"labels\": [\"space\"], \"text\": \"rocket launch\"}\n",
            "{\"labels\": [\"space\"], \"text\": \"soup in orbit\"}\n",
            "{\"labels\": [\"food\"], \"text\": \"oven bread\"}\n",
            "{\"labels\": [\"food\"], \"text\": \"rocket soup\"}\n",
            "{\"labels\": [\"space\", \"food\"], \"text\": \"astronaut food\"}\n",
        ),
    )
    .unwrap();
    let page = dir.path().join("tags.html");
    let args = [
        "eval",
        arg(&model),
        arg(&held_out),
        "--html",
        arg(&page),
        "-q",
    ];
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    let html = std::fs::read_to_string(&page).unwrap();
    for fact in [
        "<td>micro-F1</td>",
        "<td>Hamming loss</td>",
        "<h2>Per label</h2>",
        "<td>micro ROC AUC</td>",
        "<td>macro average precision</td>",
        "<th>ROC AUC</th>",
    ] {
        assert!(html.contains(fact), "{fact} missing:\n{html}");
    }
    if let Some(chromium) = browser::chromium() {
        let rendered = browser::render(&chromium, dir.path(), &html);
        let titles: Vec<&str> = rendered.charts.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Precision, recall and F1",
                "ROC curves (AUC in the legend)",
                "Precision-recall curves (average precision in the legend)"
            ]
        );
    }
    let json = json_of(&[
        "eval",
        arg(&model),
        arg(&held_out),
        "--curves",
        "--json",
        "-q",
    ]);
    let curves = &json["curves"];
    assert_eq!(curves["score"], "decision_value");
    let per_label = curves["per_class"].as_array().unwrap();
    let labels: Vec<&str> = per_label
        .iter()
        .map(|l| l["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["food", "space"]);
    let positives: Vec<u64> = per_label
        .iter()
        .map(|l| l["positives"].as_u64().unwrap())
        .collect();
    assert_eq!(positives, [3, 3]);
    // Micro pools the 5 documents × 2 labels: 6 cells with the label, 4 without.
    let micro = &curves["micro"];
    assert_eq!(
        (micro["positives"].as_u64(), micro["negatives"].as_u64()),
        (Some(6), Some(4))
    );
    // The micro figures, computed here from the model's own scores of each held-out document
    // by the textbook formulas: neither the curve nor the ranking comes from `eval`.
    let (auc, ap) = micro_figures(&model, &held_out);
    let given = (
        micro["roc_auc"].as_f64().unwrap(),
        micro["average_precision"].as_f64().unwrap(),
    );
    assert!(
        (given.0 - auc).abs() < 1e-12,
        "ROC AUC {} against {auc}",
        given.0
    );
    assert!(
        (given.1 - ap).abs() < 1e-12,
        "average precision {} against {ap}",
        given.1
    );
    assert!(
        auc < 1.0 && ap < 1.0,
        "the misleading documents rank below some negatives"
    );
    assert!(micro["roc"]["fpr"].as_array().unwrap().len() >= 3);
    let (code, stdout, stderr) = outcome(&bowline(
        &["eval", arg(&model), arg(&held_out), "--curves", "-q"],
        b"",
    ));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("one label against the documents without it, ranked by decision values"),
        "{stdout}"
    );
    let rows: Vec<&str> = stdout
        .lines()
        .map(|l| l.split(' ').next().unwrap_or(""))
        .collect();
    for row in ["food", "space", "macro", "micro"] {
        assert!(rows.contains(&row), "{row} missing:\n{stdout}");
    }
    let args = ["classify", arg(&model), "--explain", "2", "-q"];
    let (code, stdout, stderr) = outcome(&bowline(&args, b"rocket soup\n"));
    assert_eq!(code, 0, "{stderr}");
    let columns: Vec<&str> = stdout.trim_end().split('\t').collect();
    assert_eq!(columns.len(), 4, "{stdout}");
    for label in columns[1].split(',') {
        assert!(columns[3].contains(&format!("{label}: score ")), "{stdout}");
    }
}

/// Micro ROC AUC and average precision over every (document, label) cell of a JSONL file of
/// labelled documents, from the label scores the library gives each text. AUC is the
/// Mann-Whitney statistic (a tie counts one half); average precision is scikit-learn's
/// `average_precision_score`: the sum over distinct thresholds of precision times the recall
/// gained.
fn micro_figures(model: &Path, documents: &Path) -> (f64, f64) {
    let classifier = bowline::TextClassifier::load(model).unwrap();
    let labels = classifier.labels().to_vec();
    let mut cells: Vec<(f64, bool)> = Vec::new();
    for line in std::fs::read_to_string(documents).unwrap().lines() {
        let record: Value = serde_json::from_str(line).unwrap();
        let given: Vec<&str> = (record["labels"].as_array().unwrap().iter())
            .map(|l| l.as_str().unwrap())
            .collect();
        let counted = classifier.vectorize(record["text"].as_str().unwrap());
        let mut scores = vec![0.0; labels.len()];
        classifier.labels_of(&counted.row, &mut scores);
        for (label, score) in labels.iter().zip(scores) {
            cells.push((score, given.contains(&label.as_str())));
        }
    }
    let positives: Vec<f64> = cells.iter().filter(|c| c.1).map(|c| c.0).collect();
    let negatives: Vec<f64> = cells.iter().filter(|c| !c.1).map(|c| c.0).collect();
    let mut wins = 0.0;
    for p in &positives {
        for n in &negatives {
            wins += if p > n {
                1.0
            } else if p == n {
                0.5
            } else {
                0.0
            };
        }
    }
    let auc = wins / (positives.len() * negatives.len()) as f64;
    cells.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (mut ap, mut recall, mut hits, mut i) = (0.0, 0.0, 0usize, 0usize);
    while i < cells.len() {
        // Cells of tied scores pass a threshold together.
        let threshold = cells[i].0;
        while i < cells.len() && cells[i].0 == threshold {
            hits += usize::from(cells[i].1);
            i += 1;
        }
        let now = hits as f64 / positives.len() as f64;
        ap += (now - recall) * hits as f64 / i as f64;
        recall = now;
    }
    (auc, ap)
}
