//! Naive Bayes trained in two passes over a corpus on disk (`Builder::fit_twice`) equals the
//! one-pass training of the same corpus, which holds every document's row.

use std::path::Path;

use bowline::classifier::MultiLabelOptions;
use bowline::corpus::ReadOptions;
use bowline::{Kind, Model, Reading, Source, TextClassifier};

fn open(path: &Path) -> impl Fn() -> bowline::Result<Source> + '_ {
    move || Source::open(path, &ReadOptions::default())
}

/// A model's parts apart from its provenance, which records when it was trained.
fn parts(model: &Model) -> impl PartialEq + std::fmt::Debug + '_ {
    (
        &model.vectorizer,
        &model.labels,
        &model.classifier,
        &model.info.docs_per_class,
    )
}

fn both(kind: Kind, path: &Path) -> (TextClassifier, TextClassifier) {
    let options = MultiLabelOptions::default();
    let twice = TextClassifier::builder(kind)
        .fit_twice(open(path), &mut Reading::default(), &options, false)
        .unwrap();
    let once = TextClassifier::builder(kind)
        .fit_labelled(
            open(path)().unwrap(),
            &mut Reading::default(),
            &options,
            false,
        )
        .unwrap();
    (twice.classifier, once.classifier)
}

#[test]
fn every_naive_bayes_equals_its_one_pass_training() {
    for kind in [Kind::Mnb, Kind::Cnb, Kind::Bnb] {
        let (twice, once) = both(kind, Path::new("corpora"));
        assert_eq!(parts(twice.model()), parts(once.model()), "{kind:?}");
        assert_eq!(twice.model().info.docs_per_class.iter().sum::<u64>(), 61);
    }
}

#[test]
fn a_document_with_several_labels_trains_a_multi_label_model_as_one_pass_does() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.jsonl");
    let lines = [
        r#"{"id": "1", "labels": ["a", "b"], "text": "alpha beta"}"#,
        r#"{"id": "2", "label": "a", "text": "alpha gamma"}"#,
        r#"{"id": "3", "label": "b", "text": "beta delta"}"#,
    ];
    std::fs::write(&path, lines.join("\n")).unwrap();
    let options = MultiLabelOptions {
        folds: 0,
        ..MultiLabelOptions::default()
    };
    let twice = TextClassifier::builder(Kind::Mnb)
        .fit_twice(open(&path), &mut Reading::default(), &options, false)
        .unwrap();
    assert!(twice.classifier.is_multi_label());
    let once = TextClassifier::builder(Kind::Mnb)
        .fit_labelled(
            open(&path)().unwrap(),
            &mut Reading::default(),
            &options,
            false,
        )
        .unwrap();
    assert_eq!(
        parts(twice.classifier.model()),
        parts(once.classifier.model())
    );
}

#[test]
fn an_unlabelled_document_is_refused_naming_the_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.jsonl");
    let lines = [
        r#"{"id": "1", "label": "a", "text": "alpha beta"}"#,
        r#"{"id": "2", "text": "alpha gamma"}"#,
    ];
    std::fs::write(&path, lines.join("\n")).unwrap();
    let error = TextClassifier::builder(Kind::Mnb)
        .fit_twice(
            open(&path),
            &mut Reading::default(),
            &MultiLabelOptions::default(),
            false,
        )
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("c.jsonl") && error.contains("needs a label"),
        "{error}"
    );
}

#[test]
#[ignore = "needs ../shared/corpora"]
fn on_20_newsgroups_the_rows_added_a_batch_at_a_time_give_the_same_sums() {
    let train = Path::new("../shared/corpora/20news-bydate/train");
    for kind in [Kind::Mnb, Kind::Cnb, Kind::Bnb] {
        let (twice, once) = both(kind, train);
        assert_eq!(parts(twice.model()), parts(once.model()), "{kind:?}");
        assert_eq!(
            twice.model().info.docs_per_class.iter().sum::<u64>(),
            11_314
        );
    }
}
