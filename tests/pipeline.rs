//! The staged pipeline against the fused one: same bytes out, whatever the threads; and failures
//! that stop the run instead of hanging it.

mod common;

use bowline::analyze::{Analyzer, AnalyzerConfig, StopWords};
use bowline::corpus::{Document, Entry};
use bowline::flow::{analysis_stages, fit_stages, run_stages, transform_stages, Analyzed};
use bowline::pipeline::{Layout, PipelineConfig, Stage};
use bowline::vectorize::{svmlight::SvmlightWriter, Fitter, VectorizerConfig};
use common::{bowline, outcome};
use proptest::prelude::*;

/// Fits on `texts` and returns the svmlight matrix followed by the vocabulary, one term a line.
fn fit_bytes(
    texts: &[String],
    config: &AnalyzerConfig,
    layout: Layout,
    batch_size: usize,
) -> Vec<u8> {
    let analyzer = Analyzer::new(config.clone()).unwrap();
    let pipeline = PipelineConfig {
        layout,
        batch_size,
        ..PipelineConfig::default()
    };
    let mut fitter = Fitter::new(VectorizerConfig::default()).unwrap();
    let (interner, rows) = fitter.parts();
    let fused = matches!(pipeline.layout, Layout::Fused { .. });
    let stages = fit_stages(&analyzer, interner, u64::MAX, fused);
    run_stages(documents(texts), &pipeline, stages, |item| {
        rows.push(item.counted);
        Ok(())
    })
    .unwrap();
    let (vectorizer, matrix) = fitter.finish(config.clone()).unwrap();
    let mut out = Vec::new();
    SvmlightWriter::write_rows(&mut out, &vec![0; matrix.rows()], &matrix).unwrap();
    for term in vectorizer.terms().iter() {
        out.extend_from_slice(term.as_bytes());
        out.push(b'\n');
    }
    out
}

/// Words that exercise every stage: case, stop words, stemming, inner punctuation, scripts.
const WORDS: &[&str] = &[
    "The",
    "the",
    "running",
    "Runs",
    "RUN",
    "and",
    "e.g.",
    "3.14",
    "can't",
    "Café",
    "naïve",
    "Привет",
    "мир",
    "東京",
    "は",
    "👍",
    "don't",
    "U.S.A.",
    "snake_case",
    "1,000",
    "İstanbul",
    "Straße",
    "ΣΟΦΙΑ",
    "x",
    "of",
    "john.doe@example.com",
    "--",
    "\n",
    "\t",
];

fn texts() -> impl Strategy<Value = Vec<String>> {
    let text = prop::collection::vec(prop::sample::select(WORDS), 0..30).prop_map(|w| w.join(" "));
    prop::collection::vec(text, 1..40)
}

/// Character n-grams: none, alone, or beside words.
fn char_ngrams() -> impl Strategy<Value = (Option<(usize, usize)>, bool)> {
    let sizes = (1usize..=4).prop_flat_map(|max| (1..=max, Just(max)));
    prop_oneof![
        2 => Just((None, true)),
        1 => (sizes, any::<bool>()).prop_map(|(range, words)| (Some(range), words)),
    ]
}

