use super::*;
use crate::analyze::{AnalyzerConfig, Terms};

fn terms(words: &str) -> Terms {
    words.split_whitespace().collect()
}

fn fit(config: VectorizerConfig, docs: &[&str]) -> (FittedVectorizer, Matrix) {
    let mut fitter = Fitter::new(config).unwrap();
    for doc in docs {
        fitter.add(&terms(doc));
    }
    fitter.finish(AnalyzerConfig::default()).unwrap()
}

fn dense(matrix: &Matrix) -> Vec<Vec<f64>> {
    let mut rows = vec![vec![0.0; matrix.cols()]; matrix.rows()];
    for (value, (r, c)) in matrix.iter() {
        rows[r as usize][c as usize] = *value;
    }
    rows
}

const DOCS: [&str; 3] = ["b a b", "c a", "a a a d"];

#[test]
fn vocabulary_is_sorted_with_exact_counts_and_df() {
    let (vectorizer, matrix) = fit(counting_config(), &DOCS);
    assert_eq!(*vectorizer.terms(), ["a", "b", "c", "d"]);
    assert_eq!(vectorizer.df(), [3, 1, 1, 1]);
    assert_eq!(vectorizer.n_docs(), 3);
    assert_eq!(
        dense(&matrix),
        [
            [1.0, 2.0, 0.0, 0.0],
            [1.0, 0.0, 1.0, 0.0],
            [3.0, 0.0, 0.0, 1.0]
        ]
    );
}

#[test]
fn tfidf_matches_hand_computation() {
    let (vectorizer, matrix) = fit(VectorizerConfig::default(), &DOCS);
    // Smooth idf: a: ln(4/4)+1 = 1; b, c, d: ln(4/2)+1.
    let rare = 2f64.ln() + 1.0;
    assert!((vectorizer.idf()[0] - 1.0).abs() < 1e-12);
    assert!((vectorizer.idf()[1] - rare).abs() < 1e-12);
    // Row 0: a once (tf 1), b twice (tf 1 + ln 2), then L2.
    let (a, b) = (1.0, (1.0 + 2f64.ln()) * rare);
    let norm = (a * a + b * b).sqrt();
    let row = &dense(&matrix)[0];
    assert!((row[0] - a / norm).abs() < 1e-12 && (row[1] - b / norm).abs() < 1e-12);
}

#[test]
fn df_bounds_and_max_features_prune() {
    let config = VectorizerConfig {
        max_df: DfBound::Fraction(0.5),
        ..counting_config()
    };
    let (vectorizer, matrix) = fit(config, &DOCS);
    assert_eq!(*vectorizer.terms(), ["b", "c", "d"]);
    assert_eq!(matrix.nnz(), 3);
    let config = VectorizerConfig {
        min_df: DfBound::Count(2),
        ..counting_config()
    };
    assert_eq!(*fit(config, &DOCS).0.terms(), ["a"]);
    // Total counts: a 6, b 2, c 1, d 1: the top two are a and b.
    let config = VectorizerConfig {
        max_features: Some(2),
        ..counting_config()
    };
    assert_eq!(*fit(config, &DOCS).0.terms(), ["a", "b"]);
    // A tie (c and d, count 1 each) is broken by term.
    let config = VectorizerConfig {
        max_features: Some(3),
        ..counting_config()
    };
    assert_eq!(*fit(config, &DOCS).0.terms(), ["a", "b", "c"]);
}

#[test]
fn transform_uses_the_fitted_vocabulary_and_counts_unknown_terms() {
    let (vectorizer, matrix) = fit(counting_config(), &DOCS);
    let counted = vectorizer.transform(&terms("d zebra a d yak"));
    assert_eq!((counted.oov, counted.length), (2, 5));
    assert_eq!(counted.row.indices, [0, 3]);
    assert_eq!(counted.row.values, [1.0, 2.0]);
    // Transforming the training documents reproduces the training matrix.
    for (doc, expected) in DOCS.iter().zip(matrix.outer_iterator()) {
        let row = vectorizer.transform(&terms(doc)).row;
        assert_eq!(
            (row.indices.as_slice(), row.values.as_slice()),
            (expected.indices(), expected.data())
        );
    }
}

