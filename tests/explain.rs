//! Explanations are exact: for every classifier, a class's bias plus the contributions of all of
//! a document's terms is the score the classifier ranks the classes by, within 1e-6, and the
//! terms shown are the largest contributions.

mod common;

use std::path::Path;

use bowline::corpus::ReadOptions;
use bowline::model::{Classifier, Kind, KnnParams, Params, Similarity};
use bowline::vectorize::Counted;
use bowline::{Source, TextClassifier};
use common::{bowline, outcome, train_quietly};

/// The bundled corpus's documents as `(label, text)` pairs: every fourth one held out for
/// testing, the rest for training.
fn split_corpus() -> (Vec<(String, String)>, Vec<String>) {
    let source = Source::open(Path::new("corpora"), &ReadOptions::default()).unwrap();
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (i, mut entry) in source.entries.enumerate() {
        bowline::corpus::load_pending(&mut entry, u64::MAX);
        match i % 4 {
            0 => test.push(entry.doc.text),
            _ => train.push((entry.doc.label.unwrap(), entry.doc.text)),
        }
    }
    // A document of words no model knows, whose score is all bias.
    test.push("zzyzx qwertyuiop".into());
    (train, test)
}

/// The score each kind's explanation decomposes, from the classifier's own scores: naive Bayes'
/// less their mean over the classes, the others' as they are.
fn ranking_scores(classifier: &Classifier, counted: &Counted) -> Vec<f64> {
    let mut scores = vec![0.0; classifier_classes(classifier)];
    classifier.scores(&counted.row.indices, &counted.row.values, &mut scores);
    if matches!(classifier.kind(), Kind::Mnb | Kind::Cnb | Kind::Bnb) {
        let mean = scores.iter().sum::<f64>() / scores.len() as f64;
        scores.iter_mut().for_each(|s| *s -= mean);
    }
    scores
}

fn classifier_classes(classifier: &Classifier) -> usize {
    match classifier {
        Classifier::NaiveBayes(nb) => nb.classes(),
        Classifier::Svm(svm) => svm.intercepts().len(),
        Classifier::Knn(knn) => knn.classes(),
        Classifier::Selected(_) => unreachable!("no selection here"),
        Classifier::MultiLabel(multi) => multi.labels(),
        Classifier::KernelSvm(_) => unreachable!("a kernel SVM has no explanation"),
        Classifier::Approximated(_) => unreachable!("an approximated SVM has no explanation"),
    }
}

/// Trains `builder` on the training split and checks every test document's explanation of
/// every class; returns how many explanations had terms.
fn check_exact(name: &str, builder: bowline::Builder) -> usize {
    let (train, test) = split_corpus();
    let model = builder.fit(train).unwrap();
    let classifier = &model.model().classifier;
    let features = model.model().vectorizer.terms().len();
    let mut with_terms = 0;
    for text in &test {
        let counted = model.vectorize(text);
        let scores = ranking_scores(classifier, &counted);
        for (class, &score) in scores.iter().enumerate() {
            let parts = classifier.attribute(&counted.row.indices, &counted.row.values, class);
            let what = format!("{name}, class {class}, {text:.40}");
            assert!((parts.score - score).abs() < 1e-9, "{what}");
            assert!((parts.total() - score).abs() < 1e-6, "{what}");
            // Every known term of the document is there (Bernoulli NB: every present one).
            let known = counted
                .row
                .indices
                .iter()
                .filter(|&&j| (j as usize) < features);
            assert_eq!(parts.terms.len(), known.count(), "{what}");
            with_terms += usize::from(parts.terms.iter().any(|t| t.1 != 0.0));
            check_top(&model, &counted, class, &parts, &what);
        }
    }
    with_terms
}

