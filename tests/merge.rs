//! `bowline merge`: naive Bayes trained on disjoint shards and merged equals training on the
//! union, and what cannot merge exactly is refused with the reason.

mod common;

use std::path::{Path, PathBuf};

use bowline::model::Model;
use bowline::{Kind, TextClassifier};
use common::{arg, bowline, fixed_smoothing, outcome, raw_counts};

/// Integer weights, no pruning and a given smoothing: the settings under which naive Bayes
/// merges exactly (multinomial NB would otherwise choose its smoothing on each shard).
const EXACT: &[&str] = &[
    "--tf", "count", "--idf", "none", "--norm", "none", "--min-df", "1", "--alpha", "0.01",
];

fn run(args: &[&str]) -> String {
    let (code, stdout, stderr) = outcome(&bowline(args, b""));
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

/// Splits the class folders of `corpus` into `n` shard trees under `dir`, document `i` (in
/// sorted order) going to shard `i % n`; every shard has every class folder.
fn shard_folders(corpus: &Path, dir: &Path, n: usize) -> Vec<PathBuf> {
    let shards: Vec<PathBuf> = (0..n).map(|s| dir.join(format!("shard{s}"))).collect();
    let mut files = Vec::new();
    for class in std::fs::read_dir(corpus).unwrap() {
        let class = class.unwrap().path();
        if class.is_dir() {
            for file in std::fs::read_dir(&class).unwrap() {
                files.push(file.unwrap().path());
            }
        }
    }
    files.sort();
    for shard in &shards {
        for class in files.iter().filter_map(|f| f.parent()) {
            std::fs::create_dir_all(shard.join(class.file_name().unwrap())).unwrap();
        }
    }
    for (i, file) in files.iter().enumerate() {
        let relative = file.strip_prefix(corpus).unwrap();
        std::fs::copy(file, shards[i % n].join(relative)).unwrap();
    }
    shards
}

/// The model with its provenance (corpora, date) blanked: what merging may change.
fn without_provenance(path: &Path) -> Model {
    let mut model = Model::load(path).unwrap();
    model.info.corpora.clear();
    model.info.written.clear();
    model
}

/// Trains `kind` with `flags` on each shard and on `corpus`, merges the shards' models, and
/// checks the merged model equals the union's, decoded and byte for byte, apart from
/// provenance.
fn assert_merge_equals_union(corpus: &Path, dir: &Path, shards: &[PathBuf], kind: &str) {
    let mut models = Vec::new();
    for (s, shard) in shards.iter().enumerate() {
        let model = dir.join(format!("{kind}-{s}.model"));
        let mut args = vec![
            "train",
            arg(shard),
            "-o",
            arg(&model),
            "--classifier",
            kind,
            "-q",
        ];
        args.extend(EXACT);
        run(&args);
        models.push(model);
    }
    let union = dir.join(format!("{kind}-union.model"));
    let mut args = vec![
        "train",
        arg(corpus),
        "-o",
        arg(&union),
        "--classifier",
        kind,
        "-q",
    ];
    args.extend(EXACT);
    run(&args);
    let merged = dir.join(format!("{kind}-merged.model"));
    let mut args = vec!["merge"];
    args.extend(models.iter().map(|m| arg(m)));
    args.extend(["-o", arg(&merged), "-q"]);
    run(&args);
    let (ours, theirs) = (without_provenance(&merged), without_provenance(&union));
    assert_eq!(ours, theirs, "{kind}: merged and union models differ");
    assert_eq!(
        ours.to_bytes().unwrap(),
        theirs.to_bytes().unwrap(),
        "{kind}: bytes differ"
    );
    let corpora = Model::load(&merged).unwrap().info.corpora;
    assert_eq!(
        corpora.len(),
        shards.len(),
        "every shard is named in the provenance"
    );
}

#[test]
fn naive_bayes_from_four_shards_merges_into_the_model_of_the_union() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = Path::new("corpora");
    let shards = shard_folders(corpus, dir.path(), 4);
    for kind in ["mnb", "cnb", "bnb"] {
        assert_merge_equals_union(corpus, dir.path(), &shards, kind);
    }
}

