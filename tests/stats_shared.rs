//! `bowline stats` and `bowline index` on 20 Newsgroups (needs ../shared/corpora).

mod common;

use std::path::Path;

use common::{arg, bowline, outcome};
use serde_json::Value;

const TRAIN: &str = "../shared/corpora/20news-bydate/train";
const TEST: &str = "../shared/corpora/20news-bydate/test";

fn stats(args: &[&str]) -> Value {
    let (code, stdout, stderr) = outcome(&bowline(&[&["stats", "--json"], args].concat(), b""));
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).expect("JSON")
}

#[test]
#[ignore = "needs ../shared/corpora"]
fn stats_from_the_index_equal_stats_from_the_corpus_on_20news_train() {
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("index");
    let (code, _, stderr) = outcome(&bowline(&["index", TRAIN, "--index", arg(&index)], b""));
    assert_eq!(code, 0, "{stderr}");
    let from_corpus = stats(&[TRAIN]);
    assert_eq!(stats(&["--index", arg(&index)]), from_corpus);
    let totals = &from_corpus["totals"];
    assert_eq!(totals["documents"].as_u64(), Some(11_314));
    assert_eq!(totals["classes"].as_u64(), Some(20));
    assert_eq!(totals["non_utf8"].as_u64(), Some(44));
    // Text follows Zipf's law with an exponent a little above 1, and vocabulary grows as a
    // power of the text read.
    let zipf = &from_corpus["zipf"];
    assert!(
        (1.0..1.5).contains(&zipf["exponent"].as_f64().unwrap()),
        "{zipf}"
    );
    let beta = from_corpus["heaps"]["beta"].as_f64().unwrap();
    assert!((0.5..0.9).contains(&beta), "{beta}");
    let space = &from_corpus["classes"]["sci.space"]["distinctive_terms"];
    let top: Vec<&str> = (0..3).map(|i| space[i]["term"].as_str().unwrap()).collect();
    assert_eq!(top, ["space", "orbit", "launch"]);
}

#[test]
#[ignore = "needs ../shared/corpora"]
fn train_and_test_together_merge_classes_by_name() {
    assert!(Path::new(TEST).is_dir());
    let both = stats(&[TRAIN, TEST]);
    assert_eq!(both["totals"]["documents"].as_u64(), Some(18_846));
    assert_eq!(both["totals"]["classes"].as_u64(), Some(20));
    assert_eq!(both["totals"]["non_utf8"].as_u64(), Some(73));
    assert_eq!(
        both["classes"]["sci.space"]["documents"].as_u64(),
        Some(593 + 394)
    );
}