fn configs() -> impl Strategy<Value = AnalyzerConfig> {
    let sizes = (1usize..=3).prop_flat_map(|max| (1..=max, Just(max)));
    let words = (any::<bool>(), any::<bool>(), any::<bool>(), sizes);
    (words, char_ngrams()).prop_map(
        |((lower, stop, stem, (ngram_min, ngram_max)), (char_ngrams, words))| AnalyzerConfig {
            min_token_len: 1,
            lowercase: lower,
            stop_words: if stop {
                AnalyzerConfig::default().stop_words
            } else {
                StopWords::None
            },
            stemmer: if stem {
                AnalyzerConfig::default().stemmer
            } else {
                None
            },
            ngram_min,
            ngram_max,
            char_ngrams,
            words,
            ..AnalyzerConfig::default()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn staged_output_equals_fused_single_thread(
        texts in texts(),
        config in configs(),
        workers in prop::collection::vec(1usize..=4, 1..8),
        batch_size in 1usize..6,
    ) {
        let fused = fit_bytes(&texts, &config, Layout::Fused { workers: 1 }, 64);
        let staged = fit_bytes(&texts, &config, Layout::Staged { workers }, batch_size);
        prop_assert_eq!(String::from_utf8(staged).unwrap(), String::from_utf8(fused).unwrap());
    }
}

/// Transforms `texts` four times over the vectorizer fitted on them, returning the svmlight
/// rows. Four passes search the vocabulary more than three times per term, so the fused
/// layout switches to finding n-grams as chains of word ids on the way.
fn transform_bytes(texts: &[String], config: &AnalyzerConfig, layout: Layout) -> Vec<u8> {
    let analyzer = Analyzer::new(config.clone()).unwrap();
    let mut fitter = Fitter::new(VectorizerConfig::default()).unwrap();
    let mut terms = bowline::analyze::Terms::new();
    let mut worker = analyzer.worker();
    for text in texts {
        worker.analyze(text, &mut terms);
        fitter.add(&terms);
    }
    let (vectorizer, _) = fitter.finish(config.clone()).unwrap();
    let fused = matches!(layout, Layout::Fused { .. });
    let pipeline = PipelineConfig {
        layout,
        batch_size: 3,
        ..PipelineConfig::default()
    };
    let stages = transform_stages(&analyzer, &vectorizer, u64::MAX, fused);
    let mut out = Vec::new();
    let mut writer = SvmlightWriter::new();
    let passes: Vec<String> = (0..4).flat_map(|_| texts.iter().cloned()).collect();
    run_stages(documents(&passes), &pipeline, stages, |item| {
        let row = &item.counted.row;
        writer
            .write_row(&mut out, item.counted.oov as i64, &row.indices, &row.values)
            .unwrap();
        Ok(())
    })
    .unwrap();
    out
}

fn documents(texts: &[String]) -> Box<dyn Iterator<Item = Entry> + Send> {
    let entries: Vec<Entry> = texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let doc = Document {
                id: i.to_string(),
                label: None,
                text: text.clone(),
                ..Document::default()
            };
            Entry::loaded(doc, text.len() as u64)
        })
        .collect();
    Box::new(entries.into_iter())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn transform_is_the_same_fused_and_staged(
        texts in texts(),
        config in configs(),
        workers in prop::collection::vec(1usize..=3, 1..8),
    ) {
        let fused = transform_bytes(&texts, &config, Layout::Fused { workers: 2 });
        let staged = transform_bytes(&texts, &config, Layout::Staged { workers });
        prop_assert_eq!(String::from_utf8(staged).unwrap(), String::from_utf8(fused).unwrap());
    }
}

#[test]
fn thread_counts_do_not_change_the_files_written() {
    let reference = bowline(&["vectorize", "corpora", "-o", "-", "-q", "-j", "1"], b"");
    assert_eq!(reference.status.code(), Some(0));
    for flags in [
        ["-j", "4", ""],
        ["--staged", "-j", "1"],
        ["--staged", "-j", "3"],
    ] {
        let mut args = vec!["vectorize", "corpora", "-o", "-", "-q"];
        args.extend(flags.iter().filter(|f| !f.is_empty()));
        let (code, stdout, stderr) = outcome(&bowline(&args, b""));
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(stdout.as_bytes(), reference.stdout.as_slice(), "{flags:?}");
    }
}

fn numbered_docs() -> Box<dyn Iterator<Item = Entry> + Send> {
    Box::new((0..5000).map(|i| {
        let doc = Document {
            id: i.to_string(),
            label: None,
            text: format!("doc {i}"),
            ..Document::default()
        };
        Entry::loaded(doc, 5)
    }))
}

fn panics_on_4321<'a>() -> Stage<'a, Analyzed> {
    Stage::new("boom", || {
        Box::new(|batch: &mut Vec<Analyzed>| {
            if batch.iter().any(|item| item.entry.doc.id == "4321") {
                panic!("cannot handle document 4321");
            }
            Ok(0)
        })
    })
}

#[test]
fn a_panicking_stage_after_analysis_stops_the_run_with_its_message() {
    let analyzer = Analyzer::new(AnalyzerConfig::default()).unwrap();
    for layout in [
        Layout::Fused { workers: 2 },
        Layout::Staged { workers: vec![2] },
    ] {
        let pipeline = PipelineConfig {
            layout,
            batch_size: 16,
            max_in_flight: Some(4),
            observer: None,
        };
        let mut stages = analysis_stages(&analyzer, u64::MAX, pipeline.is_fused());
        stages.push(panics_on_4321());
        let mut seen = 0;
        let error = run_stages(numbered_docs(), &pipeline, stages, |_| {
            seen += 1;
            Ok(())
        })
        .unwrap_err();
        assert!(
            error.to_string().contains("cannot handle document 4321"),
            "{error}"
        );
        assert!(
            seen < 4321,
            "documents after the failure were not delivered"
        );
    }
}
