//! Multi-label classification end to end: label sets read from JSONL `labels`, TSV with
//! `--label-sep` and the same file in several class folders; `train` learning one binary
//! problem per label, `eval` and `classify` on label sets; naive Bayes updated with label sets
//! equal to training on the union; the library's `fit_multi` and `predict_labels`.

mod common;

use std::path::Path;

use bowline::classifier::MultiLabelOptions;
use bowline::corpus::ReadOptions;
use bowline::model::multilabel::PerLabel;
use bowline::{Kind, Reading, Source, TextClassifier};
use common::{arg, bowline, outcome, raw_counts};

/// Sport, money and weather news; some are about two of them.
const DOCS: &[(&[&str], &str)] = &[
    (&["sport"], "the striker scored a goal in the final match"),
    (&["sport"], "the team won the match after a late goal"),
    (&["sport"], "a penalty goal decided the cup match"),
    (&["sport"], "the coach praised the team after the match"),
    (&["money"], "shares fell as the bank raised interest rates"),
    (&["money"], "the bank reported profits and its shares rose"),
    (&["money"], "interest rates and inflation worry the markets"),
    (&["money"], "investors sold shares as markets fell"),
    (&["weather"], "heavy rain and storms flooded the valley"),
    (&["weather"], "snow and frost are forecast for the weekend"),
    (&["weather"], "a storm brought rain and strong wind"),
    (
        &["sport", "money"],
        "the club's shares rose after the team won the match",
    ),
    (
        &["sport", "money"],
        "investors bought the club and its shares before the match",
    ),
    (
        &["sport", "weather"],
        "rain stopped the match and the team went home",
    ),
    (
        &["money", "weather"],
        "storms and floods hit the markets and insurers' shares fell",
    ),
];

fn jsonl() -> String {
    DOCS.iter()
        .enumerate()
        .map(|(i, (labels, text))| {
            let record = serde_json::json!({"id": format!("d{i}"), "labels": labels, "text": text});
            format!("{record}\n")
        })
        .collect()
}

fn pairs(docs: &[(&[&str], &str)]) -> Vec<(Vec<String>, String)> {
    docs.iter()
        .map(|(labels, text)| {
            (
                labels.iter().map(|l| l.to_string()).collect(),
                text.to_string(),
            )
        })
        .collect()
}

#[test]
fn jsonl_tsv_and_folders_give_the_same_label_sets() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("c.jsonl");
    std::fs::write(&json, "{\"labels\": [\"b\", \"a\", \"b\"], \"text\": \"x\"}\n{\"label\": \"a\", \"text\": \"y\"}\n").unwrap();
    let tsv = dir.path().join("c.tsv");
    std::fs::write(&tsv, "b, a,b\tx\na\ty\n").unwrap();
    let folders = dir.path().join("f");
    common::write_tree(
        &folders,
        &[("b/1.txt", b"x"), ("a/1.txt", b"x"), ("a/2.txt", b"y")],
    );
    let sets = |path: &Path, options: ReadOptions| -> Vec<(String, Vec<String>)> {
        let source = Source::open(path, &options).unwrap();
        let sets = source
            .entries
            .map(|e| (e.doc.id.clone(), e.doc.label_set()));
        sets.collect()
    };
    let read = |sep: Option<&str>, merge| ReadOptions {
        label_sep: sep.map(String::from),
        merge_folders: merge,
        ..ReadOptions::default()
    };
    let ab = vec!["b".to_string(), "a".to_string()];
    let a = vec!["a".to_string()];
    assert_eq!(
        sets(&json, read(None, false)),
        [("1".into(), ab.clone()), ("2".into(), a.clone())]
    );
    assert_eq!(
        sets(&tsv, read(Some(","), false)),
        [("1".into(), ab), ("2".into(), a.clone())]
    );
    // Without a separator the TSV field is one label, as before.
    assert_eq!(sets(&tsv, read(None, false))[0].1, ["b, a,b"]);
    // Folders in name order: a/1.txt then b/1.txt, the same bytes, make one document labelled
    // a and b, named by its first copy.
    let merged = sets(&folders, read(None, true));
    assert_eq!(
        merged,
        [
            ("a/1.txt".into(), vec!["a".into(), "b".into()]),
            ("a/2.txt".into(), a)
        ]
    );
    assert_eq!(sets(&folders, read(None, false)).len(), 3);
}

