//! Feature hashing (`--hash-bits`) end to end: a hashed model saves, loads and classifies the
//! same; updating and learning a stream into one equal training on all the documents; `vectorize`
//! writes hashed columns a saved vocabulary file reproduces; bad values are clear errors.

mod common;

use bowline::classifier::OnlineLearner;
use bowline::model::Kind;
use bowline::TextClassifier;
use common::{arg, bowline, corpus_pairs, fails_with, fixed_smoothing, outcome, raw_counts};

#[test]
fn a_hashed_model_saves_loads_and_classifies_the_same() {
    let model = TextClassifier::builder(Kind::Svm)
        .hash_bits(16)
        .unwrap()
        .fit(corpus_pairs())
        .unwrap();
    let vectorizer = &model.model().vectorizer;
    let hashing = vectorizer.hashing().unwrap();
    assert_eq!((hashing.bits(), hashing.signed()), (16, true));
    // Arrays hold the columns that occur; smoothing still counts all 2^16.
    assert!(
        vectorizer.n_features() < 1 << 12,
        "{}",
        vectorizer.n_features()
    );
    assert_eq!(vectorizer.space(), 1 << 16);
    assert!(vectorizer.terms().is_empty());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("svm.model");
    model.save(&path).unwrap();
    let loaded = TextClassifier::load(&path).unwrap();
    assert_eq!(loaded.model(), model.model());
    let texts = [
        "the rocket reached orbit",
        "whisk the eggs",
        "a late goal",
        "zzz",
    ];
    assert_eq!(
        loaded.predict_batch(texts).unwrap(),
        model.predict_batch(texts).unwrap()
    );
    // The bundled corpus is separable in 2^16 hashed columns as it is with a vocabulary.
    let pairs = corpus_pairs();
    let right = pairs
        .iter()
        .filter(|(label, text)| loaded.predict(text).unwrap().label == *label)
        .count();
    assert_eq!(right, pairs.len());
    // An explanation names a column by the document's terms in it, when the text is at hand.
    let hashing = loaded.model().vectorizer.hashing().unwrap();
    let (column, _) = hashing.place("orbit");
    let explained = loaded.explain("orbit", 1).unwrap();
    assert_eq!(explained.terms[0].term, format!("#{column}=orbit"));
    let counted = loaded.vectorize("orbit");
    let unnamed = loaded.explanation(&counted, 2, 1);
    assert_eq!(unnamed.terms[0].term, format!("#{column}"));
}

#[test]
fn naive_bayes_counts_hashed_terms_unsigned() {
    let builder = TextClassifier::builder(Kind::Mnb).hash_bits(12).unwrap();
    let hashing = builder.vectorizer_config().hashing.unwrap();
    assert!(!hashing.signed());
    let model = builder.fit(corpus_pairs()).unwrap();
    assert!(!model.model().vectorizer.hashing().unwrap().signed());
}

#[test]
fn updating_a_hashed_model_equals_training_on_both_parts() {
    let pairs = corpus_pairs();
    let builder = || {
        let builder = TextClassifier::builder(Kind::Mnb).vectorizer(raw_counts());
        fixed_smoothing(builder.hash_bits(14).unwrap())
    };
    let (first, second) = pairs.split_at(40);
    let mut updated = builder().fit(first.to_vec()).unwrap();
    updated.update(second.to_vec()).unwrap();
    let all = builder().fit(pairs.clone()).unwrap();
    assert_eq!(updated.model().vectorizer, all.model().vectorizer);
    assert_eq!(updated.model().classifier, all.model().classifier);
}

#[test]
fn learning_a_hashed_stream_equals_training_on_all() {
    let pairs = corpus_pairs();
    let builder = TextClassifier::builder(Kind::Mnb)
        .vectorizer(raw_counts())
        .hash_bits(14)
        .unwrap();
    let analysis = builder.analysis_config().clone();
    let config = builder.vectorizer_config().clone();
    let alpha = Kind::Mnb.default_alpha().value();
    let mut learner = OnlineLearner::new(Kind::Mnb, analysis, config, alpha).unwrap();
    for (label, text) in &pairs {
        learner.learn(label, text).unwrap();
    }
    let streamed = learner.to_model().unwrap();
    let all = builder.fit(pairs).unwrap();
    assert_eq!(streamed.vectorizer, all.model().vectorizer);
    assert_eq!(&streamed.classifier, &all.model().classifier);
}

