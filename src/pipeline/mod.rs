//! The pipeline runtime: worker threads joined by bounded channels. It knows nothing of text.
//!
//! A source thread cuts an iterator into numbered batches; each [`Stage`] runs in one or more
//! worker threads that take a batch from the channel before them and put it, transformed in place,
//! on the channel after them; the caller's thread runs the sink, which gets the batches back in
//! their original order. So the output never depends on the thread count.
//!
//! Guarantees:
//! - **Bounded memory.** The source takes a permit for each batch it sends and the sink returns it
//!   once the batch has been consumed, so at most `max_in_flight` batches exist at once, however
//!   large the input and however unevenly the workers run.
//! - **Errors stop everything.** A stage that returns an error or panics turns its batch into a
//!   failure message, which travels to the sink; the sink returns it, dropping its channel ends,
//!   and every other thread then finds its channel closed and exits. No thread stays blocked.
//! - **Fused mode** runs all stages one after another inside each worker: no hand-offs between
//!   threads, at the price of per-stage timing.

mod stats;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use crossbeam_channel::{bounded, Receiver, Sender, TryRecvError};

pub use stats::{StageObserver, StageStats};

use crate::error::{Error, Result};

/// One stage's work on a batch: transforms the items in place and returns how many output units
/// (tokens, for the analysis stages) the batch holds afterwards.
pub type StageFn<'a, T> = Box<dyn FnMut(&mut Vec<T>) -> Result<u64, String> + Send + 'a>;

/// A named stage. `make` is called once per worker, so each worker owns its state (a stem cache,
/// scratch buffers) and workers never share anything mutable.
pub struct Stage<'a, T> {
    name: &'static str,
    make: Box<dyn Fn() -> StageFn<'a, T> + 'a>,
}

impl<'a, T: 'a> Stage<'a, T> {
    /// A stage named `name` whose workers are built by `make`.
    pub fn new(name: &'static str, make: impl Fn() -> StageFn<'a, T> + 'a) -> Self {
        Stage {
            name,
            make: Box::new(make),
        }
    }

    /// The stage's name, as shown by `--verbose`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Builds one worker's function.
    pub fn worker(&self) -> StageFn<'a, T> {
        (self.make)()
    }

    /// All `stages` as one, run back to back on each batch; its unit count is the last stage's.
    pub(crate) fn fuse(stages: Vec<Stage<'a, T>>) -> Self {
        Stage::new("fused", move || {
            let mut parts: Vec<StageFn<'a, T>> = stages.iter().map(Stage::worker).collect();
            Box::new(move |batch: &mut Vec<T>| {
                let mut units = 0;
                for part in parts.iter_mut() {
                    units = part(batch)?;
                }
                Ok(units)
            })
        })
    }
}

/// How stages are laid out on threads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout {
    /// All stages in each of `workers` threads.
    Fused {
        /// Worker threads, at least 1.
        workers: usize,
    },
    /// Each stage in its own threads: `workers[i]` for stage `i`, the last count repeating for
    /// stages beyond the list.
    Staged {
        /// Worker threads per stage, each at least 1.
        workers: Vec<usize>,
    },
}

/// Runtime parameters, validated by [`PipelineConfig::validate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineConfig {
    /// Thread layout. Default: fused over all cores (see ARCHITECTURE.md for the measurement).
    pub layout: Layout,
    /// Items per batch, at least 1. Default 64.
    pub batch_size: usize,
    /// Batches alive at once, at least 1. Default: 4 per worker thread.
    pub max_in_flight: Option<usize>,
    /// Where every run adds its per-stage counters, when someone wants them: a command runs its
    /// pipelines deep inside library calls, and this is how `--verbose` sees them all.
    pub observer: Option<StageObserver>,
}

impl Default for PipelineConfig {
    fn default() -> Self {
        PipelineConfig {
            layout: Layout::Fused {
                workers: default_threads(),
            },
            batch_size: 64,
            max_in_flight: None,
            observer: None,
        }
    }
}

/// The number of cores, or 1 when it cannot be known.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Threads per stage at most: each holds buffers and a stack, and beyond the cores of the
/// largest machines more threads only wait on one another.
pub(crate) const MAX_THREADS: usize = 256;

impl PipelineConfig {
    /// A layout of `threads` threads in the given mode: fused uses `threads` workers; staged gives
    /// every stage `threads` workers.
    pub fn with_threads(fused: bool, threads: usize) -> Self {
        let layout = if fused {
            Layout::Fused { workers: threads }
        } else {
            Layout::Staged {
                workers: vec![threads],
            }
        };
        PipelineConfig {
            layout,
            ..PipelineConfig::default()
        }
    }