#[test]
fn train_eval_and_classify_a_multi_label_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("news.jsonl");
    std::fs::write(&corpus, jsonl()).unwrap();
    let model = dir.path().join("m.model");
    for kind in ["svm", "mnb", "bnb"] {
        let train = [
            "train",
            arg(&corpus),
            "-o",
            arg(&model),
            "--classifier",
            kind,
            "--threshold-folds",
            "0",
        ];
        let (code, _, err) = outcome(&bowline(&train, b""));
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("15 documents, 3 classes"), "{err}");
        assert!(
            err.contains("multi-label model, one binary problem per label"),
            "{err}"
        );
        let bytes = std::fs::read(&model).unwrap();
        assert_eq!(
            u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
            bowline::model::FORMAT_VERSION
        );
        let (code, out, err) = outcome(&bowline(
            &["eval", arg(&model), arg(&corpus), "--json"],
            b"",
        ));
        assert_eq!(code, 0, "{err}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(report["multi_label"], true);
        assert_eq!(report["documents"], 15);
        assert_eq!(report["labels"], 3);
        assert!(report["schema_version"].is_u64());
        assert!(report["micro_f1"].as_f64().unwrap() > 0.8, "{kind}: {out}");
        let (code, out, _) = outcome(&bowline(&["eval", arg(&model), arg(&corpus)], b""));
        assert_eq!(code, 0);
        assert!(
            out.contains("subset accuracy") && out.contains("Hamming loss"),
            "{out}"
        );
        let probe = b"the team won the match and the bank shares rose\n";
        let (code, out, err) = outcome(&bowline(&["classify", arg(&model), "-q"], probe));
        assert_eq!(code, 0, "{err}");
        let fields: Vec<&str> = out.trim_end().split('\t').collect();
        assert_eq!(fields[0], "1");
        let labels: Vec<&str> = fields[1].split(',').collect();
        assert_eq!(labels.len(), fields[2].split(',').count());
        assert!(
            labels.contains(&"money") && labels.contains(&"sport"),
            "{kind}: {out}"
        );
        let json = ["classify", arg(&model), "-q", "--format", "jsonl"];
        let (_, out, _) = outcome(&bowline(&json, probe));
        let line: serde_json::Value = serde_json::from_str(out.trim_end()).unwrap();
        let given = line["labels"].as_array().unwrap();
        assert_eq!(given.len(), labels.len());
        assert!(
            given[0]["score"].is_f64() && given[0]["label"].is_string(),
            "{out}"
        );
    }
}

#[test]
fn a_single_label_corpus_trains_a_single_label_model_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("one.tsv");
    let single: String = DOCS[..11]
        .iter()
        .map(|(l, t)| format!("{}\t{t}\n", l[0]))
        .collect();
    std::fs::write(&corpus, single).unwrap();
    let model = dir.path().join("m.model");
    let (code, _, err) = outcome(&bowline(&["train", arg(&corpus), "-o", arg(&model)], b""));
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("multi-label"), "{err}");
    let bytes = std::fs::read(&model).unwrap();
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
        bowline::model::FORMAT_VERSION
    );
    let forced = [
        "train",
        arg(&corpus),
        "-o",
        arg(&model),
        "--multi-label",
        "--threshold-folds",
        "2",
    ];
    let (code, _, err) = outcome(&bowline(&forced, b""));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("best F1 per label over 2 folds"), "{err}");
    let knn = [
        "train",
        arg(&corpus),
        "-o",
        arg(&model),
        "--multi-label",
        "--classifier",
        "knn",
    ];
    let (code, _, err) = outcome(&bowline(&knn, b""));
    assert_ne!(code, 0);
    assert!(err.contains("k-NN has no multi-label form"), "{err}");
}

