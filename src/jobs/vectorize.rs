//! `vectorize`: a corpus becomes an svmlight matrix, over columns fitted on it (kept in a
//! vocabulary file when asked) or over the columns of a vocabulary file written before.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{Note, Placement};
use crate::analyze::{Analyzer, AnalyzerConfig};
use crate::corpus::{Entry, ReadOptions};
use crate::error::Result;
use crate::flow::{count_corpus, run_stages, transform_stages, Analyzed, Source};
use crate::io::Output;
use crate::pipeline::PipelineConfig;
use crate::render::vectorized;
use crate::vectorize::svmlight::SvmlightWriter;
use crate::vectorize::{CountedCorpus, VectorizerConfig, VocabularyFile};

/// Fit new columns, or reuse saved ones.
pub enum Mode {
    /// Fit a vocabulary on the corpus, and save it to `vocab` when one is given.
    Fit {
        /// How documents are analyzed.
        analysis: AnalyzerConfig,
        /// Which terms become columns, and how they are weighed.
        config: VectorizerConfig,
        /// Where to save the fitted vectorizer and the class names.
        vocab: Option<PathBuf>,
    },
    /// Transform with a vocabulary file's analysis, columns and weights, so that a test set gets
    /// the training set's columns.
    Transform(Box<VocabularyFile>),
}

impl Mode {
    /// Transforms with the vocabulary file at `path`.
    pub fn saved(path: &Path) -> Result<Mode> {
        Ok(Mode::Transform(Box::new(VocabularyFile::load(path)?)))
    }

    /// Refuses a transform across a cluster: cluster mode fits, and a transform runs in one
    /// process.
    pub fn check(&self, placement: &Placement) -> Result<()> {
        match (self, placement) {
            (Mode::Transform(_), Placement::Local) | (Mode::Fit { .. }, _) => Ok(()),
            #[cfg(feature = "cluster")]
            (Mode::Transform(_), Placement::Cluster(_)) => Err(crate::error::Error::Config(
                "cluster mode fits a vocabulary; --use-vocab runs in one process".into(),
            )),
        }
    }
}

/// A `vectorize` run.
pub struct Vectorize {
    /// The corpus: class folders, a .tsv or .jsonl file, unlabeled files, or `-` (stdin).
    pub corpus: PathBuf,
    /// Where the matrix is written; `-` for stdout.
    pub output: PathBuf,
    /// Fit or transform.
    pub mode: Mode,
    /// How the corpus is read.
    pub read: ReadOptions,
    /// Threads and batches.
    pub pipeline: PipelineConfig,
}

/// What a run tells its caller as it goes, when it happens.
pub enum Event<'a> {
    /// A document of a transform has a class the vocabulary file lacks: its row is written with
    /// the next free label, `label`, which every later document of the class gets too.
    NewClass {
        /// The document.
        id: &'a str,
        /// Its class.
        class: &'a str,
        /// The label its rows are written with.
        label: usize,
    },
    /// A fit wrote its matrix: how long reading, analyzing and counting took, then fitting the
    /// vocabulary, then weighing and writing the rows.
    Written([Duration; 3]),
}

/// What a run wrote.
pub enum Vectorized {
    /// A fitted matrix, with `entries` non-zeros, and the vocabulary it was fitted with.
    Fitted {
        /// The class names and the fitted vectorizer (saved when asked).
        vocabulary: Box<VocabularyFile>,
        /// Non-zero entries written.
        entries: usize,
    },
    /// A matrix over a saved vocabulary.
    Transformed {
        /// The vocabulary file used.
        vocabulary: Box<VocabularyFile>,
        /// Rows written.
        rows: u64,
        /// Terms of the documents that the vocabulary does not hold.
        oov: u64,
    },
    /// Nothing: in a cluster, this process counted its documents for process 0, which writes.
    Counted,
}

impl Vectorized {
    /// What was written to `output`, as the program reports it.
    pub fn summary(&self, output: &Path) -> String {
        match self {
            Vectorized::Fitted {
                vocabulary,
                entries,
            } => vectorized::fitted(
                vocabulary.labels.len(),
                &vocabulary.vectorizer,
                *entries,
                output,
            ),
            Vectorized::Transformed {
                vocabulary,
                rows,
                oov,
            } => vectorized::transformed(*rows, *oov, &vocabulary.vectorizer, output),
            Vectorized::Counted => vectorized::COUNTED_FOR_PROCESS_0.into(),
        }
    }
}

impl Vectorize {
    /// Writes the matrix (and the vocabulary file of a fit), reading where `placement` says,
    /// telling `note` of each entry read and `tell` of what happens on the way.
    pub fn run(
        self,
        placement: &Placement,
        note: Note,
        tell: &mut dyn FnMut(Event),
    ) -> Result<Vectorized> {
        self.mode.check(placement)?;
        let Vectorize {
            corpus,
            output,
            mode,
            read,
            pipeline,
        } = self;
        let run = Run {
            corpus,
            output,
            read,
            pipeline,
        };
        match mode {
            Mode::Fit {
                analysis,
                config,
                vocab,
            } => {
                let analyzer = Analyzer::new(analysis)?;
                run.fit(
                    &analyzer,
                    &config,
                    vocab.as_deref(),
                    (placement, note),
                    tell,
                )
            }
            Mode::Transform(vocabulary) => {
                let (rows, oov) = run.transform(&vocabulary, &*note, tell)?;
                Ok(Vectorized::Transformed {
                    vocabulary,
                    rows,
                    oov,
                })
            }
        }
    }
}

