//! bowline's character n-grams against scikit-learn's `analyzer='char_wb'`: the same n-grams, in
//! the same order, for each text of the fixture (made by `fixtures/make_char_wb.py`).

use bowline::analyze::{Analyzer, AnalyzerConfig, Language, StopWords, Terms};

#[test]
fn char_ngrams_equal_scikit_learns_char_wb() {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/char_wb.json")).unwrap();
    let cases = fixture["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 36);
    let mut terms = Terms::new();
    for case in cases {
        let range = case["range"].as_array().unwrap();
        let bound = |i: usize| range[i].as_u64().unwrap() as usize;
        let analyzer = Analyzer::new(AnalyzerConfig {
            char_ngrams: Some((bound(0), bound(1))),
            words: false,
            ..AnalyzerConfig::default()
        })
        .unwrap();
        let text = case["text"].as_str().unwrap();
        analyzer.worker().analyze(text, &mut terms);
        let ours: Vec<&str> = terms.iter().collect();
        let theirs: Vec<&str> = case["grams"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g.as_str().unwrap())
            .collect();
        assert_eq!(ours, theirs, "{text:?} {range:?}");
    }
}

#[test]
fn char_ngrams_can_stand_beside_words() {
    let analyzer = Analyzer::new(AnalyzerConfig {
        char_ngrams: Some((3, 3)),
        stop_words: StopWords::Builtin(Language::English),
        stemmer: None,
        ngram_max: 1,
        ..AnalyzerConfig::default()
    })
    .unwrap();
    let mut terms = Terms::new();
    analyzer.worker().analyze("The cats", &mut terms);
    let all: Vec<&str> = terms.iter().collect();
    assert_eq!(
        all,
        ["cats", " th", "the", "he ", " ca", "cat", "ats", "ts "]
    );
}
