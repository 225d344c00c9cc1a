//! Naive Bayes trained by a cluster: each worker trains on its shard, worker 0 merges.

use std::path::Path;
use std::sync::Arc;

use super::exchange::Settings;
use super::{gather, Cluster};
use crate::classifier::{Builder, Reading, TextClassifier};
use crate::corpus::{Entry, ReadOptions};
use crate::error::{Error, Result};
use crate::flow::Source;
use crate::model::merge::exact_settings;
use crate::model::{merge, Model, Part, TrainingInfo};
use crate::pipeline::PipelineConfig;
use crate::report::settings::{analysis_flags, weighting_flags};

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
    /// The merged classifier.
    pub classifier: TextClassifier,
    /// Bytes of the partial models sent to worker 0 of process 0, its own included.
    pub exchanged: u64,
}

/// Trains `builder`'s naive Bayes on the corpus at `corpus` across `cluster`: every process
/// reads the corpus, each worker trains on the documents it owns, and worker 0 of process 0
/// merges the models into the one that training on the whole corpus in one process gives.
/// Returns the classifier on process 0 and `None` on the others. Refused for other kinds, and
/// for settings under which the merge would not be exact (see [`crate::model::merge`](mod@crate::model::merge)).
/// `note` is told of every entry this process reads (its workers' documents, as they come).
pub fn train(
    cluster: &Cluster,
    builder: &Builder,
    corpus: &Path,
    options: &ReadOptions,
    pipeline: &PipelineConfig,
    note: Arc<dyn Fn(&Entry) + Send + Sync>,
) -> Result<Option<Trained>> {
    let Some(nb) = builder.kind().naive_bayes() else {
        return Err(Error::Config(format!(
            "cluster mode trains naive Bayes (mnb, cnb, bnb); {} is trained in one process",
            builder.kind().name()
        )));
    };
    exact_settings(nb, builder.vectorizer_config()).map_err(|why| {
        Error::Config(format!(
            "cluster mode trains naive Bayes exactly only {why}"
        ))
    })?;
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
        exchanged,
    }))
}