#[test]
fn naive_bayes_updated_with_label_sets_equals_training_on_the_union() {
    let options = MultiLabelOptions {
        folds: 0,
        ..MultiLabelOptions::default()
    };
    for kind in [Kind::Mnb, Kind::Cnb, Kind::Bnb] {
        let builder = TextClassifier::builder(kind).vectorizer(raw_counts());
        let (first, rest) = DOCS.split_at(6);
        let fit = |docs| {
            let source = Source::multi_labelled(pairs(docs));
            let fitted =
                builder
                    .clone()
                    .fit_multi_source(source, &mut Reading::default(), &options);
            fitted.unwrap().classifier
        };
        let mut updated = fit(first);
        // The first part has no weather label: the update adds it.
        assert_eq!(updated.labels(), ["money", "sport"]);
        let source = Source::multi_labelled(pairs(rest));
        let learned = updated
            .update_source(source, &mut Reading::default())
            .unwrap();
        assert_eq!(learned.documents, 9);
        let all = fit(DOCS);
        let (a, b) = (updated.model(), all.model());
        // Labels come in byte order when trained at once, in order of appearance when added.
        assert_eq!(a.labels, ["money", "sport", "weather"]);
        assert_eq!(a.labels, b.labels);
        assert_eq!(a.vectorizer.terms(), b.vectorizer.terms());
        let nb = |m: &bowline::Model| match &m.classifier.multi_label().unwrap().scorer {
            PerLabel::NaiveBayes(nb) => nb.as_ref().clone(),
            PerLabel::Svm(_) => panic!("naive Bayes expected"),
        };
        assert_eq!(nb(a).counts(), nb(b).counts(), "{kind:?}");
        let probe = "rain at the match";
        let (given, expected) = (updated.predict_labels(probe), all.predict_labels(probe));
        assert_eq!(given.unwrap(), expected.unwrap(), "{kind:?}");
        assert_eq!(a.info.docs_per_class, [7, 7, 5]);
        assert_eq!(a.info.docs_per_class, b.info.docs_per_class);
    }
}

#[test]
fn the_library_fits_and_predicts_label_sets_and_a_saved_model_loads_equal() {
    let model = TextClassifier::builder(Kind::Svm)
        .fit_multi(pairs(DOCS))
        .unwrap();
    assert!(model.is_multi_label());
    let given = model
        .predict_labels("the club's shares and the match")
        .unwrap();
    let names: Vec<&str> = given.iter().map(|g| g.label.as_str()).collect();
    assert!(
        names.contains(&"sport") && names.contains(&"money"),
        "{given:?}"
    );
    assert!(given.windows(2).all(|w| w[0].score >= w[1].score));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.model");
    model.save(&path).unwrap();
    let loaded = TextClassifier::load(&path).unwrap();
    assert_eq!(loaded.model(), model.model());
    // A single-label model still gives its one class.
    let single: Vec<(&str, &str)> = DOCS[..11].iter().map(|(l, t)| (l[0], *t)).collect();
    let one = TextClassifier::builder(Kind::Mnb).fit(single).unwrap();
    assert!(!one.is_multi_label());
    assert_eq!(one.predict_labels("rain and snow").unwrap().len(), 1);
}

