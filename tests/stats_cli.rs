//! `bowline stats` and `bowline index` on a tiny corpus whose every figure is computed by hand
//! (the comments show the arithmetic), and the HTML report in headless Chromium.

mod common;

use std::path::Path;

use common::{arg, bowline, browser, outcome, write_tree};
use serde_json::Value;

/// Two classes; with the default analysis (English stop words, English stemmer):
/// a/1 "The cats run."              3 tokens, kept cats run              -> cat run
/// a/2 "Cats and dogs running fast" 5 tokens, kept cats dogs running fast -> cat dog run fast
/// b/3 "Dogs bark loudly"           3 tokens, kept dogs bark loudly      -> dog bark loud
/// b/4 the same as b/3 (a duplicate within b), b/5 the same as a/1 (a duplicate across
/// classes), b/6 empty.
const TINY: &[(&str, &[u8])] = &[
    ("a/1.txt", b"The cats run."),
    ("a/2.txt", b"Cats and dogs running fast"),
    ("b/3.txt", b"Dogs bark loudly"),
    ("b/4.txt", b"Dogs bark loudly"),
    ("b/5.txt", b"The cats run."),
    ("b/6.txt", b""),
];

/// The analysis the hand counts below assume: the English stop list, stemming, words alone.
const HAND_COUNTED: [&str; 4] = ["--stop-words", "english", "--ngrams", "1"];

fn stats_json(args: &[&str]) -> Value {
    let output = bowline(&[&["stats", "--json"], args].concat(), b"");
    let (code, stdout, stderr) = outcome(&output);
    assert_eq!(code, 0, "{stderr}");
    serde_json::from_str(&stdout).expect("stats --json prints JSON")
}

fn close(value: &Value, expected: f64) {
    let actual = value.as_f64().expect("a number");
    assert!((actual - expected).abs() < 1e-9, "{actual} != {expected}");
}

