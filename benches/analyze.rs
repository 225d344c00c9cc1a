//! Criterion benchmarks: each analysis stage on its own, the fused analysis, counting, the whole
//! fit through the pipeline (English words, and the default analysis), the default vocabulary's
//! pruning and sorting, and writing the fitted rows as svmlight text.
//!
//! Input: 20 Newsgroups train from `../shared/corpora` when it is there (the figures in benches/README.md),
//! otherwise the project's own `corpora/`. Each benchmark first asserts a known count, so a
//! change that makes a stage faster by doing less work fails instead of looking good.

use std::hint::black_box;
use std::time::Duration;

use bowline::analyze::{
    lowercase::lowercase, ngrams::ngrams, tokenize::tokenize, Analyzer, AnalyzerConfig, Language,
    StemCache, StopSet, StopWords, Terms,
};
use bowline::corpus;
use bowline::flow::{fit_stages, run_stages};
use bowline::pipeline::PipelineConfig;
use bowline::vectorize::{svmlight::SvmlightWriter, Fitter, VectorizerConfig};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode, Throughput};

// The same allocator as the `bowline` binary, so the figures are the product's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "support/corpus.rs"]
mod support;

/// The corpus texts, and the token count expected from the default tokenizer on them.
fn corpus() -> (Vec<String>, usize) {
    let (documents, _, shared) = support::read();
    let texts = documents.into_iter().map(|doc| doc.text).collect();
    (texts, if shared { 3_259_697 } else { 827 })
}

fn tokenized(texts: &[String]) -> Vec<Terms> {
    let tokens = AnalyzerConfig::default().tokens();
    texts
        .iter()
        .map(|text| {
            let mut terms = Terms::new();
            tokenize(text, tokens, &mut terms);
            terms
        })
        .collect()
}

fn stages(c: &mut Criterion) {
    let (texts, expected_tokens) = corpus();
    let bytes: usize = texts.iter().map(String::len).sum();
    let tokens = tokenized(&texts);
    assert_eq!(
        tokens.iter().map(Terms::len).sum::<usize>(),
        expected_tokens
    );
    let mut group = c.benchmark_group("stage");
    group
        .sample_size(10)
        .throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("tokenize", |b| b.iter(|| black_box(tokenized(&texts))));
    group.bench_function("lowercase", |b| {
        b.iter(|| {
            let mut scratch = Terms::new();
            for terms in tokens.clone().iter_mut() {
                lowercase(terms, &mut scratch);
            }
        })
    });
    let stop = StopSet::new(
        bowline::analyze::Language::English
            .stop_words()
            .iter()
            .copied(),
    );
    group.bench_function("stopwords", |b| {
        b.iter(|| {
            let mut scratch = Terms::new();
            for terms in tokens.clone().iter_mut() {
                stop.prune(terms, true, &mut scratch);
            }
        })
    });
    group.bench_function("stem", |b| {
        b.iter(|| {
            let (mut cache, mut scratch) = (
                StemCache::new(rust_stemmers::Algorithm::English),
                Terms::new(),
            );
            for terms in tokens.clone().iter_mut() {
                cache.stem(terms, &mut scratch);
            }
        })
    });
    group.bench_function("bigrams", |b| {
        b.iter(|| {
            let mut scratch = Terms::new();
            for terms in tokens.clone().iter_mut() {
                ngrams(terms, 1, 2, &mut scratch);
            }
        })
    });
    let analyzer = Analyzer::new(english_words()).expect("analyzer");
    group.bench_function("analyze-fused", |b| {
        b.iter(|| {
            let (mut worker, mut terms, mut count) = (analyzer.worker(), Terms::new(), 0);
            for text in &texts {
                worker.analyze(text, &mut terms);
                count += terms.len();
            }
            black_box(count)
        })
    });
    group.finish();
}

/// The analysis these benchmarks measure, and their counts assume: the English stop list,
/// stemming, words alone.
fn english_words() -> AnalyzerConfig {
    AnalyzerConfig {
        stop_words: StopWords::Builtin(Language::English),
        ngram_max: 1,
        ..AnalyzerConfig::default()
    }
}