/// Trains `kind` on `corpus` quietly with extra `flags` into `model`.
fn train(corpus: &Path, model: &Path, kind: &str, flags: &[&str]) {
    let mut args = vec![
        "train",
        arg(corpus),
        "-o",
        arg(model),
        "--classifier",
        kind,
        "-q",
    ];
    args.extend(flags);
    run(&args);
}

/// `merge` of `models` fails with status 2 and a message containing each of `parts`.
fn refused(models: &[&Path], out: &Path, parts: &[&str]) {
    let mut args = vec!["merge"];
    args.extend(models.iter().map(|m| arg(m)));
    args.extend(["-o", arg(out)]);
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 2, "{stderr}");
    for part in parts {
        assert!(stderr.contains(part), "{part:?} not in {stderr}");
    }
    let overwriting = models.contains(&out);
    assert!(
        overwriting || !out.exists(),
        "nothing is written when merging is refused"
    );
}

#[test]
fn models_that_cannot_merge_exactly_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let shards = shard_folders(Path::new("corpora"), dir.path(), 2);
    let model = |name: &str| dir.path().join(name);
    let out = model("out.model");
    train(&shards[0], &model("a.mnb"), "mnb", EXACT);
    train(&shards[1], &model("b.mnb"), "mnb", EXACT);
    // Default weighting: idf and L2 rows depend on each shard's documents.
    train(&shards[0], &model("a.tfidf"), "mnb", &["--alpha", "0.01"]);
    train(&shards[1], &model("b.tfidf"), "mnb", &["--alpha", "0.01"]);
    refused(
        &[&model("a.tfidf"), &model("b.tfidf")],
        &out,
        &["a.tfidf", "integer weights"],
    );
    refused(
        &[&model("a.mnb"), &model("b.tfidf")],
        &out,
        &["a.mnb", "b.tfidf", "weighting"],
    );
    // Different analysis: the two files are named.
    let mut unstemmed = EXACT.to_vec();
    unstemmed.extend(["--stem", "none"]);
    train(&shards[1], &model("unstemmed.mnb"), "mnb", &unstemmed);
    refused(
        &[&model("a.mnb"), &model("unstemmed.mnb")],
        &out,
        &["a.mnb", "unstemmed.mnb", "analysis"],
    );
    // Different kinds.
    train(&shards[1], &model("b.cnb"), "cnb", EXACT);
    refused(
        &[&model("a.mnb"), &model("b.cnb")],
        &out,
        &["a.mnb is a mnb model and", "b.cnb a cnb model"],
    );
    train(&shards[1], &model("b.svm"), "svm", &[]);
    refused(
        &[&model("a.mnb"), &model("b.svm")],
        &out,
        &["a.mnb is a mnb model and", "b.svm a svm model"],
    );
    // Overlap: one model twice, or two trained on one shard, would count documents twice.
    refused(
        &[&model("a.mnb"), &model("a.mnb")],
        &out,
        &["a.mnb and", "are the same model", "--allow-overlap"],
    );
    // Trained again on the same shard: the same corpus in its provenance, and the very same
    // bytes when both were written within one second.
    train(&shards[0], &model("again.mnb"), "mnb", EXACT);
    refused(
        &[&model("a.mnb"), &model("b.mnb"), &model("again.mnb")],
        &out,
        &[
            "a.mnb and",
            "again.mnb",
            "count documents twice",
            "--allow-overlap",
        ],
    );
    let a = model("a.mnb");
    run(&[
        "merge",
        "-q",
        "-o",
        arg(&out),
        arg(&a),
        arg(&a),
        "--allow-overlap",
    ]);
    assert!(out.exists());
    std::fs::remove_file(&out).unwrap();
    // Pruning: a term below min-df in each shard may pass it in the union.
    let pruned = [&EXACT[..6], &["--min-df", "2", "--alpha", "0.01"]].concat();
    train(&shards[0], &model("a2.mnb"), "mnb", &pruned);
    train(&shards[1], &model("b2.mnb"), "mnb", &pruned);
    refused(
        &[&model("a2.mnb"), &model("b2.mnb")],
        &out,
        &["a2.mnb", "pruning"],
    );
    // k-NN is not merged.
    train(&shards[0], &model("a.knn"), "knn", &[]);
    train(&shards[1], &model("b.knn"), "knn", &[]);
    refused(
        &[&model("a.knn"), &model("b.knn")],
        &out,
        &["knn model cannot be merged"],
    );
    // The output may not overwrite an input.
    refused(
        &[&model("a.mnb"), &model("b.mnb")],
        &model("a.mnb"),
        &["a.mnb"],
    );
}

