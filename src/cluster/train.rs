//! Training with a cluster: naive Bayes merged from the workers' models, or any classifier
//! trained by process 0 on the documents the workers counted.

use std::path::Path;
use std::sync::Arc;

use super::exchange::Settings;
use super::{count_corpus, gather, Cluster, GatheredCounts};
use crate::analyze::Analyzer;
use crate::classifier::{Builder, CvReport, Labelled, Reading, TextClassifier, Updated};
use crate::corpus::ReadOptions;
use crate::error::{Error, Result};
use crate::flow::Source;
use crate::model::merge::exact_settings;
use crate::model::{merge, Model, Part, Smoothing, TrainingInfo};
use crate::pipeline::PipelineConfig;
use crate::report::settings::{analysis_flags, weighting_flags};
use crate::vectorize::{counting_config, VectorizerConfig};

/// What every process of a training must be given alike: the command, corpus, classifier,
/// analysis, weighting, trainer and read options.
pub(super) fn settings(builder: &Builder, corpus: &Path, options: &ReadOptions) -> Settings {
    vec![
        ("the command".to_string(), "train".to_string()),
        ("the corpus".to_string(), corpus.display().to_string()),
        (
            "the classifier".to_string(),
            format!("{:?}", builder.kind()),
        ),
        (
            "the analysis".to_string(),
            analysis_flags(builder.analysis_config()),
        ),
        (
            "the weighting".to_string(),
            weighting_flags(builder.vectorizer_config()),
        ),
        // What the flags above leave out, such as a custom stop word list's words.
        (
            "the analysis in full".to_string(),
            format!("{:?}", builder.analysis_config()),
        ),
        (
            "the trainer".to_string(),
            format!("{:?}", builder.trainer_config()),
        ),
        ("the read options".to_string(), format!("{options:?}")),
    ]
}

/// A model trained by a cluster, on process 0.
#[derive(Debug)]
pub struct Trained {
    /// The classifier.
    pub classifier: TextClassifier,
    /// How the workers' work was combined.
    pub method: Method,
    /// Bytes sent to worker 0 of process 0, its own included.
    pub exchanged: u64,
}

/// How a cluster trains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Each worker trains naive Bayes on its documents and process 0 merges the models: what
    /// crosses the network grows with the workers' vocabularies, not with their documents.
    /// Exact under integer weights and no pruning (see [`crate::model::merge`](mod@crate::model::merge)).
    MergedModels,
    /// Each worker analyzes and counts its documents and process 0 fits the vocabulary and
    /// trains on all of them, as one process does: exact for every single-label classifier
    /// and setting, and what crosses the network grows with the documents.
    CountedDocuments,
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Method::MergedModels => "partial models",
            Method::CountedDocuments => "counted documents",
        })
    }
}

/// Trains `builder`'s classifier on the corpus at `corpus` across `cluster`, as training on
/// the whole corpus in one process does: naive Bayes under settings that merge exactly by
/// [`Method::MergedModels`], anything else by [`Method::CountedDocuments`]. Every process reads
/// the corpus; returns the classifier on process 0 and `None` on the others. `note` is told of
/// every entry this process reads (its workers' documents, as they come).
pub fn train(
    cluster: &Cluster,
    builder: &Builder,
    corpus: &Path,
    options: &ReadOptions,
    pipeline: &PipelineConfig,
    note: super::Note,
) -> Result<Option<Trained>> {
    // Smoothing chosen by leave-one-out needs the documents, which merged models do not hold.
    let merges = (builder.trainer_config().naive_bayes()).is_some_and(|(nb, smoothing)| {
        smoothing != Smoothing::Auto && exact_settings(nb, builder.vectorizer_config()).is_ok()
    });
    if merges {
        return train_merged(cluster, builder, corpus, options, pipeline, note);
    }
    let analyzer = Analyzer::new(builder.analysis_config().clone())?;
    let config = builder.counting_config();
    let counted = count_corpus(
        cluster,
        ("train", corpus),
        &analyzer,
        &config,
        options,
        pipeline,
        note,
    )?;
    let Some(GatheredCounts {
        counts, exchanged, ..
    }) = counted
    else {
        return Ok(None);
    };
    let fitted = builder.clone().fit_counted(counts, corpus)?;
    Ok(Some(Trained {
        classifier: fitted.classifier,
        method: Method::CountedDocuments,
        exchanged,
    }))
}

