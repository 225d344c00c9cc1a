//! Per-stage counters, printed by `--verbose`.

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
    pub fn merge_by_name(workers: Vec<StageStats>) -> Vec<StageStats> {
        let mut merged: Vec<StageStats> = Vec::new();
        for stats in workers {
            match merged.iter_mut().find(|m| m.name == stats.name) {
                Some(m) => {
                    m.workers += stats.workers;
                    m.batches += stats.batches;
                    m.items += stats.items;
                    m.units += stats.units;
                    m.busy += stats.busy;
                    m.recv_wait += stats.recv_wait;
                    m.send_wait += stats.send_wait;
                }
                None => merged.push(stats),
            }
        }
        merged
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