fn terms(list: &Value) -> Vec<(String, u64)> {
    let list = list.as_array().expect("a term list");
    list.iter()
        .map(|t| {
            (
                t["term"].as_str().unwrap().to_string(),
                t["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn pairs(expected: &[(&str, u64)]) -> Vec<(String, u64)> {
    expected.iter().map(|&(t, c)| (t.to_string(), c)).collect()
}

fn check_tiny(stats: &Value) {
    let t = &stats["totals"];
    let expect = [
        ("documents", 6),
        ("bytes", 13 + 26 + 16 + 16 + 13),
        ("classes", 2),
        ("tokens", 3 + 5 + 3 + 3 + 3),
        ("tokens_after_stop_words", 2 + 4 + 3 + 3 + 2),
        // cats run dogs running fast bark loudly; cat run dog fast bark loud.
        ("distinct_words", 7),
        ("distinct_terms", 6),
        // fast is the only term seen once.
        ("hapax_legomena", 1),
        ("empty", 1),
        ("non_utf8", 0),
        ("binary_skipped", 0),
        ("truncated", 0),
        ("unreadable", 0),
        ("duplicates_within_class", 1),
        ("duplicates_across_classes", 1),
    ];
    for (name, value) in expect {
        assert_eq!(t[name].as_u64(), Some(value), "{name}");
    }
    close(&t["type_token_ratio"], 6.0 / 14.0);

    let (a, b) = (&stats["classes"]["a"], &stats["classes"]["b"]);
    assert_eq!(
        (a["documents"].as_u64(), a["tokens"].as_u64()),
        (Some(2), Some(8))
    );
    assert_eq!(
        (b["documents"].as_u64(), b["tokens"].as_u64()),
        (Some(4), Some(9))
    );
    close(&a["share"], 2.0 / 6.0);
    close(&a["mean_length"], 4.0);
    close(&a["median_length"], 4.0);
    // b's lengths 3 3 3 0.
    close(&b["mean_length"], 2.25);
    close(&b["median_length"], 3.0);

    // Lengths 0 3 3 3 3 5: quartile positions 1.25, 2.5, 3.75 and p95 at 4.75 (3 + 0.75 · 2).
    let l = &stats["lengths"];
    assert_eq!((l["min"].as_u64(), l["max"].as_u64()), (Some(0), Some(5)));
    for (name, value) in [("q1", 3.0), ("median", 3.0), ("q3", 3.0), ("p95", 4.5)] {
        close(&l[name], value);
    }
    close(&l["mean"], 17.0 / 6.0);
    // p95 4.5 -> bins of width 1 from 0 to 5, the last open-ended.
    assert_eq!(
        l["histogram"]["edges"],
        serde_json::json!([0, 1, 2, 3, 4, 5, 6])
    );
    assert_eq!(
        l["histogram"]["counts"],
        serde_json::json!([1, 0, 0, 4, 0, 1])
    );

    // Frequencies 3 3 3 2 2 1 by rank; least squares of ln f on ln r.
    close(&stats["zipf"]["exponent"], 0.496119109171097);
    close(&stats["zipf"]["r_squared"], 0.5822922023407973);
    // Vocabulary after each document: (2, 2) (6, 4) (9, 6) (12, 6) (14, 6) (14, 6).
    close(&stats["heaps"]["k"], 1.3996052026027859);
    close(&stats["heaps"]["beta"], 0.5808959115067915);
    close(&stats["heaps"]["r_squared"], 0.9533014157377957);

    let top = pairs(&[
        ("cat", 3),
        ("dog", 3),
        ("run", 3),
        ("bark", 2),
        ("loud", 2),
        ("fast", 1),
    ]);
    assert_eq!(terms(&stats["top_terms"]), top);
    assert_eq!(
        terms(&a["top_terms"]),
        pairs(&[("cat", 2), ("run", 2), ("dog", 1), ("fast", 1)])
    );
    // Log-odds z against the rest, prior = corpus counts: in a (6 of 14 kept tokens) fast
    // 0.6918, cat and run 0.6044, dog −0.2423 (left out: not typical of a).
    assert_eq!(
        terms(&a["distinctive_terms"]),
        pairs(&[("fast", 1), ("cat", 2), ("run", 2)])
    );
    close(&a["distinctive_terms"][0]["z"], 0.6918158060335294);
    close(&a["distinctive_terms"][1]["z"], 0.6044316961561045);
    assert_eq!(
        terms(&b["distinctive_terms"]),
        pairs(&[("bark", 2), ("loud", 2), ("dog", 2)])
    );
    close(&b["distinctive_terms"][0]["z"], 0.8003774225686293);
    assert_eq!(stats["ngrams"], serde_json::json!([]));
}

#[test]
fn every_figure_of_a_tiny_corpus_matches_the_hand_count() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), TINY);
    check_tiny(&stats_json(
        &[&[arg(dir.path())], &HAND_COUNTED[..]].concat(),
    ));
}

#[test]
fn an_index_gives_the_same_figures_and_replaces_reindexed_ids() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    write_tree(&corpus, TINY);
    let index = dir.path().join("index");
    let run = |args: &[&str]| {
        let (code, _, stderr) = outcome(&bowline(args, b""));
        assert_eq!(code, 0, "{stderr}");
    };
    run(&[
        &["index", arg(&corpus), "--index", arg(&index)],
        &HAND_COUNTED[..],
    ]
    .concat());
    let from_index = stats_json(&["--index", arg(&index)]);
    assert_eq!(
        from_index,
        stats_json(&[&[arg(&corpus)], &HAND_COUNTED[..]].concat())
    );
    check_tiny(&from_index);
    // Appending the same corpus again replaces every document: the figures do not change.
    run(&["index", arg(&corpus), "--index", arg(&index), "--append"]);
    check_tiny(&stats_json(&["--index", arg(&index)]));
    // A second corpus with one new id adds one document.
    let more = dir.path().join("more");
    write_tree(&more, &[("b/7.txt", b"Birds sing")]);
    run(&["index", arg(&more), "--index", arg(&index), "--append"]);
    let grown = stats_json(&["--index", arg(&index)]);
    assert_eq!(grown["totals"]["documents"].as_u64(), Some(7));
    assert_eq!(grown["classes"]["b"]["documents"].as_u64(), Some(5));
}

#[test]
fn ngram_counts_appear_when_ngrams_are_on() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), TINY);
    let stats = stats_json(&[
        arg(dir.path()),
        "--stop-words",
        "english",
        "--ngrams",
        "1..2",
    ]);
    // Bigrams per document: 1 + 3 + 2 + 2 + 1; distinct: cat run, cat dog, dog run, run fast,
    // dog bark, bark loud.
    let expected = serde_json::json!([
        {"n": 1, "tokens": 14, "distinct": 6},
        {"n": 2, "tokens": 9, "distinct": 6}
    ]);
    assert_eq!(stats["ngrams"], expected);
}

