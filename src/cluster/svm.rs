//! The linear SVM trained by a cluster, by CoCoA+ (Ma et al. 2015, after Jaggi et al. 2014):
//! the training rows stay where they were read, and only weights travel.
//!
//! 1. **Vocabulary.** Each worker reads and counts the documents it owns; their terms, document
//!    frequencies and totals are added up at worker 0 of process 0 (integer sums, exact), which
//!    prunes and weighs them as one process would (min-df, max-df, max-features, idf) and sends
//!    the fitted vocabulary to every worker.
//! 2. **Rows.** Each worker weighs its own documents' counts by that vocabulary, keeping them in
//!    memory over the columns they use: the rows one process would train on, split by owner.
//! 3. **Rounds.** Each round, every worker makes a pass of dual coordinate descent over its rows
//!    on CoCoA+'s local subproblem (σ' = the number of workers, see
//!    [`crate::model::linear_svm::cocoa`]), and sends its change of the weights, Δw_k, on its
//!    columns, with its loss and dual terms at the round's start; worker 0 adds the changes up,
//!    judges each class's duality gap, and sends every worker the sum on its columns. A class
//!    stops when its gap is within [`DUALITY_GAP`] of its primal objective; all stop at the round
//!    cap (`--max-iterations`).
//! 4. **Model.** Worker 0 holds the weights over every column (it adds each round's sum as every
//!    worker does) and writes an ordinary SVM model. Its reservoir is a uniform sample of every
//!    training row with its dual variables: each worker samples its own rows, and worker 0
//!    merges the samples ([`Reservoir::merged`]), so `update` continues as after one process.
//!
//! A round costs one pass over each worker's rows (one process's pass, split K ways), a margin
//! over each row for the gap, and for each worker its Δw up and the sum down: the columns its
//! rows use times the classes still running, 4 bytes each, non-zero columns only (a bitmap marks
//! them); worker 0 also makes passes over the weights of every column and class. CoCoA+ keeps
//! each worker's step safe for any split by charging it σ' times the curvature, so more workers
//! take more rounds: on 20 Newsgroups, two processes spend about 1 s and 217 MB a round, and
//! reach one process's test accuracy within 0.05 points in 20 rounds, far from the duality
//! gap's stop (`benches/README.md`). It pays where the rows do not fit one machine. Where they
//! fit every worker but one process is too slow, giving each worker whole one-vs-rest problems
//! over every row would be exact with one exchange of the rows and one of the weights; that is
//! not done here.

mod vocabulary;
mod wire;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use self::vocabulary::{columns_in, ShardCounts, Vocabulary};
use super::train::settings;
use super::{run, Cluster, Link, Shard};
use crate::analyze::Analyzer;
use crate::classifier::Builder;
use crate::classifier::TextClassifier;
use crate::corpus::{Entry, ReadOptions};
use crate::error::{Error, Result};
use crate::flow::{fit_corpus, Source};
use crate::model::linear_svm::cocoa::{Coordinator, LocalProblem, StepTerms};
use crate::model::reservoir::{KeptRow, Reservoir};
use crate::model::{Classifier, Model, SvmParams, TrainingInfo};
use crate::pipeline::PipelineConfig;
use crate::vectorize::{
    count_rows, counting_config, matrix_row, weigh_rows, FittedCorpus, FittedVectorizer, Matrix,
};

/// An SVM trained by a cluster, on process 0.
#[derive(Debug)]
pub(crate) struct TrainedSvm {
    /// The classifier.
    pub classifier: TextClassifier,
    /// Bytes of the vocabulary phase: the workers' counts to worker 0 and the vocabulary back.
    pub vocabulary_bytes: u64,
    /// Bytes exchanged in each round, to worker 0 and back (its own messages included).
    pub round_bytes: Vec<u64>,
    /// Each class's dual objective reached (the maximized form; see
    /// [`crate::model::LinearSvm::dual_objectives`]).
    pub dual_objectives: Vec<f64>,
}

/// Local passes over a worker's rows per round. More passes per round solve the local
/// subproblem better, but measured on synthetic problems they saved no rounds: the rounds are
/// bound by σ', not by the local solve.
const PASSES: usize = 1;

