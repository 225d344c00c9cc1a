//! The library's facade, as a Rust program that embeds bowline uses it: fit from pairs, predict,
//! predict in batches, update, save and load, evaluate, cross-validate and learn online, on the
//! bundled corpus.

use std::path::Path;

mod common;

use bowline::classifier::OnlineLearner;
use bowline::corpus::ReadOptions;
use bowline::model::{Decision, Kind};
use bowline::{Reading, Source, TextClassifier};
use common::{corpus_pairs, fixed_smoothing, raw_counts};

#[test]
fn a_classifier_fitted_on_the_corpus_labels_new_sentences() {
    let source = Source::open(Path::new("corpora"), &ReadOptions::default()).unwrap();
    let mut seen = 0;
    let mut reading = Reading::default().on_entry(|_| seen += 1);
    let builder = TextClassifier::builder(Kind::Svm);
    let fitted = builder.fit_source(source, &mut reading).unwrap();
    drop(reading);
    assert_eq!((fitted.documents, seen), (61, 61));
    let model = fitted.classifier;
    assert_eq!(model.labels(), ["computing", "cooking", "space", "sports"]);
    let cases = [
        (
            "The telescope found a new planet beyond the rocket's reach",
            "space",
        ),
        ("Simmer the sauce and season the soup with salt", "cooking"),
    ];
    for (text, label) in cases {
        let prediction = model.predict(text).unwrap();
        assert_eq!(prediction.label, label, "{text}");
        assert_eq!(prediction.ranked.len(), 4);
        assert_eq!(prediction.top(1)[0].0, label);
        let total: f64 = prediction.ranked.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
    }
}

#[test]
fn predict_batch_agrees_with_predict_in_input_order() {
    let pairs = corpus_pairs();
    let model = TextClassifier::builder(Kind::Mnb)
        .fit(pairs.clone())
        .unwrap();
    let texts: Vec<String> = pairs.iter().map(|(_, text)| text.clone()).collect();
    let batch = model.predict_batch(texts.clone()).unwrap();
    assert_eq!(batch.len(), 61);
    for (text, from_batch) in texts.iter().zip(&batch) {
        assert_eq!(&model.predict(text).unwrap(), from_batch, "{text}");
    }
}

#[test]
fn naive_bayes_updated_with_the_rest_equals_training_on_all() {
    let pairs = corpus_pairs();
    let (first, rest): (Vec<_>, Vec<_>) = pairs
        .iter()
        .cloned()
        .enumerate()
        .partition(|(i, _)| i % 3 != 0);
    let strip = |part: Vec<(usize, (String, String))>| -> Vec<(String, String)> {
        part.into_iter().map(|(_, pair)| pair).collect()
    };
    let builder = fixed_smoothing(TextClassifier::builder(Kind::Mnb).vectorizer(raw_counts()));
    let mut updated = builder.clone().fit(strip(first)).unwrap();
    let learned = updated.update(strip(rest)).unwrap();
    assert_eq!(learned.documents, 21);
    let all = builder.fit(pairs).unwrap();
    let (a, b) = (updated.model(), all.model());
    assert_eq!(a.labels, b.labels);
    assert_eq!(a.vectorizer.terms(), b.vectorizer.terms());
    assert_eq!(a.classifier, b.classifier);
    assert_eq!(a.info.docs_per_class, b.info.docs_per_class);
    // Many small updates from one source name it once: the list does not grow with each batch.
    let corpora = updated.model().info.corpora.clone();
    for _ in 0..3 {
        updated.update([("space", "one more orbit")]).unwrap();
    }
    assert_eq!(updated.model().info.corpora, corpora);
}

#[test]
fn a_saved_model_loads_as_it_was() {
    let model = TextClassifier::builder(Kind::Cnb)
        .fit(corpus_pairs())
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cnb.model");
    model.save(&path).unwrap();
    let loaded = TextClassifier::load(&path).unwrap();
    assert_eq!(loaded.model(), model.model());
    let text = "Whisk the eggs with sugar";
    assert_eq!(loaded.predict(text).unwrap(), model.predict(text).unwrap());
}

#[test]
fn evaluation_counts_known_and_unknown_labels() {
    let model = TextClassifier::builder(Kind::Mnb)
        .fit(corpus_pairs())
        .unwrap();
    let mut test = corpus_pairs();
    test.push(("gardening".into(), "plant the tulips in autumn".into()));
    let source = Source::labelled(test);
    let evaluation = model
        .evaluate(source, &mut Reading::default(), &Decision::MostProbable)
        .unwrap();
    assert_eq!(evaluation.report.docs, 61);
    assert_eq!(evaluation.unknown_labels.get("gardening"), Some(&1));
    // Multinomial NB with every term and word pairs fits all 61 training documents.
    let correct = (evaluation.report.accuracy * 61.0).round();
    assert_eq!(correct, 61.0, "{}", evaluation.report.accuracy);
    assert_eq!(evaluation.total_cost, None);
}