#[test]
fn update_learns_label_sets_from_a_tsv_and_decision_flags_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tsv = |docs: &[(&[&str], &str)]| -> String {
        docs.iter()
            .map(|(labels, text)| format!("{}\t{text}\n", labels.join(",")))
            .collect()
    };
    let (first, rest) = (dir.path().join("a.tsv"), dir.path().join("b.tsv"));
    std::fs::write(&first, tsv(&DOCS[..6])).unwrap();
    std::fs::write(&rest, tsv(&DOCS[6..])).unwrap();
    let model = dir.path().join("m.model");
    let train = [
        "train",
        arg(&first),
        "-o",
        arg(&model),
        "--label-sep",
        ",",
        "--multi-label",
        "--classifier",
        "mnb",
        "--threshold-folds",
        "0",
    ];
    let (code, _, err) = outcome(&bowline(&train, b""));
    assert_eq!(code, 0, "{err}");
    let update = ["update", arg(&model), arg(&rest), "--label-sep", ","];
    let (code, _, err) = outcome(&bowline(&update, b""));
    assert_eq!(code, 0, "{err}");
    let updated = TextClassifier::load(&model).unwrap();
    assert_eq!(updated.labels(), ["money", "sport", "weather"]);
    assert_eq!(updated.model().info.docs_per_class, [7, 7, 5]);
    for command in ["eval", "classify"] {
        let flags = [command, arg(&model), arg(&rest), "--threshold", "0.5"];
        let (code, _, err) = outcome(&bowline(&flags, b""));
        assert_ne!(code, 0);
        assert!(err.contains("per-label thresholds"), "{err}");
    }
    let tune = [
        "train",
        arg(&first),
        "-o",
        arg(&model),
        "--multi-label",
        "--tune",
    ];
    let (code, _, err) = outcome(&bowline(&tune, b""));
    assert_ne!(code, 0);
    assert!(
        err.contains("--tune searches single-label settings"),
        "{err}"
    );
}

/// A multi-label model of format version 5, written by this bowline from [`DOCS`] (as JSONL,
/// `train --threshold-folds 2`), loads and gives the labels and scores it gave then.
#[test]
fn a_committed_version_5_model_loads_and_predicts_as_it_did() {
    let path = Path::new("tests/fixtures/model-v5-multilabel-svm.bowline");
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 5);
    let model = TextClassifier::load(path).unwrap();
    assert!(model.is_multi_label());
    let given = model
        .predict_labels("the team won the match and the bank shares rose")
        .unwrap();
    let shown: Vec<(&str, String)> = given
        .iter()
        .map(|g| (g.label.as_str(), format!("{:.6}", g.score)))
        .collect();
    let want = [
        ("sport", "0.405535".to_string()),
        ("money", "0.235238".to_string()),
    ];
    assert_eq!(shown, want);
    let weather = model.predict_labels("rain and snow this weekend").unwrap();
    assert_eq!(weather.len(), 1);
    assert_eq!(weather[0].label, "weather");
}

#[test]
fn an_svm_updated_with_label_sets_learns_a_new_label() {
    let options = MultiLabelOptions {
        folds: 0,
        ..MultiLabelOptions::default()
    };
    let without_weather: Vec<_> = DOCS
        .iter()
        .filter(|(labels, _)| !labels.contains(&"weather"))
        .copied()
        .collect();
    let with_weather: Vec<_> = DOCS
        .iter()
        .filter(|(labels, _)| labels.contains(&"weather"))
        .copied()
        .collect();
    let source = Source::multi_labelled(pairs(&without_weather));
    let builder = TextClassifier::builder(Kind::Svm);
    let fitted = builder
        .clone()
        .fit_multi_source(source, &mut Reading::default(), &options);
    let mut model = fitted.unwrap().classifier;
    assert_eq!(model.labels(), ["money", "sport"]);
    let source = Source::multi_labelled(pairs(&with_weather));
    model
        .update_source(source, &mut Reading::default())
        .unwrap();
    assert_eq!(model.labels(), ["money", "sport", "weather"]);
    let given = model
        .predict_labels("heavy rain and snow and a storm")
        .unwrap();
    assert_eq!(given[0].label, "weather", "{given:?}");
    let many = MultiLabelOptions {
        folds: 40,
        ..MultiLabelOptions::default()
    };
    let source = Source::multi_labelled(pairs(DOCS));
    let error = builder.fit_multi_source(source, &mut Reading::default(), &many);
    assert!(error
        .unwrap_err()
        .to_string()
        .contains("40 threshold folds"));
}