/// The corpus counted by a fit's pipeline stages on 2 threads, fused or staged: the fitter
/// holds the interned terms and the rows, before the vocabulary is pruned and sorted.
fn counted(texts: &[String], analyzer: &Analyzer, fused: bool) -> Fitter {
    let entries = texts.iter().cloned().map(|text| {
        let document = corpus::Document {
            text,
            ..Default::default()
        };
        corpus::Entry::loaded(document, 0)
    });
    let entries = Box::new(entries.collect::<Vec<_>>().into_iter());
    let mut fitter = Fitter::new(VectorizerConfig::default()).expect("fitter");
    let (interner, rows) = fitter.parts();
    let stages = fit_stages(analyzer, interner, u64::MAX, fused);
    let config = PipelineConfig::with_threads(fused, 2);
    run_stages(entries, &config, stages, |item| {
        rows.push(item.counted);
        Ok(())
    })
    .expect("pipeline");
    fitter
}

/// Terms of the default analysis (stemmed words and word pairs, no stop words) on the corpus.
fn default_terms(texts: &[String]) -> usize {
    if texts.len() > 1000 {
        1_087_830
    } else {
        1_202
    }
}

fn end_to_end(c: &mut Criterion) {
    let (texts, _) = corpus();
    let bytes: usize = texts.iter().map(String::len).sum();
    let words = Analyzer::new(english_words()).expect("analyzer");
    let default = Analyzer::new(AnalyzerConfig::default()).expect("analyzer");
    let mut group = c.benchmark_group("fit");
    group
        .sample_size(10)
        .throughput(Throughput::Bytes(bytes as u64));
    for (name, analyzer, fused) in [
        ("fused", &words, true),
        ("staged", &words, false),
        ("default", &default, true),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let fitter = counted(&texts, analyzer, fused);
                let (vectorizer, matrix) =
                    fitter.finish(analyzer.config().clone()).expect("finish");
                assert_eq!(matrix.rows(), texts.len());
                if name == "default" {
                    assert_eq!(vectorizer.n_features(), default_terms(&texts));
                }
            })
        });
    }
    group.finish();
    // Pruning and sorting the vocabulary alone, from a fresh count each time (not timed).
    let mut group = c.benchmark_group("vocabulary");
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(1));
    group.bench_function("default", |b| {
        b.iter_batched(
            || counted(&texts, &default, true),
            |fitter| {
                let finished = fitter.finish_rows(default.config().clone());
                let (vectorizer, _) = finished.expect("finish");
                assert_eq!(vectorizer.n_features(), default_terms(&texts));
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

/// Writing the training matrix as `vectorize` does, without the file: each row renumbered from
/// provisional ids to columns, weighed and formatted as svmlight text, in parallel.
fn write(c: &mut Criterion) {
    let (texts, _) = corpus();
    let analyzer = Analyzer::new(english_words()).expect("analyzer");
    let mut fitter = Fitter::new(VectorizerConfig::default()).expect("fitter");
    let mut worker = analyzer.worker();
    let mut terms = Terms::new();
    for text in &texts {
        worker.analyze(text, &mut terms);
        fitter.add(&terms);
    }
    let (vectorizer, rows) = fitter
        .finish_rows(analyzer.config().clone())
        .expect("finish");
    let rows = rows.weighed_by(&vectorizer);
    let labels = vec![0; texts.len()];
    let mut group = c.benchmark_group("write");
    group.sample_size(20);
    group.bench_function("svmlight", |b| {
        b.iter(|| {
            let entries = SvmlightWriter::write_rows(&mut std::io::sink(), &labels, &rows);
            let expected = if texts.len() > 1000 { 1_293_816 } else { 500 };
            assert_eq!(entries.expect("sink"), expected);
        })
    });
    group.finish();
}

criterion_group!(benches, stages, end_to_end, write);
criterion_main!(benches);