#[test]
fn text_report_has_aligned_sections_and_a_bad_file_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), TINY);
    write_tree(dir.path(), &[("b/bin.dat", b"\x00\x01binary")]);
    let (code, stdout, stderr) = outcome(&bowline(&["stats", arg(dir.path())], b""));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("b/bin.dat: skipped, looks binary"),
        "{stderr}"
    );
    for section in [
        "Totals",
        "Classes",
        "Document length",
        "Laws",
        "Most frequent terms",
    ] {
        assert!(stdout.contains(section), "{section} missing:\n{stdout}");
    }
    assert!(
        stdout.contains("\nbinary files skipped                   1\n"),
        "{stdout}"
    );
    assert!(stdout.contains("\na         2  33.3%       8          4.0            4.0\n"));
}

#[test]
fn index_refuses_a_folder_that_is_not_an_index_and_stats_a_missing_index() {
    let dir = tempfile::tempdir().unwrap();
    write_tree(dir.path(), TINY);
    let (code, _, stderr) = outcome(&bowline(
        &[
            "index",
            arg(dir.path()),
            "--index",
            arg(&dir.path().join("a")),
        ],
        b"",
    ));
    assert_eq!(code, 2);
    assert!(stderr.contains("holds no index"), "{stderr}");
    let missing = dir.path().join("none");
    let (code, _, stderr) = outcome(&bowline(&["stats", "--index", arg(&missing)], b""));
    assert_eq!(code, 2);
    assert!(stderr.contains("not a bowline index"), "{stderr}");
}

/// The HTML page, of the tiny corpus and of `corpora/`, opened in headless Chromium (see
/// `common/browser.rs`): every chart is drawn at a non-zero size with its text inside it, tick
/// labels increase along each axis, the Zipf chart's axes are logarithmic with 10ᵏ labels, the
/// header names the corpus, the analysis and the version, and the browser fetches nothing.
/// Skipped with a message when Chromium is missing, except in CI (`.ci/run` installs it).
#[test]
fn html_report_renders_offline_in_chromium() {
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let tiny = dir.path().join("tiny");
    write_tree(&tiny, TINY);
    for corpus in [tiny.as_path(), Path::new("corpora")] {
        let page = dir.path().join("report.html");
        let (code, _, stderr) = outcome(&bowline(
            &["stats", arg(corpus), "--html", arg(&page), "-q"],
            b"",
        ));
        assert_eq!(code, 0, "{stderr}");
        let html = std::fs::read_to_string(&page).unwrap();
        let header = format!("<tr><td>corpus</td><td>{}</td></tr>", corpus.display());
        assert!(html.contains(&header), "{html}");
        assert!(html.contains("<td>analysis</td><td>--stop-words"));
        assert!(html.contains(&format!(
            "<td>bowline</td><td>{}",
            env!("CARGO_PKG_VERSION")
        )));
        let rendered = browser::render(&chromium, dir.path(), &html);
        let titles: Vec<&str> = rendered.charts.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Documents per class",
                "Document length histogram",
                "Term frequency by rank",
                "Vocabulary growth"
            ]
        );
        let zipf = &rendered.charts[2];
        for tick in zipf.x_ticks.iter().chain(&zipf.y_ticks) {
            assert!(tick.starts_with("10"), "{tick} is not a power of ten");
        }
        assert!(zipf.x_ticks.len() >= 2 && zipf.y_ticks.len() >= 2);
        let heaps = &rendered.charts[3];
        assert_eq!(heaps.x_ticks[0], "0", "{heaps:?}");
    }
}

#[test]
fn a_model_trained_from_an_index_equals_one_trained_from_the_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("index");
    let run = |args: &[&str]| {
        let (code, stdout, stderr) = outcome(&bowline(args, b""));
        assert_eq!(code, 0, "{stderr}");
        stdout
    };
    run(&["index", "corpora", "--index", arg(&index)]);
    let (from_index, from_corpus) = (dir.path().join("i.model"), dir.path().join("c.model"));
    // The index analyzes with the default analysis (stemming on); mnb's own default has none.
    let mnb = ["--classifier", "mnb", "-q"];
    run(&[
        &["train", "--index", arg(&index), "-o", arg(&from_index)],
        &mnb[..],
    ]
    .concat());
    let corpus_args = [
        "train",
        "corpora",
        "-o",
        arg(&from_corpus),
        "--stem",
        "english",
    ];
    run(&[&corpus_args[..], &mnb[..]].concat());
    let classify = |model: &Path| run(&["classify", arg(model), "corpora", "-q"]);
    assert_eq!(classify(&from_index), classify(&from_corpus));
    // 61 documents and the README beside the class folders.
    assert_eq!(classify(&from_index).lines().count(), 62);
}