    /// Checks every parameter; the only place they are checked.
    pub fn validate(&self) -> Result<()> {
        let workers_ok = match &self.layout {
            Layout::Fused { workers } => *workers >= 1,
            Layout::Staged { workers } => !workers.is_empty() && workers.iter().all(|&w| w >= 1),
        };
        if !workers_ok {
            return Err(Error::Config(
                "--threads must be at least 1: every stage needs a thread".into(),
            ));
        }
        let most = match &self.layout {
            Layout::Fused { workers } => *workers,
            Layout::Staged { workers } => workers.iter().copied().max().unwrap_or(0),
        };
        if most > MAX_THREADS {
            return Err(Error::Config(format!(
                "--threads must be at most {MAX_THREADS} threads per stage, got {most}"
            )));
        }
        if self.batch_size == 0 || self.max_in_flight == Some(0) {
            return Err(Error::Config(
                "--batch-size must be at least 1, as must the batches in flight".into(),
            ));
        }
        Ok(())
    }

    /// True when all stages run together in each worker. Callers that build stages use it to
    /// pick a fused variant that only makes sense inside one worker (a memo across stages).
    pub fn is_fused(&self) -> bool {
        matches!(self.layout, Layout::Fused { .. })
    }

    fn workers_for(&self, stage: usize) -> usize {
        match &self.layout {
            Layout::Fused { workers } => *workers,
            Layout::Staged { workers } => workers[stage.min(workers.len() - 1)],
        }
    }
}

/// What travels on the channels.
enum Message<T> {
    Batch(u64, Vec<T>),
    Failed(Error),
}

/// Runs `source` through `stages` and hands each batch, in source order, to `sink`.
///
/// Returns per-stage statistics, or the first error from a stage or the sink.
pub fn run<'a, T, I, S>(
    config: &PipelineConfig,
    source: I,
    stages: Vec<Stage<'a, T>>,
    sink: S,
) -> Result<Vec<StageStats>>
where
    T: Send + 'a,
    I: Iterator<Item = T> + Send,
    S: FnMut(Vec<T>) -> Result<()>,
{
    let mut source = source.fuse();
    let batches = move |size: usize| source.by_ref().take(size).collect();
    run_batches(config, batches, stages, sink)
}

/// Runs like [`run`], taking items from a channel, for input that arrives at its own pace (a
/// pipe, a terminal): a batch leaves as soon as the channel has nothing more to give right now,
/// so a lone item is processed at once instead of waiting for a batch to fill, while fast input
/// still travels in full batches. The run ends when the channel is closed or yields `None`; the
/// items sent before that are all processed.
pub(crate) fn run_channel<'a, T, S>(
    config: &PipelineConfig,
    source: Receiver<Option<T>>,
    stages: Vec<Stage<'a, T>>,
    sink: S,
) -> Result<Vec<StageStats>>
where
    T: Send + 'a,
    S: FnMut(Vec<T>) -> Result<()>,
{
    let mut ended = false;
    let batches = move |size: usize| {
        let mut batch = Vec::new();
        while !ended && batch.len() < size {
            // Only the first item of a batch is waited for.
            let next = if batch.is_empty() {
                source.recv().ok()
            } else {
                match source.try_recv() {
                    Ok(item) => Some(item),
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => None,
                }
            };
            match next.flatten() {
                Some(item) => batch.push(item),
                None => ended = true,
            }
        }
        batch
    };
    run_batches(config, batches, stages, sink)
}

/// The runtime behind [`run`] and [`run_channel`]: `batches(size)` gives the next batch of at
/// most `size` items, empty at the end.
fn run_batches<'a, T, B, S>(
    config: &PipelineConfig,
    batches: B,
    stages: Vec<Stage<'a, T>>,
    mut sink: S,
) -> Result<Vec<StageStats>>
where
    T: Send + 'a,
    B: FnMut(usize) -> Vec<T> + Send,
    S: FnMut(Vec<T>) -> Result<()>,
{
    config.validate()?;
    let stages = match config.layout {
        Layout::Fused { .. } if !stages.is_empty() => vec![Stage::fuse(stages)],
        _ => stages,
    };
    let thread_count: usize = (0..stages.len()).map(|i| config.workers_for(i)).sum();
    let in_flight = config.max_in_flight.unwrap_or(4 * thread_count.max(1));
    std::thread::scope(|scope| {
        let (permit_tx, permit_rx) = bounded::<()>(in_flight);
        let (source_tx, mut rx) = bounded::<Message<T>>(in_flight);
        let source_stats =
            scope.spawn(move || feed(batches, config.batch_size, source_tx, permit_tx));
        let mut stage_threads = Vec::new();
        for (index, stage) in stages.iter().enumerate() {
            let (tx, next_rx) = bounded::<Message<T>>(in_flight);
            for _ in 0..config.workers_for(index) {
                let (rx, tx, work) = (rx.clone(), tx.clone(), stage.worker());
                let name = stage.name();
                stage_threads.push(scope.spawn(move || work_loop(name, work, rx, tx)));
            }
            rx = next_rx;
        }
        let outcome = drain(rx, permit_rx, &mut sink);
        let mut stats = vec![join_stats(source_stats)];
        stats.extend(stage_threads.into_iter().map(join_stats));
        let stats = StageStats::merge_by_name(stats);
        if let Some(observer) = &config.observer {
            observer.record(&stats);
        }
        outcome.map(|()| stats)
    })
}

