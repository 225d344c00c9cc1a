//! The cluster flags (timely's `-w`, `-n`, `-p`, `-h`) shared by the commands that run in
//! cluster mode, and the watchdog that stops a process whose peer is lost.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use bowline::jobs::settings::ClusterFlags;
use bowline::jobs::Placement;
use bowline::Result;

/// Cluster mode: the same command started once per process, every process reading the same
/// corpus path. Giving any of these flags runs the command in cluster mode.
#[derive(Debug, Args)]
#[command(next_help_heading = "Cluster mode (timely-dataflow)")]
pub struct ClusterArgs {
    /// Worker threads in each process; each document belongs to one worker [default: 1].
    #[arg(long, value_name = "N")]
    pub workers: Option<usize>,
    /// Processes in the cluster [default: 1]. Start the same command once per process, each
    /// reading the same corpus paths; each worker reads and analyzes the documents it owns (by
    /// a hash of their ids). Every command writes exactly what one process writes: `classify`
    /// every result once, in input order. `train` (single-label, untuned) merges the workers'
    /// naive Bayes models, as `bowline merge` does, under integer weights (--tf count --idf
    /// none --norm none; bnb: any idf but plain) and no pruning (--min-df 1); trains the SVM by
    /// CoCoA+ with --cocoa; otherwise process 0 fits and trains on the documents the workers
    /// counted.
    #[arg(long, value_name = "N")]
    pub processes: Option<usize>,
    /// This process's index, from 0; process 0 writes the output, the others nothing
    /// [default: 0].
    #[arg(long, value_name = "INDEX")]
    pub process: Option<usize>,
    /// A file of one host:port per line, process 0's first [default: process P listens on
    /// 127.0.0.1:2101+P].
    #[arg(long, value_name = "FILE")]
    pub hostfile: Option<PathBuf>,
    /// Seconds to wait for every process to connect.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub connect_timeout: u64,
}

impl ClusterArgs {
    /// Where the command runs: here, or across the cluster the flags describe, whose processes
    /// stop when a peer is lost.
    pub fn placement(&self) -> Result<Placement> {
        let placement = ClusterFlags {
            workers: self.workers,
            processes: self.processes,
            process: self.process,
            hostfile: self.hostfile.clone(),
            connect_timeout: Duration::from_secs(self.connect_timeout),
        }
        .placement()?;
        if placement.process().is_some() {
            stop_when_a_peer_is_lost();
        }
        Ok(placement)
    }
}

/// timely's network threads (named `timely:send-P` and `timely:recv-P` for peer process P)
/// panic when the connection to P breaks, and the workers waiting on P might then wait forever.
/// This hook turns such a panic into a message naming P and exit status 2, at once: outputs are
/// written atomically by process 0 at the very end, so nothing partial is left.
fn stop_when_a_peer_is_lost() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let thread = std::thread::current();
        let name = thread.name().unwrap_or_default();
        let peer =
            (name.strip_prefix("timely:recv-")).or_else(|| name.strip_prefix("timely:send-"));
        let Some(peer) = peer else {
            return default(info);
        };
        let payload = info.payload();
        let cause = (payload.downcast_ref::<String>().map(String::as_str))
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("connection lost");
        eprintln!("bowline: lost process {peer} ({cause}); stopping without writing anything");
        std::process::exit(2);
    }));
}
