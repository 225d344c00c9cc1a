//! Feature hashing against scikit-learn's `HashingVectorizer(analyzer=<the terms>, norm=None)`:
//! for each list of terms of the fixture (made by `fixtures/make_hashing.py`), signed
//! (`alternate_sign=True`) and unsigned, bowline's row has the same columns and values, whether
//! counted alone or fitted as a training matrix; and each term's hash is `murmurhash3_32`'s.

use bowline::analyze::{Analyzer, AnalyzerConfig, StopWords, Terms};
use bowline::vectorize::{
    matrix_row, murmurhash3_32, Counted, DfBound, Fitter, HashedCounter, Hashing, Idf, Norm, Tf,
    VectorizerConfig, Weighting,
};

fn fixture() -> Vec<serde_json::Value> {
    let fixture: serde_json::Value =
        serde_json::from_str(include_str!("fixtures/hashing.json")).unwrap();
    fixture["cases"].as_array().unwrap().clone()
}

fn strings(value: &serde_json::Value) -> Vec<&str> {
    let list = value.as_array().unwrap().iter();
    list.map(|v| v.as_str().unwrap()).collect()
}

fn terms_of(case: &serde_json::Value) -> Terms {
    let mut terms = Terms::new();
    strings(&case["terms"])
        .into_iter()
        .for_each(|t| terms.push(t));
    terms
}

/// The fixture's expected row: columns and values.
fn expected(row: &serde_json::Value) -> (Vec<u32>, Vec<f64>) {
    let columns = row["columns"].as_array().unwrap().iter();
    let values = row["values"].as_array().unwrap().iter();
    (
        columns.map(|c| c.as_u64().unwrap() as u32).collect(),
        values.map(|v| v.as_f64().unwrap()).collect(),
    )
}

fn hashing_of(row: &serde_json::Value) -> Hashing {
    let bits = row["bits"].as_u64().unwrap() as u32;
    Hashing::new(bits, row["signed"].as_bool().unwrap()).unwrap()
}

#[test]
fn the_terms_are_those_bowline_forms() {
    let analyzer = Analyzer::new(AnalyzerConfig {
        stop_words: StopWords::None,
        stemmer: None,
        ngram_min: 1,
        ngram_max: 2,
        ..AnalyzerConfig::default()
    })
    .unwrap();
    let mut terms = Terms::new();
    for case in fixture().iter().filter(|c| c["text"].is_string()) {
        let text = case["text"].as_str().unwrap();
        analyzer.worker().analyze(text, &mut terms);
        let mut ours: Vec<&str> = terms.iter().collect();
        ours.sort_unstable();
        assert_eq!(ours, strings(&case["terms"]), "{text}");
    }
}

#[test]
fn hashes_equal_scikit_learns_murmurhash3_32() {
    for case in fixture() {
        let hashes = case["hashes"].as_array().unwrap().iter();
        for (term, hash) in strings(&case["terms"]).into_iter().zip(hashes) {
            assert_eq!(
                i64::from(murmurhash3_32(term.as_bytes())),
                hash.as_i64().unwrap()
            );
        }
    }
}

#[test]
fn rows_equal_scikit_learns_hashing_vectorizer() {
    let mut counter = HashedCounter::default();
    let mut counted = Counted::default();
    let mut checked = 0;
    for case in fixture() {
        let terms = terms_of(&case);
        for row in case["rows"].as_array().unwrap() {
            counter.count(hashing_of(row), &terms, Some, &mut counted);
            let (columns, values) = expected(row);
            assert_eq!(counted.row.indices, columns, "{row}");
            assert_eq!(counted.row.values, values, "{row}");
            checked += 1;
        }
    }
    assert_eq!(checked, 5 * 8);
}

#[test]
fn a_fitted_training_matrix_equals_scikit_learns_rows() {
    let cases = fixture();
    let settings = cases[0]["rows"].as_array().unwrap().clone();
    for (k, setting) in settings.iter().enumerate() {
        let config = VectorizerConfig {
            min_df: DfBound::Count(1),
            weighting: Weighting {
                tf: Tf::Count,
                idf: Idf::None,
                norm: Norm::None,
            },
            hashing: Some(hashing_of(setting)),
            ..VectorizerConfig::default()
        };
        let mut fitter = Fitter::new(config).unwrap();
        cases.iter().for_each(|case| fitter.add(&terms_of(case)));
        let (vectorizer, matrix) = fitter.finish(AnalyzerConfig::default()).unwrap();
        assert!(vectorizer.terms().is_empty());
        assert_eq!(vectorizer.space(), hashing_of(setting).columns());
        // The matrix's columns are the hashed columns that occur, in ascending order.
        let hashed = vectorizer.hashed_columns();
        for (i, case) in cases.iter().enumerate() {
            let (columns, values) = expected(&case["rows"][k]);
            let (indices, ours) = matrix_row(&matrix, i);
            let indices: Vec<u32> = indices.iter().map(|&j| hashed[j as usize]).collect();
            assert_eq!(
                (&indices[..], ours),
                (&columns[..], &values[..]),
                "{setting}"
            );
        }
    }
}
