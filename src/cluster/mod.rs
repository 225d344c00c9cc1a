//! Cluster mode: one command run by several processes (on one machine or many), each with
//! worker threads, connected by timely-dataflow (feature `cluster`).
//!
//! Every process reads the corpus from the same path. Each document belongs to exactly one
//! worker, chosen by a stable hash of its id (`Shard::owns`), and is read and analyzed only
//! there. Before any work the workers exchange their settings and refuse to run if they differ;
//! then each trains a naive Bayes model on its shard, the models are exchanged to worker 0 of
//! process 0, and reduced there by [`crate::model::merge`](mod@crate::model::merge), which is exact for the settings it
//! accepts. Process 0 writes the result; the others write nothing.

mod classify;
mod connect;
mod count;
mod exchange;
mod hosts;
mod stats;
mod svm;
mod train;

pub use classify::{classify, evaluate, Format, Scoring};
pub(crate) use count::{count_corpus, GatheredCounts};
pub(crate) use exchange::gather;
pub use exchange::{run, Gathered, Link, Settings};
pub use hosts::read_host_file;
pub use stats::stats;
pub(crate) use svm::{train_svm, TrainedSvm};
pub use train::{cross_validate, train, update, Exchange, Method, Trained};

use crate::corpus::Entry;
use crate::error::{Error, Result};

/// How the workers of a process tell of every entry they read (to log warnings and tally them).
pub type Note = std::sync::Arc<dyn Fn(&Entry) + Send + Sync>;

/// The first port of processes on 127.0.0.1 when no host file is given: process `p` listens on
/// `DEFAULT_PORT + p`, as timely's own examples do.
pub(crate) const DEFAULT_PORT: u16 = 2101;

/// Where this process stands in a cluster: timely's `-w`, `-n`, `-p` and `-h`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cluster {
    /// Worker threads in each process.
    pub workers: usize,
    /// This process's index, from 0.
    pub process: usize,
    /// Every process's `host:port`, in process order.
    pub addresses: Vec<String>,
    /// How long to wait for every process to connect before giving up.
    pub connect_timeout: std::time::Duration,
}

impl Cluster {
    /// A cluster of `processes` processes of `workers` workers each, of which this is
    /// `process`; `addresses` gives each process's `host:port` (from a host file), or when
    /// `None` the processes listen on 127.0.0.1 from port 2101 up.
    pub fn new(
        workers: usize,
        processes: usize,
        process: usize,
        addresses: Option<Vec<String>>,
    ) -> Result<Self> {
        if workers == 0 || processes == 0 {
            return Err(Error::Config(
                "a cluster needs at least one process and one worker".into(),
            ));
        }
        if process >= processes {
            return Err(Error::Config(format!(
                "process index {process} is not below the number of processes, {processes}"
            )));
        }
        let addresses = match addresses {
            Some(mut addresses) => {
                if addresses.len() < processes {
                    return Err(Error::Config(format!(
                        "the host file lists {} addresses, but {processes} processes need one each",
                        addresses.len()
                    )));
                }
                addresses.truncate(processes);
                addresses
            }
            None => (0..processes)
                .map(|p| format!("127.0.0.1:{}", usize::from(DEFAULT_PORT) + p))
                .collect(),
        };
        Ok(Cluster {
            workers,
            process,
            addresses,
            connect_timeout: std::time::Duration::from_secs(60),
        })
    }

    /// Processes in the cluster.
    pub fn processes(&self) -> usize {
        self.addresses.len()
    }
}

/// One worker's share of a corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shard {
    /// The worker's index in the cluster: process × workers per process + its thread.
    pub index: usize,
    /// Workers in the cluster.
    pub peers: usize,
}

impl Shard {
    /// Whether the document with `id` is this worker's. FNV-1a, not Rust's randomized hasher,
    /// so every process and every run agrees on the owner.
    pub(crate) fn owns(&self, id: &str) -> bool {
        let hash = id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, byte| {
            (h ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
        });
        hash % self.peers as u64 == self.index as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_document_has_exactly_one_owner_whatever_the_run() {
        for peers in 1..=5 {
            for id in ["a", "space/1.txt", "cooking/16-latin1.txt", "12", ""] {
                let owners = (0..peers).filter(|&index| Shard { index, peers }.owns(id));
                assert_eq!(owners.count(), 1, "{id} among {peers}");
            }
        }
        // FNV-1a of "a" is 0xaf63dc4c8601ec8c, which is 1 modulo 3 and 0 modulo 2: fixed
        // constants, not a hasher seeded per process.
        assert!(Shard { index: 1, peers: 3 }.owns("a"));
        assert!(Shard { index: 0, peers: 2 }.owns("a"));
    }

    #[test]
    fn a_cluster_without_host_file_listens_on_loopback_ports() {
        let cluster = Cluster::new(2, 3, 1, None).unwrap();
        assert_eq!(
            cluster.addresses,
            ["127.0.0.1:2101", "127.0.0.1:2102", "127.0.0.1:2103"]
        );
        assert_eq!((cluster.processes(), cluster.workers), (3, 2));
        assert!(Cluster::new(1, 2, 2, None).is_err());
        assert!(Cluster::new(0, 2, 0, None).is_err());
    }
}
