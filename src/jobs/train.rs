//! `train`: a labelled corpus becomes a model, here or across a cluster; with the settings
//! given, or with the best that a search by cross-validation finds; single-label or
//! multi-label; reading the corpus once, or twice when holding its documents would cost more
//! memory than a second reading costs time.

use std::path::{Path, PathBuf};

use super::{Note, Placement};
use crate::analyze::AnalyzerConfig;
use crate::choice::Choice;
use crate::classifier::{Builder, Fitted, MultiLabelOptions, TuneOptions, TuneOutcome};
use crate::corpus::{Entry, ReadOptions};
use crate::error::{Error, Result};
use crate::flow::Source;
use crate::model::{Kind, NaiveBayes, Smoothing};
use crate::pipeline::PipelineConfig;
use crate::{Reading, TextClassifier};

/// How the settings of the model are found.
#[derive(Debug, Clone)]
pub enum Settings {
    /// The builder's, as given. The model is multi-label when `multi_label` says so, or when a
    /// document has several labels.
    Given {
        /// Train a multi-label model even if no document has several labels.
        multi_label: bool,
        /// How a multi-label model decides its labels.
        options: MultiLabelOptions,
    },
    /// The best that a search by cross-validation on the corpus finds, starting from the
    /// builder's (single-label only).
    Tuned(TuneOptions),
}

/// How many times a training reads its corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Passes {
    /// Twice for a corpus of 256 MiB or more on disk, else once.
    Auto,
    /// Once, holding every document's row until the model is trained.
    One,
    /// Twice (naive Bayes; other classifiers read once).
    Two,
}

impl Choice for Passes {
    const CHOICES: &'static [(&'static str, &'static str, Self)] = &[
        (
            "auto",
            "Twice for a corpus of 256 MiB or more on disk, else once",
            Passes::Auto,
        ),
        (
            "1",
            "Once, holding every document's row until the model is trained",
            Passes::One,
        ),
        (
            "2",
            "Twice (naive Bayes; other classifiers read once)",
            Passes::Two,
        ),
    ];
}

/// The corpus size from which [`Passes::Auto`] reads twice. Training naive Bayes in one pass
/// peaks at about five times the corpus (1.2 GB for 235 MB of 20 Newsgroups posts, bigrams
/// and all); two passes peak at what the vocabulary takes (220 MB for the same corpus) and
/// double the analysis time, which pays for itself in memory from about this size.
pub(crate) const TWO_PASSES_FROM: u64 = 256 << 20;

impl Passes {
    /// Whether to read `corpus` twice; stdin and FIFOs can be read only once.
    pub(crate) fn twice(self, corpus: &Path) -> bool {
        let on_disk = crate::corpus::rereadable(corpus);
        match self {
            Passes::One => false,
            Passes::Two => on_disk,
            Passes::Auto => on_disk && bytes_on_disk(corpus) >= TWO_PASSES_FROM,
        }
    }
}

/// The bytes of the files at or below `path`; what cannot be read counts nothing, as reading
/// reports it.
fn bytes_on_disk(path: &Path) -> u64 {
    walkdir::WalkDir::new(path)
        .into_iter()
        .filter_map(|entry| entry.ok()?.metadata().ok())
        .filter(|metadata| metadata.is_file())
        .map(|metadata| metadata.len())
        .sum()
}

/// A `train` run.
#[derive(Debug)]
pub struct Train {
    /// The corpus: class folders, a line file, stdin (`-`), or a corpus index when `read`
    /// says so.
    pub corpus: PathBuf,
    /// The classifier, analysis and weighting to train.
    pub builder: Builder,
    /// How the corpus is read.
    pub read: ReadOptions,
    /// Threads and batches.
    pub pipeline: PipelineConfig,
    /// How the settings are found.
    pub settings: Settings,
    /// How many times the corpus may be read.
    pub passes: Passes,
    /// Across a cluster, train the SVM by CoCoA+, each worker keeping the rows it read,
    /// instead of on process 0 from the documents the workers counted.
    #[cfg(feature = "cluster")]
    pub cocoa: bool,
}

/// The corpus to train on and the analysis to start from: a corpus index (`index`) with its own
/// analysis, or a corpus with `kind`'s default analysis.
pub fn source(
    corpus: Option<&Path>,
    index: Option<&Path>,
    kind: Kind,
) -> Result<(PathBuf, AnalyzerConfig)> {
    match (index, corpus) {
        (Some(dir), _) => Ok((dir.to_path_buf(), crate::index::analysis(dir)?)),
        (None, Some(path)) => Ok((path.to_path_buf(), kind.default_analysis())),
        (None, None) => Err(Error::Config("give a CORPUS or --index DIR".into())),
    }
}

