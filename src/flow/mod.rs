//! How stages are wired: the carrier that travels through the pipeline, the stages that read,
//! analyze and count documents, and the corpus sources they start from.
//!
//! [`crate::pipeline`] knows nothing of text: it runs stages over batches of any item type. This
//! module gives it one: an [`Analyzed`] document, which a read stage fills from its file, the
//! analysis stages turn into terms and a counting stage into a sparse row. Every command that
//! reads a corpus runs these stages, so fitting, transforming and classifying see each
//! document the same way.
//!
//! Analysis runs in one of two layouts (see [`crate::pipeline::Layout`]). The fused layout, the
//! default, runs every step of a document in one stage on one thread, with a memo of each
//! token's result: on 20 Newsgroups it is the fastest, as a document stays in one core's cache.
//! The staged layout runs each step in threads of its own, as `--staged` asks; it shows each
//! step's time in the per-stage counters (`-v`), and the tests keep both layouts' outputs equal.

mod fit;
mod source;
mod stages;

pub(crate) use fit::distinct_labels;
pub use fit::fit_corpus;
pub(crate) use fit::{count_corpus, survey_corpus};
pub use source::{open, Source};
pub(crate) use stages::hashed_fit_stages;
pub use stages::{fit_stages, transform_stages};

use crate::analyze::{Analyzer, AnalyzerWorker, Step, Terms};
use crate::corpus::{load_pending, Entries, Entry};
use crate::error::Result;
use crate::pipeline::{PipelineConfig, Stage, StageStats};
use crate::vectorize::Counted;

/// A document in the pipeline: what was read, and its terms once analyzed.
#[derive(Debug, Default)]
pub struct Analyzed {
    /// The input entry, with its document and read notes.
    pub entry: Entry,
    /// The document's terms; filled by the tokenize stage and rewritten by the later ones.
    pub terms: Terms,
    /// The terms counted over a vocabulary, by a counting stage that runs after analysis.
    pub counted: Counted,
}

impl From<Entry> for Analyzed {
    fn from(entry: Entry) -> Self {
        Analyzed {
            entry,
            ..Analyzed::default()
        }
    }
}

/// The analysis as pipeline stages, after a read stage that loads pending files (documents
/// longer than `max_doc_bytes` are truncated there).
///
/// Separate stages (`fused == false`) are one per enabled step, each in its own threads; a
/// fused analysis is one stage that runs [`AnalyzerWorker::analyze`], with its memo.
pub fn analysis_stages(
    analyzer: &Analyzer,
    max_doc_bytes: u64,
    fused: bool,
) -> Vec<Stage<'_, Analyzed>> {
    let read = read_stage(max_doc_bytes);
    if fused {
        return vec![
            read,
            step_stage(analyzer, "analyze", AnalyzerWorker::analyze),
        ];
    }
    let mut stages = vec![read];
    for (name, step) in analyzer.steps() {
        stages.push(step_stage(analyzer, name, step));
    }
    stages
}

fn step_stage<'a>(
    analyzer: &'a Analyzer,
    name: &'static str,
    step: Step<'a>,
) -> Stage<'a, Analyzed> {
    Stage::new(name, move || {
        let mut worker = analyzer.worker();
        Box::new(move |batch: &mut Vec<Analyzed>| {
            let mut units = 0;
            for item in batch.iter_mut().filter(|item| item.entry.is_document()) {
                step(&mut worker, &item.entry.doc.text, &mut item.terms);
                units += item.terms.len() as u64;
            }
            Ok(units)
        })
    })
}

/// The read stage: loads the files of pending entries, truncating documents longer than
/// `max_doc_bytes`. It runs on the pipeline's workers, so files are read in parallel.
pub(crate) fn read_stage<'a>(max_doc_bytes: u64) -> Stage<'a, Analyzed> {
    Stage::new("read", move || {
        Box::new(move |batch: &mut Vec<Analyzed>| {
            for item in batch.iter_mut() {
                load_pending(&mut item.entry, max_doc_bytes);
            }
            Ok(0)
        })
    })
}

/// Runs `entries` through `stages` (which must begin with a `read_stage` when entries may be
/// pending files) and hands every entry, in input order, to `each` on the calling thread.
pub fn run_stages<'a>(
    entries: Entries,
    pipeline: &PipelineConfig,
    stages: Vec<Stage<'a, Analyzed>>,
    mut each: impl FnMut(Analyzed) -> Result<()>,
) -> Result<Vec<StageStats>> {
    let source = entries.map(Analyzed::from);
    crate::pipeline::run(pipeline, source, stages, |batch| {
        batch.into_iter().try_for_each(&mut each)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{AnalyzerConfig, StopWords};

    #[test]
    fn stages_follow_the_config() {
        let analyzer = Analyzer::new(AnalyzerConfig {
            stop_words: StopWords::None,
            stemmer: None,
            ngram_max: 1,
            ..AnalyzerConfig::default()
        })
        .unwrap();
        let names = |fused| -> Vec<&str> {
            let stages = analysis_stages(&analyzer, 100, fused);
            stages.iter().map(|s| s.name()).collect()
        };
        assert_eq!(names(false), ["read", "tokenize", "lowercase"]);
        assert_eq!(names(true), ["read", "analyze"]);
    }
}