/// The top 3 of the facade's explanation are the 3 largest contributions, in order, and with
/// the bias and the other terms they add up to the score.
fn check_top(
    model: &TextClassifier,
    counted: &Counted,
    class: usize,
    parts: &bowline::model::Attribution,
    what: &str,
) {
    let explanation = model.explanation(counted, class, 3);
    let mut all: Vec<f64> = parts.terms.iter().map(|t| t.1).collect();
    all.sort_by(|a, b| b.total_cmp(a));
    let shown: Vec<f64> = explanation.terms.iter().map(|t| t.contribution).collect();
    assert_eq!(shown, all[..all.len().min(3)], "{what}");
    let terms = model.model().vectorizer.terms();
    for (term, &(j, contribution)) in explanation.terms.iter().zip(&parts.top(3).0) {
        assert_eq!(
            (term.term.as_str(), term.contribution),
            (&terms[j as usize], contribution)
        );
    }
    let added = explanation.bias + shown.iter().sum::<f64>() + explanation.other_terms;
    assert!((added - explanation.score).abs() < 1e-6, "{what}");
    assert_eq!(explanation.label, model.labels()[class]);
}

#[test]
fn multinomial_nb_explanations_add_up_to_the_centered_log_joint_likelihood() {
    assert!(check_exact("mnb", TextClassifier::builder(Kind::Mnb)) > 0);
}

#[test]
fn complement_nb_explanations_add_up_to_its_centered_score() {
    assert!(check_exact("cnb", TextClassifier::builder(Kind::Cnb)) > 0);
}

#[test]
fn bernoulli_nb_explanations_add_up_with_the_absent_terms_in_the_bias() {
    assert!(check_exact("bnb", TextClassifier::builder(Kind::Bnb)) > 0);
}

#[test]
fn svm_explanations_add_up_to_the_decision_value() {
    assert!(check_exact("svm", TextClassifier::builder(Kind::Svm)) > 0);
    let calibrated = Params {
        calibrate: true,
        ..Params::default()
    };
    let trainer = Kind::Svm.trainer(&calibrated, Default::default()).unwrap();
    let builder = TextClassifier::builder(Kind::Svm).trainer(trainer);
    assert!(check_exact("calibrated svm", builder) > 0);
}

#[test]
fn knn_explanations_add_up_to_the_neighbours_similarities() {
    assert!(check_exact("knn", TextClassifier::builder(Kind::Knn)) > 0);
    let bm25 = Params {
        knn: KnnParams {
            k: 5,
            similarity: Similarity::bm25(),
        },
        ..Params::default()
    };
    let trainer = Kind::Knn.trainer(&bm25, Default::default()).unwrap();
    let builder = TextClassifier::builder(Kind::Knn).trainer(trainer);
    assert!(check_exact("knn bm25", builder) > 0);
}

#[test]
fn a_document_of_unknown_words_is_explained_by_its_bias_alone() {
    let (train, _) = split_corpus();
    for kind in [Kind::Mnb, Kind::Svm, Kind::Knn] {
        let model = TextClassifier::builder(kind).fit(train.clone()).unwrap();
        let explanation = model.explain("zzyzx qwertyuiop", 3).unwrap();
        assert!(explanation.terms.is_empty(), "{kind:?}");
        assert_eq!(explanation.other_terms, 0.0);
        assert!(
            (explanation.bias - explanation.score).abs() < 1e-12,
            "{kind:?}"
        );
    }
}

#[test]
fn explain_names_the_predicted_class_and_its_telling_terms() {
    let (train, _) = split_corpus();
    let model = TextClassifier::builder(Kind::Mnb).fit(train).unwrap();
    let text = "the rocket reached orbit around the moon";
    let explanation = model.explain(text, 3).unwrap();
    assert_eq!(explanation.label, model.predict(text).unwrap().label);
    assert_eq!(explanation.label, "space");
    assert_eq!(explanation.terms.len(), 3);
    assert!(explanation.terms.iter().all(|t| t.contribution > 0.0));
    let terms: Vec<&str> = explanation.terms.iter().map(|t| t.term.as_str()).collect();
    assert!(
        terms.contains(&"orbit") || terms.contains(&"moon"),
        "{terms:?}"
    );
}