/// Trains `builder`'s SVM on the corpus at `corpus` across `cluster` (see the module's
/// documentation): the classifier on process 0, `None` on the others. `note` is told of every
/// entry this process reads.
pub(crate) fn train_svm(
    cluster: &Cluster,
    builder: &Builder,
    corpus: &Path,
    options: &ReadOptions,
    pipeline: &PipelineConfig,
    note: super::Note,
) -> Result<Option<TrainedSvm>> {
    let Some((params, calibrate)) = builder.trainer_config().svm() else {
        return Err(Error::Config("train_svm trains the SVM".into()));
    };
    if calibrate {
        return Err(Error::Config(
            "cluster mode trains the SVM uncalibrated; --calibrate needs one process".into(),
        ));
    }
    if builder.vectorizer_config().hashing.is_some() {
        return Err(Error::Config(
            "CoCoA+ shares a vocabulary; train hashed terms without it".into(),
        ));
    }
    let job = Arc::new(Job {
        builder: builder.clone(),
        corpus: corpus.to_path_buf(),
        options: options.clone(),
        pipeline: pipeline.clone(),
        note,
        params,
    });
    run(cluster, settings(builder, corpus, options), move |link| {
        train_worker(link, &job)
    })
}

/// What every worker is given.
struct Job {
    builder: Builder,
    corpus: PathBuf,
    options: ReadOptions,
    pipeline: PipelineConfig,
    note: Arc<dyn Fn(&Entry) + Send + Sync>,
    params: SvmParams,
}