/// What a training made.
#[derive(Debug)]
pub struct Trained {
    /// The model, and how it was made.
    pub made: Made,
    /// Naive Bayes' smoothing, when leave-one-out on the training documents chose it (the
    /// builder's smoothing was `auto`).
    pub chosen_alpha: Option<f64>,
}

/// How a model was made.
// Without cluster mode, the fitted model is the one large variant, and the one most runs make:
// boxing it would buy nothing.
#[cfg_attr(not(feature = "cluster"), allow(clippy::large_enum_variant))]
#[derive(Debug)]
pub enum Made {
    /// Fitted in this process with the settings given.
    Fitted(Fitted),
    /// Found by a search and trained on the whole corpus: the outcome holds the model.
    Tuned(Box<TuneOutcome>),
    /// Trained across a cluster, as process 0 has it.
    #[cfg(feature = "cluster")]
    InCluster(InCluster),
}

impl Trained {
    /// The model.
    pub fn classifier(&self) -> &TextClassifier {
        match &self.made {
            Made::Fitted(fitted) => &fitted.classifier,
            Made::Tuned(outcome) => &outcome.model,
            #[cfg(feature = "cluster")]
            Made::InCluster(trained) => &trained.classifier,
        }
    }

    /// The documents it was trained on.
    pub fn documents(&self) -> usize {
        match &self.made {
            Made::Fitted(fitted) => fitted.documents,
            Made::Tuned(outcome) => {
                let per_class = &outcome.model.model().info.docs_per_class;
                per_class.iter().sum::<u64>() as usize
            }
            #[cfg(feature = "cluster")]
            Made::InCluster(trained) => trained.classifier.model().vectorizer.n_docs() as usize,
        }
    }

    /// What it was trained on, as the program reports it: the documents, and across a cluster
    /// its processes and what they exchanged.
    pub fn trained_on(&self) -> String {
        match &self.made {
            #[cfg(feature = "cluster")]
            Made::InCluster(cluster) => crate::render::training::across_cluster(
                self.documents(),
                (cluster.processes, cluster.workers),
                &cluster.exchange,
            ),
            _ => format!("{} documents", self.documents()),
        }
    }
}

impl Train {
    /// Refuses what `placement` cannot do, before any work.
    pub fn check(&self, placement: &Placement) -> Result<()> {
        match placement {
            Placement::Local => Ok(()),
            #[cfg(feature = "cluster")]
            Placement::Cluster(_) => self.check_cluster(),
        }
    }