#[test]
fn frequency_tf_divides_by_document_length() {
    let config = VectorizerConfig {
        weighting: Weighting {
            tf: Tf::Frequency,
            ..counting_config().weighting
        },
        max_df: DfBound::Fraction(0.5),
        ..counting_config()
    };
    // "a" is pruned but still counts in the length: row 0 is b: 2/3.
    let (_, matrix) = fit(config, &DOCS);
    assert!((dense(&matrix)[0][0] - 2.0 / 3.0).abs() < 1e-12);
}

#[test]
fn vocabulary_file_round_trips_and_rejects_garbage() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vocab.json");
    let (vectorizer, _) = fit(VectorizerConfig::default(), &DOCS);
    let file = VocabularyFile {
        labels: vec!["x".into()],
        vectorizer,
    };
    file.save(&path).unwrap();
    let loaded = VocabularyFile::load(&path).unwrap();
    assert_eq!(loaded.vectorizer.terms(), file.vectorizer.terms());
    assert_eq!(loaded.vectorizer.idf(), file.vectorizer.idf());
    assert_eq!(loaded.vectorizer.column("c"), Some(2));
    std::fs::write(&path, b"{\"labels\": []").unwrap();
    let error = VocabularyFile::load(&path).unwrap_err().to_string();
    assert!(
        error.contains("vocab.json") && error.contains("not a bowline vocabulary"),
        "{error}"
    );
    let text = serde_json::to_string(&file)
        .unwrap()
        .replace("\"a\",\"b\"", "\"b\",\"a\"");
    std::fs::write(&path, text).unwrap();
    let error = VocabularyFile::load(&path).unwrap_err().to_string();
    assert!(error.contains("not sorted"), "{error}");
}

#[test]
fn rows_filled_in_place_equal_rows_pushed_one_by_one() {
    // Rows of 0 to 6 entries, enough of them for several chunks of parallel work.
    let row = |i: usize| SparseRow {
        indices: (0..(i % 7) as u32)
            .map(|k| k * 3 + (i % 3) as u32)
            .collect(),
        values: (0..i % 7).map(|k| (i * 10 + k) as f64).collect(),
    };
    let rows = 3 * matrix::ROW_CHUNK + 5;
    let mut builder = MatrixBuilder::default();
    (0..rows).for_each(|i| builder.push(&row(i)));
    let pushed = builder.finish(20).unwrap();
    let filled = fill_rows(
        rows,
        20,
        |i| i % 7,
        |range, out| {
            range.for_each(|i| out.push(&row(i)));
        },
    )
    .unwrap();
    assert_eq!(filled, pushed);
    assert_eq!(filled.nnz(), (0..rows).map(|i| i % 7).sum::<usize>());
}

/// An analyzer of words and word pairs, and a vocabulary fitted with it on `docs`.
fn fit_pairs<'a>(
    docs: impl IntoIterator<Item = &'a str>,
) -> (crate::analyze::Analyzer, FittedVectorizer) {
    let analysis = AnalyzerConfig {
        ngram_max: 2,
        ..AnalyzerConfig::default()
    };
    let analyzer = crate::analyze::Analyzer::new(analysis.clone()).unwrap();
    let mut worker = analyzer.worker();
    let mut fitter = Fitter::new(VectorizerConfig::default()).unwrap();
    let mut terms = Terms::new();
    for doc in docs {
        worker.analyze(doc, &mut terms);
        fitter.add(&terms);
    }
    let (vectorizer, _) = fitter.finish(analysis).unwrap();
    (analyzer, vectorizer)
}

#[test]
fn a_long_text_counts_as_it_would_by_text() {
    let (analyzer, vectorizer) = fit_pairs([
        "the rocket reached orbit",
        "bread in a hot oven",
        "a rocket oven",
    ]);
    let (mut worker, mut terms) = (analyzer.worker(), Terms::new());
    // Over LONG_TEXT bytes, with words and pairs in and out of the vocabulary.
    let long = "The rocket reached a hot oven, then unknown orbit words. ".repeat(20_000);
    let mut by_ids = Counted::default();
    DocumentCounter::new(&analyzer).count(&vectorizer, &long, &mut by_ids);
    assert!(
        vectorizer.grams.get().is_some(),
        "counted through the index"
    );
    worker.analyze(&long, &mut terms);
    let mut by_text = Counted::default();
    RowCounter::default().count(&terms, |t| vectorizer.column(t), &mut by_text);
    assert_eq!(by_ids.row, by_text.row);
    assert_eq!((by_ids.length, by_ids.oov), (by_text.length, by_text.oov));
    // Nine words a sentence ("a" is shorter than a token), and a pair less than the words.
    assert_eq!(by_ids.length, 2 * 9 * 20_000 - 1);
}