#[test]
fn learn_and_update_run_on_a_hashed_model() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("stream.model");
    let stream = b"space\tthe rocket reached orbit\nfood\tbake the bread\n";
    let learned = bowline(&["learn", arg(&model), "--hash-bits", "12"], stream);
    assert_eq!(outcome(&learned).0, 0, "{}", outcome(&learned).2);
    let more = b"space\ta comet near the moon\nsports\tthe team won the match\n";
    // The model's own bits may be given again; other bits may not.
    let other = bowline(&["learn", arg(&model), "--hash-bits", "13"], more);
    assert!(
        outcome(&other).2.contains("the model exists"),
        "{}",
        outcome(&other).2
    );
    let again = bowline(&["learn", arg(&model), "--hash-bits", "12"], more);
    assert_eq!(outcome(&again).0, 0, "{}", outcome(&again).2);
    let tsv = dir.path().join("more.tsv");
    std::fs::write(&tsv, "sports\ta goal in the last minute\n").unwrap();
    let updated = bowline(&["update", arg(&model), arg(&tsv)], b"");
    let (code, _, stderr) = outcome(&updated);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("terms hashed to"), "{stderr}");
    let classified = bowline(&["classify", arg(&model)], b"the team scored a goal\n");
    let (_, stdout, _) = outcome(&classified);
    assert!(stdout.starts_with("1\tsports\t"), "{stdout}");
    let inspected = bowline(&["inspect", arg(&model), "--top", "1"], b"");
    let (_, stdout, _) = outcome(&inspected);
    assert!(
        stdout.contains("terms hashed (MurmurHash3) to 2^12 columns, unsigned"),
        "{stdout}"
    );
    let exported = bowline(&["export", arg(&model), "--json"], b"");
    let json: serde_json::Value = serde_json::from_slice(&exported.stdout).unwrap();
    assert_eq!(
        json["hashing"],
        serde_json::json!({"bits": 12, "signed": false})
    );
    assert!(json.get("vocabulary").is_none());
}

#[test]
fn vectorize_writes_hashed_columns_that_a_saved_vocabulary_reproduces() {
    let dir = tempfile::tempdir().unwrap();
    let (svm, vocab, again) = (
        dir.path().join("a.svm"),
        dir.path().join("vocab.json"),
        dir.path().join("b.svm"),
    );
    let mut args: Vec<&str> = "vectorize --hash-bits 8 --min-df 2 corpora -o"
        .split(' ')
        .collect();
    args.extend([arg(&svm), "--vocab", arg(&vocab)]);
    let written = bowline(&args, b"");
    assert_eq!(outcome(&written).0, 0, "{}", outcome(&written).2);
    let rows = std::fs::read_to_string(&svm).unwrap();
    let mut negative = false;
    for line in rows.lines() {
        for pair in line.split(' ').skip(1) {
            let (column, value) = pair.split_once(':').unwrap();
            assert!(
                (1..=256).contains(&column.parse::<u32>().unwrap()),
                "{pair}"
            );
            negative |= value.starts_with('-');
        }
    }
    assert!(negative, "signed hashing gives some negative values");
    let reused = [
        "vectorize",
        "corpora",
        "-o",
        arg(&again),
        "--use-vocab",
        arg(&vocab),
    ];
    assert_eq!(outcome(&bowline(&reused, b"")).0, 0);
    assert_eq!(std::fs::read_to_string(&again).unwrap(), rows);
}

#[test]
fn bad_hash_bits_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    let train = ["train", "corpora", "-o", arg(&model)];
    for bits in ["0", "3", "29", "64"] {
        let args = [&train[..], &["--hash-bits", bits]].concat();
        fails_with(
            &args,
            &format!("--hash-bits must be between 4 and 28, not {bits}"),
        );
    }
    fails_with(
        &[&train[..], &["--hash-bits", "x"]].concat(),
        "invalid value 'x'",
    );
    let with = |extra: &[&'static str]| {
        let mut args = train.to_vec();
        args.extend(["--hash-bits", "16"]);
        args.extend(extra);
        args
    };
    fails_with(
        &with(&["--max-features", "100"]),
        "--max-features cannot be used with --hash-bits",
    );
    fails_with(&with(&["--tune"]), "--tune cannot be used with --hash-bits");
    fails_with(
        &["cv", "corpora", "--hash-bits", "16", "--tune"],
        "--tune cannot be used with --hash-bits",
    );
    fails_with(
        &["learn", arg(&model), "--hash-bits", "2"],
        "--hash-bits must be between",
    );
    assert!(!model.exists());
    // Bernoulli NB's default min-df 2 applies to columns and does not stop hashing.
    let bnb = bowline(&with(&["--classifier", "bnb"]), b"");
    assert_eq!(outcome(&bnb).0, 0, "{}", outcome(&bnb).2);
}

#[test]
fn cross_validation_runs_on_hashed_terms() {
    let (code, stdout, stderr) = outcome(&bowline(
        &[
            "cv",
            "corpora",
            "--hash-bits",
            "18",
            "--folds",
            "3",
            "--classifier",
            "mnb",
        ],
        b"",
    ));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("over 3 folds"), "{stdout}");
}

/// The model `train corpora` writes with `flags` and `--hash-bits 14`, as JSON without the
/// training record (which holds the time written).
fn exported(flags: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    let mut args: Vec<&str> = "train corpora --hash-bits 14 -q -o".split(' ').collect();
    args.push(arg(&model));
    args.extend(flags);
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{flags:?}: {stderr}");
    let exported = bowline(&["export", arg(&model), "--json"], b"");
    let mut json: serde_json::Value = serde_json::from_slice(&exported.stdout).unwrap();
    json.as_object_mut().unwrap().remove("training");
    json
}

#[test]
fn hashed_training_is_the_same_read_twice_or_staged() {
    let once = exported(&["--classifier", "mnb", "--passes", "1"]);
    assert_eq!(exported(&["--classifier", "mnb", "--passes", "2"]), once);
    assert_eq!(exported(&["--staged"]), exported(&[]));
}