/// One worker's part, from reading its documents to (on worker 0) the model.
fn train_worker(link: &mut Link, job: &Job) -> Result<Option<TrainedSvm>> {
    let shard = link.shard();
    let (counted, vocabulary, mut root) = share_vocabulary(link, job, shard)?;
    let classes = vocabulary.classes.clone();
    let config = job.builder.vectorizer_config();
    let analysis = job.builder.analysis_config();
    let prepared = vocabulary
        .vectorizer(analysis, config)
        .and_then(|vectorizer| {
            let rows = weighed_rows(&counted, &vectorizer, &classes, &job.corpus)?;
            Ok((vectorizer, rows))
        });
    drop(counted);
    let (vectorizer, rows) = match prepared {
        Ok(prepared) => prepared,
        Err(error) => return Err(stop_everyone(link, error)),
    };
    let salt = (shard.index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let seed = job.params.seed.wrapping_add(salt);
    let k = classes.len();
    let (x, params) = (&rows.x, &job.params);
    let mut local = match LocalProblem::new(x, &rows.labels, k, params, shard.peers, seed) {
        Ok(local) => local,
        Err(error) => return Err(stop_everyone(link, error)),
    };
    let labels = &rows.labels;
    if let Some(root) = &mut root {
        root.start(vectorizer.terms().len(), k, job.params);
    }
    let round_bytes = rounds(link, &mut local, &rows, root.as_mut())?;
    let last = Final {
        parts: local.dual_parts(),
        reservoir: sample(&rows, &local, job.params.reservoir, seed),
        documents: documents_per_class(labels, k),
    };
    let mut trained = None;
    link.reduce(encode(&last), |gathered| {
        let root = root.ok_or_else(|| Error::Config("only worker 0 builds the model".into()))?;
        let (classifier, vocabulary_bytes, dual_objectives) =
            root.model(gathered, vectorizer, classes, job)?;
        trained = Some(TrainedSvm {
            classifier,
            vocabulary_bytes,
            round_bytes,
            dual_objectives,
        });
        Ok(vec![Vec::new(); shard.peers])
    })?;
    Ok(trained)
}

/// Phase 1: this worker's documents read and counted, the vocabulary every worker receives, and
/// on worker 0 what it keeps for the rounds.
fn share_vocabulary(
    link: &mut Link,
    job: &Job,
    shard: Shard,
) -> Result<(FittedCorpus, Vocabulary, Option<Root>)> {
    let counted = read_shard(job, shard);
    let mine = counted.as_ref().map_err(clone_error).and_then(|counted| {
        postcard::to_allocvec(&ShardCounts::of(counted))
            .map_err(|e| Error::Config(format!("cannot encode a worker's counts: {e}")))
    });
    let mut root = None;
    let reply = link.reduce(mine, |gathered| {
        let shards = gathered
            .iter()
            .map(|bytes| decode::<ShardCounts>(bytes, "a worker's counts"))
            .collect::<Result<Vec<_>>>()?;
        let (analysis, config) = (
            job.builder.analysis_config(),
            job.builder.vectorizer_config(),
        );
        let vocabulary = Vocabulary::fit(&shards, analysis, config, &job.corpus)?;
        let encoded = encode(&vocabulary)?;
        let sent = gathered.iter().map(|g| g.len()).sum::<usize>() + encoded.len() * shard.peers;
        root = Some(Root::new(&shards, &vocabulary, sent as u64));
        Ok(vec![encoded; shard.peers])
    })?;
    let vocabulary = decode(&reply, "the vocabulary")?;
    Ok((counted?, vocabulary, root))
}

/// The documents `shard` owns, read and counted over every term.
fn read_shard(job: &Job, shard: Shard) -> Result<FittedCorpus> {
    let mut source = Source::open(&job.corpus, &job.options)?;
    source.entries = Box::new(source.entries.filter(move |e| shard.owns(&e.doc.id)));
    let analyzer = Analyzer::new(job.builder.analysis_config().clone())?;
    let note = Arc::clone(&job.note);
    fit_corpus(source, &analyzer, &counting_config(), &job.pipeline, |e| {
        note(e)
    })
}

/// Sends `error` in place of this worker's next message, so that every worker stops with it
/// instead of waiting for that message; returns the error every worker stops with.
fn stop_everyone(link: &mut Link, error: Error) -> Error {
    match link.reduce(Err(error), Ok) {
        Err(error) => error,
        Ok(_) => Error::Config("a worker's error was lost on its way".into()),
    }
}

/// An error sent on while it is also kept, as text.
fn clone_error(error: &Error) -> Error {
    Error::Config(error.to_string())
}

/// A worker's training rows: weighted over the columns they use, numbered from 0 in the
/// vocabulary's order (`columns` gives each one's column in the vocabulary), with their class ids.
struct Rows {
    x: Matrix,
    labels: Vec<u32>,
    columns: Vec<u32>,
    /// 0 to the number of columns, the bias's row of a weight table last: the rows of this
    /// worker's messages.
    message_rows: Vec<u32>,
}

/// Phase 2: this worker's counts weighed by the vocabulary, as one process weighs every row.
fn weighed_rows(
    counted: &FittedCorpus,
    vectorizer: &FittedVectorizer,
    classes: &[String],
    corpus: &Path,
) -> Result<Rows> {
    let remap = columns_in(counted.vectorizer.terms(), vectorizer.terms());
    let columns: Vec<u32> = remap.iter().copied().filter(|&c| c != u32::MAX).collect();
    let all: Vec<usize> = (0..counted.labels.len()).collect();
    let weighted = weigh_rows(&counted.matrix, vectorizer, &remap, &all)?;
    let mut compact = vec![u32::MAX; vectorizer.terms().len()];
    (columns.iter().enumerate()).for_each(|(own, &c)| compact[c as usize] = own as u32);
    let x = count_rows(&weighted, &compact, &all, columns.len())?;
    let class_of: std::collections::HashMap<&str, u32> = (classes.iter().enumerate())
        .map(|(c, name)| (name.as_str(), c as u32))
        .collect();
    let labels = counted
        .labels
        .iter()
        .map(|label| label.as_deref().and_then(|l| class_of.get(l).copied()))
        .collect::<Option<Vec<u32>>>()
        .ok_or_else(|| Error::input(corpus, "training needs a label on every document"))?;
    let message_rows = (0..=columns.len() as u32).collect();
    Ok(Rows {
        x,
        labels,
        columns,
        message_rows,
    })
}

/// A worker's report of a round: each class's loss and dual terms at the round's start (see
/// [`Coordinator::judge`]) and what its step does to the dual terms; its Δw follows in the
/// message.
#[derive(Debug, Serialize, Deserialize)]
struct Report {
    losses: Vec<f64>,
    parts: Vec<f64>,
    steps: Vec<StepTerms>,
}

/// Worker 0's answer to a round: how many times to take each class's step
/// ([`Coordinator::scales`]), which classes have stopped, and whether the solve is over; the
/// summed Δw on the worker's columns follows in the message.
#[derive(Debug, Serialize, Deserialize)]
struct Answer {
    scales: Vec<f64>,
    converged: Vec<bool>,
    done: bool,
}

/// Phase 3: rounds until worker 0 says the solve is over. Returns the bytes of each round (on
/// worker 0; empty on the others).
fn rounds(
    link: &mut Link,
    local: &mut LocalProblem,
    rows: &Rows,
    mut root: Option<&mut Root>,
) -> Result<Vec<u64>> {
    let k = local.classes();
    let own = &rows.message_rows;
    let mut converged = vec![false; k];
    let mut round_bytes = Vec::new();
    for round in 1.. {
        let running: Vec<usize> = (0..k).filter(|&c| !converged[c]).collect();
        let (losses, parts) = (local.losses(), local.dual_parts());
        let delta = local.round(PASSES);
        let steps = local.step_terms();
        let report = Report {
            losses,
            parts,
            steps,
        };
        let mine = wire::encode(&report, &delta, k, own, &running);
        drop(delta);
        let reply = link.reduce(mine, |gathered| {
            let root = root
                .as_deref_mut()
                .ok_or_else(|| Error::Config("only worker 0 adds up the rounds".into()))?;
            let replies = root.round(round, &gathered, &running)?;
            let sent = gathered.iter().chain(&replies).map(|b| b.len() as u64);
            round_bytes.push(sent.sum());
            Ok(replies)
        })?;
        let mut sum = vec![0.0f32; own.len() * k];
        let answer: Answer = wire::decode_into(&reply, &mut sum, k, own, &running)?;
        local.apply(&sum, &answer.scales, &answer.converged);
        converged = answer.converged;
        if answer.done {
            break;
        }
    }
    Ok(round_bytes)
}

/// What worker 0 keeps for the rounds: each worker's columns in the vocabulary and the bias
/// (the rows of its messages), the round's sum, and the [`Coordinator`].
struct Root {
    message_rows: Vec<Vec<u32>>,
    vocabulary_bytes: u64,
    classes: usize,
    sum: Vec<f32>,
    coordinator: Option<Coordinator>,
}

impl Root {
    fn new(shards: &[ShardCounts], vocabulary: &Vocabulary, vocabulary_bytes: u64) -> Self {
        let features = vocabulary.features() as u32;
        let message_rows = shards
            .iter()
            .map(|shard| {
                let columns = columns_in(shard.terms(), vocabulary.terms());
                let used = columns.into_iter().filter(|&c| c != u32::MAX);
                used.chain([features]).collect()
            })
            .collect();
        Root {
            message_rows,
            vocabulary_bytes,
            classes: 0,
            sum: Vec::new(),
            coordinator: None,
        }
    }

    /// Starts the solve over `features` columns and `classes` classes.
    fn start(&mut self, features: usize, classes: usize, params: SvmParams) {
        self.classes = classes;
        self.sum = vec![0.0; (features + 1) * classes];
        self.coordinator = Some(Coordinator::new(features, classes, params));
    }

    /// Adds up round `round`'s reports, judges the state they describe, adds the sum to the
    /// weights, and makes each worker's answer.
    fn round(
        &mut self,
        round: usize,
        gathered: &[Vec<u8>],
        running: &[usize],
    ) -> Result<Vec<Vec<u8>>> {
        let Root {
            message_rows,
            classes: k,
            sum,
            coordinator,
            ..
        } = self;
        let coordinator = coordinator
            .as_mut()
            .ok_or_else(|| Error::Config("a round came before the solve started".into()))?;
        sum.fill(0.0);
        let (mut losses, mut parts) = (vec![0.0; *k], vec![0.0; *k]);
        let mut steps = vec![StepTerms::default(); *k];
        for (rows, bytes) in message_rows.iter().zip(gathered) {
            let report: Report = wire::decode_into(bytes, sum, *k, rows, running)?;
            (losses.iter_mut().zip(&report.losses)).for_each(|(a, b)| *a += b);
            (parts.iter_mut().zip(&report.parts)).for_each(|(a, b)| *a += b);
            (steps.iter_mut().zip(&report.steps)).for_each(|(a, &b)| *a = a.and(b));
        }
        coordinator.judge(round, &losses, &parts);
        let scales = coordinator.scales(sum, &steps);
        coordinator.add(sum, &scales);
        let answer = Answer {
            scales,
            converged: coordinator.converged(),
            done: coordinator.done(round),
        };
        let answers = message_rows.iter();
        answers
            .map(|rows| wire::encode(&answer, sum, *k, rows, running))
            .collect()
    }

    /// The model from every worker's last message: the weights reached, each class's documents,
    /// and the workers' samples merged. Returns it with the bytes of the vocabulary phase and
    /// each class's dual objective.
    fn model(
        self,
        gathered: Vec<Vec<u8>>,
        vectorizer: FittedVectorizer,
        classes: Vec<String>,
        job: &Job,
    ) -> Result<(TextClassifier, u64, Vec<f64>)> {
        let k = self.classes;
        let (mut parts, mut documents) = (vec![0.0; k], vec![0u64; k]);
        let mut samples = Vec::with_capacity(gathered.len());
        for bytes in &gathered {
            let last: Final = decode(bytes, "a worker's last message")?;
            (parts.iter_mut().zip(&last.parts)).for_each(|(a, b)| *a += b);
            (documents.iter_mut().zip(&last.documents)).for_each(|(a, b)| *a += b);
            samples.push(last.reservoir);
        }
        let reservoir = Reservoir::merged(samples, job.params.reservoir, job.params.seed);
        let coordinator = self
            .coordinator
            .ok_or_else(|| Error::Config("the solve never started".into()))?;
        let (svm, objectives) = coordinator.finish(&parts, reservoir)?;
        let corpus = job.corpus.display().to_string();
        let model = Model {
            vectorizer,
            labels: classes,
            classifier: Classifier::Svm(svm),
            info: TrainingInfo::now(vec![corpus], documents),
        };
        let classifier = TextClassifier::from_model(model)?;
        Ok((classifier, self.vocabulary_bytes, objectives))
    }
}

/// A worker's last message: each class's dual terms, its sample of rows, and its documents of
/// each class.
#[derive(Debug, Serialize, Deserialize)]
struct Final {
    parts: Vec<f64>,
    reservoir: Reservoir,
    documents: Vec<u64>,
}

/// A uniform sample of `capacity` of this worker's rows, in the vocabulary's columns, with their
/// dual variables.
fn sample(rows: &Rows, local: &LocalProblem, capacity: u32, seed: u64) -> Reservoir {
    let mut reservoir = Reservoir::new(capacity, seed);
    for (i, &label) in rows.labels.iter().enumerate() {
        reservoir.offer(|| {
            let (indices, values) = matrix_row(&rows.x, i);
            KeptRow {
                indices: indices.iter().map(|&j| rows.columns[j as usize]).collect(),
                values: values.iter().map(|&v| v as f32).collect(),
                label,
                alpha: local.row_alpha(i).into(),
            }
        });
    }
    reservoir
}

/// How many of `labels` fall in each of `classes` classes.
fn documents_per_class(labels: &[u32], classes: usize) -> Vec<u64> {
    let mut documents = vec![0u64; classes];
    labels.iter().for_each(|&c| documents[c as usize] += 1);
    documents
}

/// `value` in postcard.
fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>> {
    postcard::to_allocvec(value).map_err(|e| Error::Config(format!("cannot encode: {e}")))
}

/// `bytes` decoded from postcard; `what` names them in the error.
fn decode<T: for<'de> Deserialize<'de>>(bytes: &[u8], what: &str) -> Result<T> {
    postcard::from_bytes(bytes).map_err(|e| Error::Config(format!("{what} do not decode: {e}")))
}
