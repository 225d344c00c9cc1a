//! Per-stage counters, printed by `--verbose`.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// What one stage (all its workers together) did during a run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageStats {
    /// The stage's name (`source` for the thread that reads the input).
    pub name: &'static str,
    /// Worker threads that ran it.
    pub workers: usize,
    /// Batches processed.
    pub batches: u64,
    /// Items (documents) processed.
    pub items: u64,
    /// Output units reported by the stage (tokens for the analysis stages).
    pub units: u64,
    /// Time spent in the stage's own code, summed over workers.
    pub busy: Duration,
    /// Time spent waiting for input.
    pub recv_wait: Duration,
    /// Time spent waiting for room downstream.
    pub send_wait: Duration,
}

impl StageStats {
    /// Zeroed counters for one worker of `name`.
    pub fn new(name: &'static str) -> Self {
        StageStats {
            name,
            workers: 1,
            batches: 0,
            items: 0,
            units: 0,
            busy: Duration::ZERO,
            recv_wait: Duration::ZERO,
            send_wait: Duration::ZERO,
        }
    }

    /// Counts one batch.
    pub fn count(&mut self, items: u64, units: u64) {
        self.batches += 1;
        self.items += items;
        self.units += units;
    }

    /// Sums the workers of each stage, keeping the stages in pipeline order.
    pub(crate) fn merge_by_name(workers: Vec<StageStats>) -> Vec<StageStats> {
        let mut merged: Vec<StageStats> = Vec::new();
        for stats in workers {
            match merged.iter_mut().find(|m| m.name == stats.name) {
                Some(m) => {
                    m.workers += stats.workers;
                    m.add_work(&stats);
                }
                None => merged.push(stats),
            }
        }
        merged
    }

    /// Adds `other`'s batches, items, units and times to these.
    fn add_work(&mut self, other: &StageStats) {
        self.batches += other.batches;
        self.items += other.items;
        self.units += other.units;
        self.busy += other.busy;
        self.recv_wait += other.recv_wait;
        self.send_wait += other.send_wait;
    }

    /// A table of all stages, for `--verbose`.
    pub fn table(stages: &[StageStats]) -> String {
        let mut out = format!(
            "{:<10} {:>7} {:>9} {:>11} {:>9} {:>10} {:>10}\n",
            "stage", "threads", "docs", "tokens", "busy s", "recv-wait", "send-wait"
        );
        for s in stages {
            out.push_str(&format!(
                "{:<10} {:>7} {:>9} {:>11} {:>9.3} {:>10.3} {:>10.3}\n",
                s.name,
                s.workers,
                s.items,
                s.units,
                s.busy.as_secs_f64(),
                s.recv_wait.as_secs_f64(),
                s.send_wait.as_secs_f64()
            ));
        }
        out
    }
}

/// The counters of every pipeline run that shares it, summed stage by stage. Clones share one
/// tally, so a configuration cloned into a library call still reports to its owner.
#[derive(Debug, Clone, Default)]
pub struct StageObserver(Arc<Mutex<Observed>>);

#[derive(Debug, Default)]
struct Observed {
    runs: u64,
    stages: Vec<StageStats>,
}

impl StageObserver {
    /// Adds one run's counters.
    pub(crate) fn record(&self, run: &[StageStats]) {
        let mut observed = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        observed.runs += 1;
        for stage in run {
            match observed.stages.iter_mut().find(|s| s.name == stage.name) {
                // Runs follow one another, so their threads are not added up.
                Some(total) => {
                    total.workers = total.workers.max(stage.workers);
                    total.add_work(stage);
                }
                None => observed.stages.push(stage.clone()),
            }
        }
    }

    /// How many runs were recorded, and their counters summed by stage in pipeline order.
    pub fn totals(&self) -> (u64, Vec<StageStats>) {
        let observed = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        (observed.runs, observed.stages.clone())
    }
}

/// Configurations are equal whatever they report to: observing a run does not change it.
impl PartialEq for StageObserver {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for StageObserver {}