    /// Trains where `placement` says, telling `note` of every entry read and `on_trial` of a
    /// search's progress (trials done, trials planned). The model is `None` on the processes
    /// of a cluster other than process 0.
    pub fn run(
        self,
        placement: &Placement,
        note: Note,
        on_trial: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Option<Trained>> {
        self.check(placement)?;
        let corpus = self.corpus.clone();
        let trained = match placement {
            Placement::Local => self.here(&*note, on_trial).map(Some),
            #[cfg(feature = "cluster")]
            Placement::Cluster(cluster) => self.in_cluster(cluster, note),
        }?;
        match trained {
            Some(trained) => refuse_no_terms(trained, &corpus).map(Some),
            None => Ok(None),
        }
    }

    /// Trains in this process.
    fn here(
        self,
        note: &dyn Fn(&Entry),
        on_trial: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Trained> {
        let auto = matches!(
            self.builder.trainer_config().naive_bayes(),
            Some((_, Smoothing::Auto))
        );
        let source = Source::open(&self.corpus, &self.read)?;
        let mut reading = Reading::new(self.pipeline.clone()).on_entry(|entry| note(entry));
        let made = match self.settings.clone() {
            Settings::Tuned(options) => {
                let outcome = self
                    .builder
                    .tune(source, &mut reading, &options, on_trial)?;
                Made::Tuned(Box::new(outcome))
            }
            Settings::Given {
                multi_label,
                options,
            } => Made::Fitted(self.fit(source, &mut reading, &options, multi_label)?),
        };
        let trained = Trained {
            made,
            chosen_alpha: None,
        };
        let classifier = &trained.classifier().model().classifier;
        let chosen_alpha = (classifier.naive_bayes())
            .filter(|_| auto)
            .map(NaiveBayes::alpha);
        Ok(Trained {
            chosen_alpha,
            ..trained
        })
    }

    /// Fits the settings given, reading the corpus (already opened as `source`) once or twice.
    fn fit(
        self,
        source: Source,
        reading: &mut Reading,
        options: &MultiLabelOptions,
        multi_label: bool,
    ) -> Result<Fitted> {
        if !self.passes.twice(&self.corpus) {
            return self
                .builder
                .fit_labelled(source, reading, options, multi_label);
        }
        // The first reading is of the source already opened; the second opens the corpus again.
        let mut first = Some(source);
        let (corpus, read) = (&self.corpus, &self.read);
        let open = || first.take().map_or_else(|| Source::open(corpus, read), Ok);
        self.builder.fit_twice(open, reading, options, multi_label)
    }
}

#[cfg(feature = "cluster")]
impl Train {
    /// A cluster trains single-label models from a corpus path, untuned; CoCoA+ trains the SVM
    /// over a vocabulary.
    fn check_cluster(&self) -> Result<()> {
        let single_label = matches!(
            self.settings,
            Settings::Given {
                multi_label: false,
                ..
            }
        );
        let index = self.read.format == Some(crate::corpus::InputFormat::Index);
        if !single_label || index {
            return Err(crate::error::Error::Config(
                "cluster mode trains single-label models from a corpus path, untuned".into(),
            ));
        }
        let kind = self.builder.kind();
        let hashed = self.builder.vectorizer_config().hashing.is_some();
        if self.cocoa && (kind != crate::model::Kind::Svm || hashed) {
            return Err(crate::error::Error::Config(
                "--cocoa trains the SVM over a vocabulary; drop it, or --hash-bits".into(),
            ));
        }
        Ok(())
    }

    /// Trains across `cluster`: the model on process 0, `None` on the others.
    fn in_cluster(self, cluster: &crate::cluster::Cluster, note: Note) -> Result<Option<Trained>> {
        let (builder, corpus) = (&self.builder, self.corpus.as_path());
        let (read, pipeline) = (&self.read, &self.pipeline);
        let trained = if self.cocoa {
            let trained =
                crate::cluster::train_svm(cluster, builder, corpus, read, pipeline, note)?;
            trained.map(|t| InCluster::by_cocoa(t, cluster))
        } else {
            let trained = crate::cluster::train(cluster, builder, corpus, read, pipeline, note)?;
            trained.map(|t| InCluster::gathered(t, cluster))
        };
        Ok(trained.map(|trained| Trained {
            made: Made::InCluster(trained),
            chosen_alpha: None,
        }))
    }
}

/// A model trained across a cluster, and what its training exchanged.
#[cfg(feature = "cluster")]
#[derive(Debug)]
pub struct InCluster {
    /// The model.
    pub classifier: TextClassifier,
    /// The cluster's processes.
    pub processes: usize,
    /// Worker threads in each process.
    pub workers: usize,
    /// What crossed the network.
    pub exchange: Exchange,
}

#[cfg(feature = "cluster")]
pub use crate::cluster::Exchange;

#[cfg(feature = "cluster")]
impl InCluster {
    fn gathered(trained: crate::cluster::Trained, cluster: &crate::cluster::Cluster) -> Self {
        InCluster {
            classifier: trained.classifier,
            processes: cluster.processes(),
            workers: cluster.workers,
            exchange: Exchange::Gathered {
                bytes: trained.exchanged,
                method: trained.method,
            },
        }
    }

    fn by_cocoa(trained: crate::cluster::TrainedSvm, cluster: &crate::cluster::Cluster) -> Self {
        InCluster {
            classifier: trained.classifier,
            processes: cluster.processes(),
            workers: cluster.workers,
            exchange: Exchange::Cocoa {
                round_bytes: trained.round_bytes,
                vocabulary_bytes: trained.vocabulary_bytes,
                dual_objective: trained.dual_objectives.iter().sum(),
            },
        }
    }
}

/// A model whose documents held no term would give every document its class prior: a silent
/// result, refused instead. (Only the finished model is checked: a search's first rounds train
/// on shares of a few documents, which may hold no term.)
fn refuse_no_terms(trained: Trained, corpus: &Path) -> Result<Trained> {
    let model = trained.classifier().model();
    if model.vectorizer.df().iter().any(|&df| df > 0) {
        return Ok(trained);
    }
    Err(crate::Error::Config(format!(
        "{}: the {} documents hold no terms: each is empty, or its analysis (stop words, \
         character n-grams) removes every word; no model written",
        corpus.display(),
        trained.documents()
    )))
}
