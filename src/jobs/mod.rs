//! What each command does, as a library job: a plain struct of inputs, settings and placement
//! that runs and returns its result. The program, `serve` and other front ends parse their own
//! input into a job, run it, and render what it returns; none holds a loop of its own.
//!
//! - [`classify`]: label files, folder trees or a stream, and answer one text as `serve` does.
//! - [`eval`]: a model's figures on a labelled corpus, with the curves' scores when asked.
//! - [`cv`]: k-fold cross-validation of a classifier, or the search of its settings.
//! - [`inspect`] and [`export`]: a model described as text or JSON, or written as JSON for other
//!   tools.
//! - [`merge`]: models of disjoint shards combined into one.
//! - [`update`]: a model taught more documents, here or across a cluster, and written back.
//! - [`train`]: a labelled corpus becomes a model, here or across a cluster, tuned or not.
//! - [`learn`]: a model learns a stream, test-then-train, and the checkpoint rule that `learn`
//!   and `serve` share.
//! - [`stream`]: documents from stdin at the pace they arrive, stopped cleanly on request.
//! - [`stats`]: every figure of a corpus report, from corpora or a corpus index.
//! - [`index`]: keep a corpus in a tantivy index analyzed by bowline's analyzer.
//! - [`vectorize`]: a corpus as an svmlight matrix, over columns fitted on it or saved before.
//! - [`select`]: greedy forward feature selection, and a model on the features selected.
//! - [`rank`]: the terms of a labelled corpus most tied to its classes.
//! - [`suggest`]: the pool documents whose labels would help a model most.

pub mod classify;
pub mod cv;
pub mod eval;
pub mod export;
pub mod index;
pub mod inspect;
pub mod label;
pub mod learn;
pub mod merge;
pub mod rank;
pub mod select;
pub mod settings;
pub mod stats;
pub mod stream;
pub mod suggest;
pub mod train;
pub mod update;
pub mod vectorize;

use std::sync::Arc;

use crate::corpus::Entry;
use crate::error::Result;
pub use crate::io::Output;

/// Where a job runs: in this process, or across the processes of a cluster. Every job decides
/// local or cluster by this value alone.
#[derive(Debug)]
pub enum Placement {
    /// In this process, on the pipeline's threads.
    Local,
    /// Across a cluster's processes (cargo feature `cluster`).
    #[cfg(feature = "cluster")]
    Cluster(crate::cluster::Cluster),
}

impl Placement {
    /// Whether this process writes the job's output: always here, only process 0 in a cluster.
    pub fn writes(&self) -> bool {
        self.process().is_none_or(|process| process == 0)
    }

    /// This process's number in a cluster; `None` when the job runs here alone.
    pub fn process(&self) -> Option<usize> {
        match self {
            Placement::Local => None,
            #[cfg(feature = "cluster")]
            Placement::Cluster(cluster) => Some(cluster.process),
        }
    }
}

/// Told of every entry a job reads, from whichever thread read it: how a front end reports
/// read warnings and counts documents.
pub type Note = Arc<dyn Fn(&Entry) + Send + Sync>;

/// Where a job writes its output, a result at a time.
pub trait Sink {
    /// Writes one result.
    fn write(&mut self, bytes: &[u8]) -> Result<()>;
    /// Hands what was written on to its reader, for output that a reader follows as it comes.
    fn flush(&mut self) -> Result<()>;
}

impl Sink for Output {
    fn write(&mut self, bytes: &[u8]) -> Result<()> {
        std::io::Write::write_all(self, bytes).map_err(|e| self.error(e))
    }

    fn flush(&mut self) -> Result<()> {
        std::io::Write::flush(self).map_err(|e| self.error(e))
    }
}

/// Output dropped: where a process that writes nothing sends it.
impl Sink for std::io::Sink {
    fn write(&mut self, _: &[u8]) -> Result<()> {
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        Ok(())
    }
}

/// Refuses an output that would overwrite one of a job's inputs or lie inside an input folder,
/// before any work starts; `-` (stdout) is never refused.
pub fn check_output(output: &std::path::Path, inputs: &[&std::path::Path]) -> Result<()> {
    crate::io::refuse_overwriting_inputs(output, inputs)
}

/// Writes a rendered report to the file at `path`, whole or not at all.
pub fn write_file(path: &std::path::Path, text: &str) -> Result<()> {
    crate::io::write_atomically(path, |out| std::io::Write::write_all(out, text.as_bytes()))
}