#[test]
fn learn_continues_a_multi_label_naive_bayes_model_as_training_on_all_would() {
    let dir = tempfile::tempdir().unwrap();
    let exact = [
        "--tf", "count", "--idf", "none", "--norm", "none", "--min-df", "1",
    ];
    let to_jsonl = |docs: &[(&[&str], &str)]| -> String {
        let line = |(labels, text): &(&[&str], &str)| {
            format!("{}\n", serde_json::json!({"labels": labels, "text": text}))
        };
        docs.iter().map(line).collect()
    };
    let (first, all) = (dir.path().join("first.jsonl"), dir.path().join("all.jsonl"));
    std::fs::write(&first, to_jsonl(&DOCS[..6])).unwrap();
    std::fs::write(&all, to_jsonl(DOCS)).unwrap();
    let (learned, trained) = (dir.path().join("l.model"), dir.path().join("t.model"));
    for (corpus, model) in [(&first, &learned), (&all, &trained)] {
        let train = [
            &["train", arg(corpus), "-o", arg(model), "--multi-label"][..],
            &["--classifier", "mnb", "--threshold-folds", "0", "-q"],
            &exact,
        ]
        .concat();
        let (code, _, err) = outcome(&bowline(&train, b""));
        assert_eq!(code, 0, "{err}");
    }
    let rest = to_jsonl(&DOCS[6..]);
    let learn = ["learn", arg(&learned), "--input", "jsonl", "-q"];
    let (code, _, err) = outcome(&bowline(&learn, rest.as_bytes()));
    assert_eq!(code, 0, "{err}");
    let (a, b) = (
        TextClassifier::load(&learned).unwrap(),
        TextClassifier::load(&trained).unwrap(),
    );
    assert!(a.is_multi_label());
    assert_eq!(a.labels(), b.labels());
    assert_eq!(a.model().info.docs_per_class, [7, 7, 5]);
    assert_eq!(a.model().info.docs_per_class, b.model().info.docs_per_class);
    for probe in [
        "the team won the match and the bank shares rose",
        "rain and snow",
    ] {
        let (ours, theirs) = (
            a.predict_labels(probe).unwrap(),
            b.predict_labels(probe).unwrap(),
        );
        assert_eq!(ours.len(), theirs.len(), "{ours:?} vs {theirs:?}");
        for (x, y) in ours.iter().zip(&theirs) {
            assert_eq!(x.label, y.label);
            assert!((x.score - y.score).abs() < 1e-9, "{ours:?} vs {theirs:?}");
        }
    }
    // A single-label model cannot learn a document with several labels.
    let single = dir.path().join("s.model");
    let one: String = DOCS[..11]
        .iter()
        .map(|(l, t)| format!("{}\t{t}\n", l[0]))
        .collect();
    let tsv = dir.path().join("one.tsv");
    std::fs::write(&tsv, one).unwrap();
    let train = [
        &[
            "train",
            arg(&tsv),
            "-o",
            arg(&single),
            "--classifier",
            "mnb",
            "-q",
        ][..],
        &exact,
    ]
    .concat();
    assert_eq!(outcome(&bowline(&train, b"")).0, 0);
    let learn = ["learn", arg(&single), "--input", "jsonl", "-q"];
    let (code, _, err) = outcome(&bowline(&learn, rest.as_bytes()));
    assert_ne!(code, 0);
    assert!(err.contains("needs a multi-label model"), "{err}");
}