#[test]
fn cross_validation_holds_out_every_document_once() {
    let source = Source::labelled(corpus_pairs());
    let builder = TextClassifier::builder(Kind::Svm);
    let report = builder
        .cross_validate(source, &mut Reading::default(), 5, 1)
        .unwrap();
    assert_eq!(report.folds.len(), 5);
    assert_eq!(report.folds.iter().map(|f| f.docs).sum::<u64>(), 61);
    let mean = report.folds.iter().map(|f| f.accuracy).sum::<f64>() / 5.0;
    assert!((report.accuracy.mean - mean).abs() < 1e-12);
}

#[test]
fn online_learning_one_document_at_a_time_equals_training_on_all() {
    let pairs = corpus_pairs();
    let builder = fixed_smoothing(TextClassifier::builder(Kind::Mnb).vectorizer(raw_counts()));
    let analysis = builder.analysis_config().clone();
    let alpha = Kind::Mnb.default_alpha().value();
    let mut learner = OnlineLearner::new(Kind::Mnb, analysis, raw_counts(), alpha).unwrap();
    for (label, text) in &pairs {
        learner.learn(label, text).unwrap();
    }
    let streamed = learner.to_model().unwrap();
    let all = builder.fit(pairs).unwrap();
    assert_eq!(streamed.vectorizer.terms(), all.model().vectorizer.terms());
    assert_eq!(&streamed.classifier, &all.model().classifier);
}

#[test]
fn errors_name_what_is_wrong() {
    let one_class = TextClassifier::builder(Kind::Mnb).fit([("a", "text"), ("a", "more")]);
    let message = one_class.unwrap_err().to_string();
    assert!(message.contains("at least two classes"), "{message}");
    let knn = TextClassifier::builder(Kind::Knn);
    let options = bowline::classifier::SelectOptions {
        greedy: bowline::select::Greedy {
            metric: bowline::select::Metric::Accuracy,
            max_features: 10,
            tol: 0.0,
            patience: 5,
        },
        candidates: 10,
        rank_by: bowline::select::RankBy::Chi2,
        dev: None,
        dev_split: 0.2,
        seed: 1,
        refit: false,
        test: None,
    };
    let source = Source::labelled(corpus_pairs());
    let error = knn
        .select(source, options, &mut Reading::default(), |_, _| {})
        .unwrap_err();
    assert!(error.to_string().contains("k-NN"), "{error}");
}

/// A model written by bowline's format version 3 (before character n-grams), with the
/// predictions that bowline printed for it then (`bowline classify`).
#[test]
fn a_model_of_format_version_3_still_loads_and_predicts_as_it_did() {
    let model = TextClassifier::load("tests/fixtures/model-v3-mnb.bowline").unwrap();
    assert_eq!(model.labels(), ["computing", "cooking", "space", "sports"]);
    let analysis = model.model().vectorizer.analyzer();
    assert_eq!((analysis.char_ngrams, analysis.words), (None, true));
    let then = [
        ("The telescope found a new planet", "space", 0.881346),
        ("Simmer the sauce with salt", "cooking", 0.919106),
        ("the striker scored a goal", "sports", 0.876874),
    ];
    for (text, label, probability) in then {
        let prediction = model.predict(text).unwrap();
        assert_eq!(prediction.label, label);
        assert!(
            (prediction.probability - probability).abs() < 1e-6,
            "{text}"
        );
    }
}

/// Each table of names (which the `bowline` program's flags list) names every value it holds
/// once, parses back what it prints, and, for the values saved in files and JSON, agrees with
/// the name serde writes.
#[test]
fn every_choice_names_each_value_once_as_serde_does() {
    use bowline::analyze::Language;
    use bowline::corpus::InputFormat;
    use bowline::jobs::train::Passes;
    use bowline::model::Loss;
    use bowline::select::{Metric, RankBy};
    use bowline::vectorize::{Idf, Norm, Tf};
    use bowline::Choice;

    fn named_once<T: Choice + std::fmt::Debug>() -> Vec<&'static str> {
        let names: Vec<_> = T::CHOICES.iter().map(|&(name, ..)| name).collect();
        for &(name, help, value) in T::CHOICES {
            assert_eq!((T::named(name), value.name()), (Some(value), name));
            assert!(!help.is_empty() && !help.ends_with('.'), "{name}: {help}");
        }
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        names
    }
    fn as_serde<T: Choice + std::fmt::Debug + serde::Serialize>() {
        named_once::<T>();
        for &(name, _, value) in T::CHOICES {
            assert_eq!(serde_json::to_value(value).unwrap(), name);
        }
    }
    as_serde::<Kind>();
    as_serde::<Language>();
    as_serde::<Tf>();
    as_serde::<Idf>();
    as_serde::<Norm>();
    as_serde::<RankBy>();
    as_serde::<Metric>();
    assert_eq!(named_once::<Loss>(), ["hinge", "squared-hinge"]);
    assert_eq!(named_once::<Passes>(), ["auto", "1", "2"]);
    assert_eq!(named_once::<InputFormat>().len(), 6);
    assert_eq!(Kind::named("SVM"), None);
}