/// Accuracy of `model` on `corpus`, from `eval --json`.
fn accuracy(model: &Path, corpus: &Path) -> f64 {
    let json: serde_json::Value =
        serde_json::from_str(&run(&["eval", arg(model), arg(corpus), "--json"])).unwrap();
    json["accuracy"].as_f64().unwrap()
}

#[test]
fn svms_from_four_shards_average_into_a_model_close_to_the_union() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = Path::new("corpora");
    let shards = shard_folders(corpus, dir.path(), 4);
    let models: Vec<PathBuf> = (0..4)
        .map(|s| dir.path().join(format!("{s}.svm")))
        .collect();
    for (shard, model) in shards.iter().zip(&models) {
        train(shard, model, "svm", &[]);
    }
    let merged = dir.path().join("merged.svm");
    let mut args = vec!["merge"];
    args.extend(models.iter().map(|m| arg(m)));
    args.extend(["-o", arg(&merged), "-q"]);
    run(&args);
    let union = dir.path().join("union.svm");
    train(corpus, &union, "svm", &[]);
    // On the training documents the union's SVM is perfect; the average of four SVMs, each of
    // which saw a quarter, stays within 5 points of it, where one shard alone falls to 56%.
    let (ours, theirs) = (accuracy(&merged, corpus), accuracy(&union, corpus));
    assert!(
        ours >= theirs - 0.05,
        "merged {ours} against union {theirs}"
    );
    assert!(
        accuracy(&models[0], corpus) < ours,
        "the merged model beats one shard alone"
    );
}

/// The labelled documents of a 20 Newsgroups split, in path order.
fn newsgroups(split: &str) -> Vec<(String, String)> {
    let root = Path::new("../shared/corpora/20news-bydate").join(split);
    let mut files = Vec::new();
    for class in std::fs::read_dir(&root).unwrap() {
        for file in std::fs::read_dir(class.unwrap().path()).unwrap() {
            files.push(file.unwrap().path());
        }
    }
    files.sort();
    let label = |f: &Path| {
        f.parent()
            .and_then(Path::file_name)
            .unwrap()
            .to_string_lossy()
            .into_owned()
    };
    let text = |f: &Path| String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
    files.iter().map(|f| (label(f), text(f))).collect()
}

#[test]
#[ignore = "needs ../shared/corpora"]
fn naive_bayes_on_four_shards_of_20news_merges_into_the_model_of_the_union() {
    let documents = newsgroups("train");
    for kind in [Kind::Mnb, Kind::Cnb, Kind::Bnb] {
        let builder = || fixed_smoothing(TextClassifier::builder(kind).vectorizer(raw_counts()));
        let shards = (0..4).map(|s| {
            let shard = documents.iter().skip(s).step_by(4).cloned();
            (format!("shard {s}"), builder().fit(shard).unwrap())
        });
        let merged = TextClassifier::merge(shards.collect::<Vec<_>>()).unwrap();
        let union = builder().fit(documents.iter().cloned()).unwrap();
        let (mut ours, mut theirs) = (merged.into_model(), union.into_model());
        // The class counts are the union's; the provenance lists each part's corpora in order
        // (each shard was fitted from pairs in memory).
        assert_eq!(
            ours.info.docs_per_class, theirs.info.docs_per_class,
            "{kind:?}"
        );
        let total: u64 = ours.info.docs_per_class.iter().sum();
        assert_eq!(total, documents.len() as u64, "{kind:?}");
        assert_eq!(ours.info.corpora, ["(memory)"; 4], "{kind:?}");
        // What is left to differ is where and when each was made.
        for model in [&mut ours, &mut theirs] {
            model.info.corpora.clear();
            model.info.written.clear();
        }
        assert_eq!(ours, theirs, "{kind:?}");
        assert_eq!(
            ours.to_bytes().unwrap(),
            theirs.to_bytes().unwrap(),
            "{kind:?}"
        );
    }
}