/// `learn --multi-label` starts a multi-label naive Bayes model from a stream: the same model
/// as `train --multi-label --threshold-folds 0` on the same documents, for each event model,
/// with `--min-labels` kept. Without the flag a new model refuses a document with several
/// labels, and an existing single-label model refuses the flag.
#[test]
fn learn_starts_a_multi_label_model_as_training_on_the_same_documents() {
    let dir = tempfile::tempdir().unwrap();
    let exact = ["--tf", "count", "--idf", "none", "--norm", "none"];
    let corpus = dir.path().join("all.jsonl");
    std::fs::write(&corpus, jsonl()).unwrap();
    for kind in ["mnb", "cnb", "bnb"] {
        let (learned, trained) = (dir.path().join("l.model"), dir.path().join("t.model"));
        let _ = std::fs::remove_file(&learned);
        let train = [
            &["train", arg(&corpus), "-o", arg(&trained), "--multi-label"][..],
            &[
                "--classifier",
                kind,
                "--threshold-folds",
                "0",
                "--min-labels",
                "2",
            ],
            &["--min-df", "1", "-q"],
            &exact,
        ]
        .concat();
        let (code, _, err) = outcome(&bowline(&train, b""));
        assert_eq!(code, 0, "{err}");
        let learn = [
            &["learn", arg(&learned), "--multi-label", "--min-labels", "2"][..],
            &["--classifier", kind, "--input", "jsonl", "-q"],
            &exact,
        ]
        .concat();
        let (code, _, err) = outcome(&bowline(&learn, jsonl().as_bytes()));
        assert_eq!(code, 0, "{err}");
        let (a, b) = (
            TextClassifier::load(&learned).unwrap(),
            TextClassifier::load(&trained).unwrap(),
        );
        assert!(a.is_multi_label(), "{kind}");
        let decision = |m: &TextClassifier| {
            let multi = m.model().classifier.multi_label().unwrap();
            (multi.decision.thresholds.clone(), multi.decision.min_labels)
        };
        assert_eq!(decision(&a), (vec![0.0; 3], 2), "{kind}");
        assert_eq!(decision(&a), decision(&b), "{kind}");
        // Labels come in order of appearance when learned, in byte order when trained.
        let mut labels = a.labels().to_vec();
        labels.sort();
        assert_eq!(labels, b.labels(), "{kind}");
        for probe in [
            "the team won the match and the bank shares rose",
            "rain and snow",
        ] {
            let (ours, theirs) = (
                a.predict_labels(probe).unwrap(),
                b.predict_labels(probe).unwrap(),
            );
            assert_eq!(ours.len(), theirs.len(), "{kind}: {ours:?} vs {theirs:?}");
            for (x, y) in ours.iter().zip(&theirs) {
                assert_eq!(x.label, y.label, "{kind}");
                assert!(
                    (x.score - y.score).abs() < 1e-9,
                    "{kind}: {ours:?} vs {theirs:?}"
                );
            }
        }
    }
    let fresh = dir.path().join("fresh.model");
    let learn = ["learn", arg(&fresh), "--input", "jsonl", "-q"];
    let (code, _, err) = outcome(&bowline(&learn, jsonl().as_bytes()));
    assert_ne!(code, 0);
    assert!(
        err.contains("start one with `learn --multi-label`"),
        "{err}"
    );
    let single = dir.path().join("single.model");
    let learn = ["learn", arg(&single), "-q"];
    assert_eq!(outcome(&bowline(&learn, b"sport\tthe match\n")).0, 0);
    let learn = ["learn", arg(&single), "--multi-label", "-q"];
    let (code, _, err) = outcome(&bowline(&learn, b"sport\tthe match\n"));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("its classifier, analysis and weighting are fixed"),
        "{err}"
    );
}

/// An index keeps every label of a document: a multi-label model trained from it equals one
/// trained from the JSONL file it was made from.
#[test]
fn an_index_keeps_every_label_of_a_document() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("all.jsonl");
    std::fs::write(&corpus, jsonl()).unwrap();
    let index = dir.path().join("all.idx");
    let (code, _, err) = outcome(&bowline(
        &["index", arg(&corpus), "--index", arg(&index), "-q"],
        b"",
    ));
    assert_eq!(code, 0, "{err}");
    let (from_index, from_file) = (dir.path().join("i.model"), dir.path().join("f.model"));
    for (input, model) in [(&index, &from_index), (&corpus, &from_file)] {
        let train = [
            "train",
            arg(input),
            "-o",
            arg(model),
            "--classifier",
            "mnb",
            "--threshold-folds",
            "0",
            "-q",
        ];
        let (code, _, err) = outcome(&bowline(&train, b""));
        assert_eq!(code, 0, "{err}");
    }
    let (a, b) = (
        TextClassifier::load(&from_index).unwrap(),
        TextClassifier::load(&from_file).unwrap(),
    );
    assert!(a.is_multi_label());
    assert_eq!(a.labels(), b.labels());
    assert_eq!(a.model().info.docs_per_class, b.model().info.docs_per_class);
    assert_eq!(a.model().classifier, b.model().classifier);
}