#[test]
fn many_documents_count_as_by_text_before_and_after_the_index_is_built() {
    let docs: Vec<String> = (0..300)
        .map(|i| format!("rocket {} orbit w{} the oven w{} reached", i % 7, i % 13, i))
        .collect();
    let (analyzer, vectorizer) = fit_pairs(docs[..200].iter().map(String::as_str));
    let (mut worker, mut terms) = (analyzer.worker(), Terms::new());
    let mut counter = DocumentCounter::for_corpus(&analyzer);
    let mut by_ids = Counted::default();
    let mut by_text = Counted::default();
    let mut built_at = None;
    // Documents of the vocabulary and new ones, whose last words and pairs are unknown.
    for (i, doc) in docs.iter().enumerate() {
        counter.count(&vectorizer, doc, &mut by_ids);
        worker.analyze(doc, &mut terms);
        // By binary search, which leaves the terms' hash table unbuilt.
        let column = |t: &str| vectorizer.terms.binary_search(t).ok().map(|j| j as u32);
        RowCounter::default().count(&terms, column, &mut by_text);
        assert_eq!(by_ids.row, by_text.row, "{doc}");
        assert_eq!((by_ids.length, by_ids.oov), (by_text.length, by_text.oov));
        if built_at.is_none() && vectorizer.grams.get().is_some() {
            built_at = Some(i);
            assert!(!vectorizer.terms.has_hash_table(), "built before the index");
        }
    }
    assert!(
        built_at.is_some_and(|i| i < 100),
        "built after {built_at:?}"
    );
}

#[test]
fn a_document_whose_searches_alone_pass_the_rule_is_counted_through_the_index_built_first() {
    let docs: Vec<String> = (0..200)
        .map(|i| format!("rocket orbit w{} the oven w{} reached", i % 13, i))
        .collect();
    let (analyzer, vectorizer) = fit_pairs(docs.iter().map(String::as_str));
    // Known words and pairs, and unknown ones, in far less than a long text: eleven words a
    // sentence, and a pair less than the words; more terms than one for every 64 of the
    // vocabulary's.
    let doc = "the rocket reached orbit, the oven w7 reached w9 unknown words. ".repeat(20);
    let searches = 2 * 11 * 20 - 1;
    assert!(vectorizer.terms.len() / 64 <= searches);
    let mut by_index = Counted::default();
    DocumentCounter::for_corpus(&analyzer).count(&vectorizer, &doc, &mut by_index);
    assert!(vectorizer.grams.get().is_some(), "the index is built");
    assert_eq!(vectorizer.grams.searched(), 0, "no search was made by text");
    let (mut worker, mut terms) = (analyzer.worker(), Terms::new());
    worker.analyze(&doc, &mut terms);
    assert_eq!(terms.len(), searches);
    let mut by_text = Counted::default();
    let column = |t: &str| vectorizer.terms.binary_search(t).ok().map(|j| j as u32);
    RowCounter::default().count(&terms, column, &mut by_text);
    assert_eq!(by_index.row, by_text.row);
    assert_eq!(
        (by_index.length, by_index.oov),
        (by_text.length, by_text.oov)
    );
    assert!(by_text.oov > 0 && !by_text.row.indices.is_empty());
}