/// A run's corpus and output, whichever the mode.
struct Run {
    corpus: PathBuf,
    output: PathBuf,
    read: ReadOptions,
    pipeline: PipelineConfig,
}

impl Run {
    /// Fits a vocabulary on the corpus and writes the training matrix. The matrix is never
    /// built: each chunk of rows is renumbered, weighed and formatted in one pass on a rayon
    /// thread.
    fn fit(
        &self,
        analyzer: &Analyzer,
        config: &VectorizerConfig,
        vocab: Option<&Path>,
        (placement, note): (&Placement, Note),
        tell: &mut dyn FnMut(Event),
    ) -> Result<Vectorized> {
        let started = Instant::now();
        let Some(counted) = self.counted(analyzer, config, placement, note)? else {
            return Ok(Vectorized::Counted);
        };
        let analyzed = started.elapsed();
        let ids: Vec<i64> = (counted.class_ids().iter())
            .map(|id| id.map_or(0, |c| c as i64))
            .collect();
        let (vectorizer, rows) = counted.fitter.finish_rows(analyzer.config().clone())?;
        let pruned = started.elapsed();
        let rows = rows.weighed_by(&vectorizer);
        let mut output = Output::create(&self.output)?;
        let entries =
            SvmlightWriter::write_rows(&mut output, &ids, &rows).map_err(|e| output.error(e))?;
        output.commit()?;
        tell(Event::Written([
            analyzed,
            pruned - analyzed,
            started.elapsed() - pruned,
        ]));
        let vocabulary = Box::new(VocabularyFile {
            labels: counted.classes,
            vectorizer,
        });
        if let Some(path) = vocab {
            vocabulary.save(path)?;
        }
        Ok(Vectorized::Fitted {
            vocabulary,
            entries,
        })
    }

    /// The corpus counted, by this process or by every process of a cluster: `None` on a
    /// process other than process 0.
    fn counted(
        &self,
        analyzer: &Analyzer,
        config: &VectorizerConfig,
        placement: &Placement,
        note: Note,
    ) -> Result<Option<CountedCorpus>> {
        let (read, pipeline) = (&self.read, &self.pipeline);
        match placement {
            Placement::Local => {
                let source = Source::open(&self.corpus, read)?;
                let counted = count_corpus(source, analyzer, config, pipeline, |e| note(e))?;
                Ok(Some(counted))
            }
            #[cfg(feature = "cluster")]
            Placement::Cluster(cluster) => {
                let what = ("vectorize", self.corpus.as_path());
                let counted = crate::cluster::count_corpus(
                    cluster, what, analyzer, config, read, pipeline, note,
                );
                Ok(counted?.map(|gathered| gathered.counts))
            }
        }
    }

    /// Writes the corpus's rows over a saved vocabulary, streaming: each row is written as soon
    /// as its document is analyzed. Gives the rows written and the out-of-vocabulary terms met.
    fn transform(
        &self,
        vocabulary: &VocabularyFile,
        note: &dyn Fn(&Entry),
        tell: &mut dyn FnMut(Event),
    ) -> Result<(u64, u64)> {
        let (entries, _) = crate::flow::open(&self.corpus, &self.read)?;
        let analyzer = Analyzer::new(vocabulary.vectorizer.analyzer().clone())?;
        let mut classes = vocabulary.labels.clone();
        let mut output = Output::create(&self.output)?;
        let mut writer = SvmlightWriter::new();
        let (mut rows, mut oov) = (0u64, 0u64);
        let (fused, max_doc_bytes) = (self.pipeline.is_fused(), self.read.max_doc_bytes);
        let stages = transform_stages(&analyzer, &vocabulary.vectorizer, max_doc_bytes, fused);
        run_stages(entries, &self.pipeline, stages, |item: Analyzed| {
            note(&item.entry);
            if !item.entry.is_document() {
                return Ok(());
            }
            let label = label_of(&item, &mut classes, tell);
            let row = &item.counted.row;
            oov += item.counted.oov;
            rows += 1;
            writer
                .write_row(&mut output, label, &row.indices, &row.values)
                .map_err(|e| output.error(e))
        })?;
        output.commit()?;
        Ok((rows, oov))
    }
}

/// The label a transformed document's row is written with: its class's position among
/// `classes`, a class the vocabulary file lacks being added (and told of) when first met, and 0
/// for an unlabeled document.
fn label_of(item: &Analyzed, classes: &mut Vec<String>, tell: &mut dyn FnMut(Event)) -> i64 {
    let Some(class) = item.entry.doc.label.as_deref() else {
        return 0;
    };
    if let Some(known) = classes.iter().position(|c| c == class) {
        return known as i64;
    }
    let label = classes.len();
    let id = &item.entry.doc.id;
    tell(Event::NewClass { id, class, label });
    classes.push(class.to_string());
    label as i64
}
