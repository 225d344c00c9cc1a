//! Cluster settings as given: timely's workers, processes, this process's index and the host
//! file.

use std::path::PathBuf;
use std::time::Duration;

use crate::cluster::{read_host_file, Cluster};
use crate::error::Result;
use crate::jobs::Placement;

/// Cluster settings as a user gives them; when none is given, a job runs in this process.
#[derive(Debug, Clone, Default)]
pub struct ClusterFlags {
    /// Worker threads in each process [default: 1].
    pub workers: Option<usize>,
    /// Processes [default: the host file's addresses, or 1].
    pub processes: Option<usize>,
    /// This process's index [default: 0].
    pub process: Option<usize>,
    /// A file of `host:port` addresses, one per process.
    pub hostfile: Option<PathBuf>,
    /// How long to wait for the other processes.
    pub connect_timeout: Duration,
}

impl ClusterFlags {
    /// Where a job runs: here when no cluster setting was given, else across the cluster the
    /// settings describe.
    pub fn placement(&self) -> Result<Placement> {
        let given = self.workers.is_some()
            || self.processes.is_some()
            || self.process.is_some()
            || self.hostfile.is_some();
        if !given {
            return Ok(Placement::Local);
        }
        let addresses = self.hostfile.as_deref().map(read_host_file).transpose()?;
        let processes = self
            .processes
            .unwrap_or_else(|| addresses.as_ref().map_or(1, Vec::len));
        let mut cluster = Cluster::new(
            self.workers.unwrap_or(1),
            processes,
            self.process.unwrap_or(0),
            addresses,
        )?;
        cluster.connect_timeout = self.connect_timeout;
        Ok(Placement::Cluster(cluster))
    }
}