/// Numbers the source's batches and sends them on, taking a permit for each.
fn feed<T>(
    mut batches: impl FnMut(usize) -> Vec<T>,
    batch_size: usize,
    tx: Sender<Message<T>>,
    permits: Sender<()>,
) -> StageStats {
    let mut stats = StageStats::new("source");
    let mut seq = 0;
    loop {
        let started = Instant::now();
        let batch = catch_unwind(AssertUnwindSafe(|| batches(batch_size)));
        stats.busy += started.elapsed();
        let message = match batch {
            Ok(batch) if batch.is_empty() => break,
            Ok(batch) => {
                stats.count(batch.len() as u64, 0);
                Message::Batch(seq, batch)
            }
            Err(panic) => Message::Failed(stage_error("source", panic_message(panic))),
        };
        let failed = matches!(message, Message::Failed(_));
        let waiting = Instant::now();
        if permits.send(()).is_err() || tx.send(message).is_err() || failed {
            break;
        }
        stats.send_wait += waiting.elapsed();
        seq += 1;
    }
    stats
}

/// One worker: receive, transform, send, until the input closes or the output is gone.
fn work_loop<T>(
    name: &'static str,
    mut work: StageFn<'_, T>,
    rx: Receiver<Message<T>>,
    tx: Sender<Message<T>>,
) -> StageStats {
    let mut stats = StageStats::new(name);
    loop {
        let waiting = Instant::now();
        let Ok(message) = rx.recv() else { break };
        stats.recv_wait += waiting.elapsed();
        let message = match message {
            Message::Batch(seq, mut batch) => {
                let started = Instant::now();
                let result = catch_unwind(AssertUnwindSafe(|| work(&mut batch)));
                stats.busy += started.elapsed();
                match result {
                    Ok(Ok(units)) => {
                        stats.count(batch.len() as u64, units);
                        Message::Batch(seq, batch)
                    }
                    Ok(Err(message)) => Message::Failed(stage_error(name, message)),
                    Err(panic) => Message::Failed(stage_error(name, panic_message(panic))),
                }
            }
            failed => failed,
        };
        // After a failure this worker's state may be inconsistent, so it stops; the failure
        // itself travels on to the sink, which stops the rest.
        let failed = matches!(message, Message::Failed(_));
        let waiting = Instant::now();
        if tx.send(message).is_err() || failed {
            break;
        }
        stats.send_wait += waiting.elapsed();
    }
    stats
}

/// Restores source order and feeds the sink, returning a permit per batch consumed.
fn drain<T, S: FnMut(Vec<T>) -> Result<()>>(
    rx: Receiver<Message<T>>,
    permits: Receiver<()>,
    sink: &mut S,
) -> Result<()> {
    let mut pending = BTreeMap::new();
    let mut next = 0u64;
    for message in rx {
        let (seq, batch) = match message {
            Message::Batch(seq, batch) => (seq, batch),
            Message::Failed(error) => return Err(error),
        };
        pending.insert(seq, batch);
        while let Some(batch) = pending.remove(&next) {
            catch_unwind(AssertUnwindSafe(|| sink(batch)))
                .map_err(|panic| stage_error("sink", panic_message(panic)))??;
            // The permit was taken by the source before it sent this batch, so one is there.
            let _ = permits.try_recv();
            next += 1;
        }
    }
    Ok(())
}

fn join_stats(handle: std::thread::ScopedJoinHandle<'_, StageStats>) -> StageStats {
    // Workers catch panics from stage code, so a join error would be a bug in the runtime itself;
    // it still must not take the caller down.
    handle
        .join()
        .unwrap_or_else(|_| StageStats::new("(panicked)"))
}

fn stage_error(stage: &str, message: String) -> Error {
    Error::Stage {
        stage: stage.to_string(),
        message,
    }
}

fn panic_message(panic: Box<dyn std::any::Any + Send>) -> String {
    let text = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned());
    format!(
        "panicked: {}",
        text.unwrap_or_else(|| "(no message)".into())
    )
}

#[cfg(test)]
mod tests;
