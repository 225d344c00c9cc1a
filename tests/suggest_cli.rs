//! `bowline suggest`: the pool documents a model is least sure of come first, a random sample
//! depends on its seed alone, and a pool that cannot be read twice is refused.

mod common;

use std::path::Path;

use common::{arg, bowline, fails_with, outcome, write_tree};

/// Two classes with symmetric counts, so that a document with one word of each, or with no known
/// word, is an even call (probability 0.5 each) under uniform priors.
const CORPUS: &str = "space\trocket orbit\nfood\tbread butter\n";
const EXACT: &[&str] = &[
    "--classifier",
    "mnb",
    "--priors",
    "uniform",
    "--alpha",
    "1",
    "--min-df",
    "1",
    "--tf",
    "count",
    "--idf",
    "none",
    "--norm",
    "none",
    "-q",
];

/// A model of `CORPUS` and a pool of two sure documents and two even calls.
fn model_and_pool(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    std::fs::write(dir.join("corpus.tsv"), CORPUS).unwrap();
    let model = dir.join("m.model");
    let corpus = dir.join("corpus.tsv");
    let args = [&["train", arg(&corpus), "-o", arg(&model)], EXACT].concat();
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    let pool = dir.join("pool");
    write_tree(
        &pool,
        &[
            ("a.txt", b"rocket orbit rocket"),
            ("b.txt", b"bread  butter\n bread"),
            ("c.txt", b"rocket bread"),
            ("d.txt", b"nothing known here"),
        ],
    );
    (model, pool)
}

fn suggest(model: &Path, pool: &Path, flags: &[&str]) -> String {
    let args = [&["suggest", arg(model), arg(pool), "-q"], flags].concat();
    let (code, stdout, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    stdout
}

#[test]
fn the_even_calls_come_first_with_their_guess_score_and_text() {
    let dir = tempfile::tempdir().unwrap();
    let (model, pool) = model_and_pool(dir.path());
    for strategy in ["uncertainty", "margin", "entropy", "diverse"] {
        let table = suggest(&model, &pool, &["--n", "2", "--strategy", strategy]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[0], "score\tguess\tprobability\tid\texcerpt",
            "{strategy}"
        );
        let ids: Vec<&str> = lines[1..]
            .iter()
            .map(|l| l.split('\t').nth(3).unwrap())
            .collect();
        assert_eq!(ids.len(), 2, "{strategy}: {table}");
        assert!(
            ids.iter()
                .all(|id| id.ends_with("c.txt") || id.ends_with("d.txt")),
            "{table}"
        );
        assert!(lines[1].contains("\t0.5000\t"), "{strategy}: {table}");
    }
    // Uncertainty scores 1 - 0.5; the earlier of a tie comes first, and the text is quoted.
    let table = suggest(&model, &pool, &["--n", "4"]);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[1].starts_with("0.5000\t"), "{table}");
    assert!(lines[1].ends_with("c.txt\trocket bread"), "{table}");
    let sure: Vec<&str> = lines[3..]
        .iter()
        .map(|l| l.rsplit('\t').next().unwrap())
        .collect();
    assert_eq!(sure.len(), 2);
    assert!(sure.contains(&"bread butter bread"), "{table}");
}

#[test]
fn json_names_the_strategy_and_each_pick() {
    let dir = tempfile::tempdir().unwrap();
    let (model, pool) = model_and_pool(dir.path());
    let json = suggest(
        &model,
        &pool,
        &["--n", "1", "--strategy", "margin", "--json"],
    );
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["schema_version"], 1);
    assert_eq!(value["strategy"], "margin");
    let picks = value["suggestions"].as_array().unwrap();
    assert_eq!(picks.len(), 1);
    let close = |value: &serde_json::Value, to: f64| (value.as_f64().unwrap() - to).abs() < 1e-12;
    assert!(close(&picks[0]["score"], 1.0), "{json}");
    assert!(close(&picks[0]["probability"], 0.5), "{json}");
    assert_eq!(picks[0]["excerpt"], "rocket bread");
}

#[test]
fn a_random_sample_depends_on_the_seed() {
    let dir = tempfile::tempdir().unwrap();
    let (model, pool) = model_and_pool(dir.path());
    let sample = |seed: &str| {
        suggest(
            &model,
            &pool,
            &["--n", "2", "--strategy", "random", "--seed", seed],
        )
    };
    assert_eq!(sample("3"), sample("3"));
    let samples: std::collections::BTreeSet<String> =
        (1..=6).map(|s| sample(&s.to_string())).collect();
    assert!(samples.len() > 1, "{samples:?}");
}

#[test]
fn bad_requests_are_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let (model, pool) = model_and_pool(dir.path());
    fails_with(
        &["suggest", arg(&model), arg(&pool), "--n", "0"],
        "--n must be at least 1",
    );
    fails_with(&["suggest", arg(&model), "-"], "not stdin");
    fails_with(
        &["suggest", arg(&model), arg(&pool), "--strategy", "best"],
        "possible values",
    );
}