#[test]
fn classify_explain_prints_the_top_terms_in_tsv_and_jsonl() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("mnb.model");
    train_quietly("corpora", &model, "mnb");
    let model = common::arg(&model);
    let line = b"the rocket reached orbit around the moon\n";
    let (code, stdout, stderr) = outcome(&bowline(&["classify", model, "--explain", "3"], line));
    assert_eq!(code, 0, "{stderr}");
    let columns: Vec<&str> = stdout.trim_end().split('\t').collect();
    assert_eq!(columns.len(), 4, "{stdout}");
    assert_eq!(&columns[..2], ["1", "space"]);
    assert!(columns[3].starts_with("score "), "{stdout}");
    assert!(columns[3].contains(": bias "), "{stdout}");
    assert!(columns[3].contains(", orbit +"), "{stdout}");
    assert!(columns[3].contains(", other terms "), "{stdout}");
    // The column's parts add up to its score, to its printed precision.
    let figure = |part: &str| -> f64 { part.rsplit(' ').next().unwrap().parse().unwrap() };
    let (score, parts) = columns[3].split_once(": ").unwrap();
    let added: f64 = parts.split(", ").map(figure).sum();
    assert!((added - figure(score)).abs() < 5e-4 * 6.0, "{stdout}");

    let args = ["classify", model, "--explain", "3", "--format", "jsonl"];
    let (code, stdout, stderr) = outcome(&bowline(&args, line));
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(json["schema_version"], 1);
    let explanations = json["explanations"].as_array().unwrap();
    assert_eq!(explanations.len(), 1);
    let explanation = &explanations[0];
    assert_eq!(explanation["label"], "space");
    let terms = explanation["terms"].as_array().unwrap();
    assert_eq!(terms.len(), 3);
    let contributions: Vec<f64> = terms
        .iter()
        .map(|t| t["contribution"].as_f64().unwrap())
        .collect();
    assert!(contributions.windows(2).all(|pair| pair[0] >= pair[1]));
    assert!(terms.iter().any(|t| t["term"] == "orbit"));
    let number = |field: &str| explanation[field].as_f64().unwrap();
    let added = number("bias") + contributions.iter().sum::<f64>() + number("other_terms");
    assert!((added - number("score")).abs() < 1e-6);
    // Without --explain the output is as before.
    let (_, plain, _) = outcome(&bowline(&["classify", model, "--format", "jsonl"], line));
    assert!(!plain.contains("explanations"));
}

#[test]
fn multi_label_explanations_add_up_to_each_labels_score() {
    let (train, test) = split_corpus();
    // A second label on the longer documents, so that label sets differ from classes.
    let sets: Vec<(Vec<String>, String)> = train
        .into_iter()
        .map(|(label, text)| {
            let mut labels = vec![label];
            if text.len() > 200 {
                labels.push("long".into());
            }
            (labels, text)
        })
        .collect();
    for kind in [Kind::Svm, Kind::Mnb, Kind::Cnb, Kind::Bnb] {
        let model = TextClassifier::builder(kind)
            .fit_multi(sets.clone())
            .unwrap();
        let classifier = &model.model().classifier;
        let labels = model.labels().len();
        for text in &test {
            let counted = model.vectorize(text);
            let mut scores = vec![0.0; labels];
            classifier.scores(&counted.row.indices, &counted.row.values, &mut scores);
            for (label, &score) in scores.iter().enumerate() {
                let parts = classifier.attribute(&counted.row.indices, &counted.row.values, label);
                let what = format!("{kind:?}, label {label}, {text:.40}");
                assert!((parts.score - score).abs() < 1e-9, "{what}");
                assert!((parts.total() - score).abs() < 1e-6, "{what}");
            }
        }
    }
}