/// [`Method::MergedModels`].
fn train_merged(
    cluster: &Cluster,
    builder: &Builder,
    corpus: &Path,
    options: &ReadOptions,
    pipeline: &PipelineConfig,
    note: super::Note,
) -> Result<Option<Trained>> {
    let settings = settings(builder, corpus, options);
    let (work_builder, path, options, pipeline) = (
        builder.clone(),
        corpus.to_path_buf(),
        options.clone(),
        pipeline.clone(),
    );
    let gathered = gather(cluster, settings, move |shard| {
        let mut source = Source::open(&path, &options)?;
        source.entries = Box::new(source.entries.filter(move |e| shard.owns(&e.doc.id)));
        let note = Arc::clone(&note);
        let mut reading = Reading::new(pipeline.clone()).on_entry(move |entry| note(entry));
        let part = work_builder.clone().fit_part(source, &mut reading)?;
        part.map_or(Ok(Vec::new()), |model| model.to_bytes())
    })?;
    let Some(payloads) = gathered else {
        return Ok(None);
    };
    let mut parts = Vec::new();
    for (worker, bytes) in payloads.iter().enumerate() {
        if !bytes.is_empty() {
            let name = format!("worker {worker}");
            let model = Model::from_bytes(bytes, Path::new(&name))?;
            parts.push(Part { name, model });
        }
    }
    let mut model = merge(&parts)?;
    if model.labels.len() < 2 {
        return Err(Error::input(corpus, "training needs at least two classes"));
    }
    let docs_per_class = std::mem::take(&mut model.info.docs_per_class);
    model.info = TrainingInfo::now(vec![corpus.display().to_string()], docs_per_class);
    let exchanged = payloads.iter().map(|p| p.len() as u64).sum();
    let classifier = TextClassifier::from_model(model)?;
    Ok(Some(Trained {
        classifier,
        method: Method::MergedModels,
        exchanged,
    }))
}

/// Teaches `classifier` the labelled documents of the corpus at `corpus` across `cluster`, as
/// [`TextClassifier::update_source`] does in one process: the workers analyze and count their
/// documents with the model's analysis, and process 0 updates the model with all of them. Every
/// process loads the model; process 0 returns what was learned, the others `None` (and leave
/// their copy as it was).
pub fn update(
    cluster: &Cluster,
    classifier: &mut TextClassifier,
    corpus: &Path,
    options: &ReadOptions,
    pipeline: &PipelineConfig,
    note: super::Note,
) -> Result<Option<Updated>> {
    let analyzer = classifier.analyzer().clone();
    let config = classifier.update_config();
    let counted = count_corpus(
        cluster,
        ("update", corpus),
        &analyzer,
        &config,
        options,
        pipeline,
        note,
    )?;
    let Some(GatheredCounts {
        counts, label_sets, ..
    }) = counted
    else {
        return Ok(None);
    };
    classifier
        .update_counted(counts, &label_sets, corpus)
        .map(Some)
}

/// Cross-validates `builder`'s classifier on the corpus at `corpus` across `cluster`, as
/// [`Builder::cross_validate`] does in one process: the workers analyze and count their
/// documents, and process 0 fits and scores the folds on all of them. Process 0 returns the
/// report, the others `None`.
pub fn cross_validate(
    cluster: &Cluster,
    builder: &Builder,
    corpus: &Path,
    (options, pipeline): (&ReadOptions, &PipelineConfig),
    (folds, seed): (usize, u64),
    note: super::Note,
) -> Result<Option<CvReport>> {
    let analyzer = Analyzer::new(builder.analysis_config().clone())?;
    let config = VectorizerConfig {
        hashing: builder.vectorizer_config().hashing,
        ..counting_config()
    };
    let counted = count_corpus(
        cluster,
        ("cv", corpus),
        &analyzer,
        &config,
        options,
        pipeline,
        note,
    )?;
    let Some(GatheredCounts { counts, .. }) = counted else {
        return Ok(None);
    };
    let labelled = Labelled::counted(counts, &analyzer, corpus, "cross-validation")?;
    builder
        .cross_validate_labelled(&labelled, folds, seed)
        .map(Some)
}

/// What a cluster's training sent between its workers.
#[derive(Debug, Clone, PartialEq)]
pub enum Exchange {
    /// The workers' partial models or counted documents, gathered on process 0.
    Gathered {
        /// Bytes sent to worker 0 of process 0, its own included.
        bytes: u64,
        /// What was gathered.
        method: Method,
    },
    /// CoCoA+ rounds of weight changes.
    Cocoa {
        /// Bytes exchanged in each round.
        round_bytes: Vec<u64>,
        /// Bytes of the vocabulary phase.
        vocabulary_bytes: u64,
        /// The dual objective reached, summed over the classes.
        dual_objective: f64,
    },
}