#[test]
fn hashed_terms_count_with_their_signs_and_prune_by_column() {
    let hashing = Hashing::new(4, true).unwrap();
    let config = |min_df| VectorizerConfig {
        min_df: DfBound::Count(min_df),
        hashing: Some(hashing),
        ..counting_config()
    };
    // a → column 2 (+1), b → 13 (-1), c → 1 (-1), d → 3 (+1), z → 9 (-1).
    let (vectorizer, matrix) = fit(config(1), &DOCS);
    assert!(vectorizer.terms().is_empty());
    // Only the columns that occur have arrays: 1, 2, 3 and 13, in that order.
    assert_eq!(vectorizer.hashed_columns(), [1, 2, 3, 13]);
    assert_eq!(vectorizer.df(), [1, 3, 1, 1]);
    assert_eq!(vectorizer.space(), 16);
    let rows = dense(&matrix);
    assert_eq!(
        (rows[0][1], rows[0][3], rows[1][0], rows[2][2]),
        (1.0, -2.0, -1.0, 1.0)
    );
    // min-df 2 keeps only a's column; a term whose column is pruned (or never seen) is unknown.
    let (vectorizer, matrix) = fit(config(2), &DOCS);
    assert_eq!(vectorizer.hashed_columns(), [2]);
    assert_eq!(vectorizer.df(), [3]);
    assert_eq!(matrix.nnz(), 3);
    let counted = vectorizer.transform(&terms("a b b z"));
    assert_eq!(counted.row.indices, [0]);
    assert_eq!(
        (counted.row.values[0], counted.oov, counted.length),
        (1.0, 3, 4)
    );
}

#[test]
fn word_ngrams_are_weighed_with_their_idf_and_the_weight_is_saved() {
    let docs: [&[&str]; 3] = [&["a", "b", "a b"], &["a", " ab "], &["b", "c", "b c"]];
    let fit_weighed = |ngram_weight| {
        let config = VectorizerConfig {
            ngram_weight,
            ..VectorizerConfig::default()
        };
        let mut fitter = Fitter::new(config).unwrap();
        for doc in docs {
            fitter.add(&doc.iter().copied().collect());
        }
        fitter.finish(AnalyzerConfig::default()).unwrap().0
    };
    let (plain, weighed) = (fit_weighed(1.0), fit_weighed(0.5));
    assert_eq!(*weighed.terms(), [" ab ", "a", "a b", "b", "b c", "c"]);
    let expected: Vec<f64> = plain
        .terms()
        .iter()
        .zip(plain.idf())
        .map(|(term, &idf)| {
            if term.trim().contains(' ') {
                idf * 0.5
            } else {
                idf
            }
        })
        .collect();
    assert_eq!(weighed.idf(), expected);
    assert_ne!(weighed.idf(), plain.idf());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vocab.json");
    let file = VocabularyFile {
        labels: vec!["x".into()],
        vectorizer: weighed,
    };
    file.save(&path).unwrap();
    let loaded = VocabularyFile::load(&path).unwrap();
    assert_eq!(loaded.vectorizer.config().ngram_weight, 0.5);
    assert_eq!(loaded.vectorizer.idf(), file.vectorizer.idf());
    // Weight 1 leaves the vocabulary file as it was before weights existed.
    VocabularyFile {
        labels: vec![],
        vectorizer: plain,
    }
    .save(&path)
    .unwrap();
    assert!(!std::fs::read_to_string(&path)
        .unwrap()
        .contains("ngram_weight"));
}

#[test]
fn extend_merges_the_vocabularies_in_byte_order_and_prunes_new_terms_by_min_df() {
    let min_two = VectorizerConfig {
        min_df: DfBound::Count(2),
        ..counting_config()
    };
    let (ours, _) = fit(min_two, &["b a b", "b a d", "d d"]);
    assert_eq!(*ours.terms(), ["a", "b", "d"]);
    // `c` and `e` are new and in two of the new documents: they join; `f`, in one, is left out;
    // `a` and `d`, known, join whatever their count.
    let (theirs, _) = fit(counting_config(), &["e a f", "e c", "d c"]);
    assert_eq!(*theirs.terms(), ["a", "c", "d", "e", "f"]);
    let (merged, ours_columns, theirs_columns) = ours.extend(&theirs).unwrap();
    assert_eq!(*merged.terms(), ["a", "b", "c", "d", "e"]);
    assert_eq!(merged.df(), [3, 2, 2, 3, 2]);
    assert_eq!(merged.n_docs(), 6);
    assert_eq!(ours_columns, [0, 1, 3]);
    assert_eq!(theirs_columns, [0, 2, 3, 4, u32::MAX]);
}
