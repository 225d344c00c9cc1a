//! What every handler shares: the server's settings and its models.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::metrics::Metrics;
use super::models::{Checkpoints, Served};

/// Everything the server needs, validated by the program from its flags.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The models, by name.
    pub models: Vec<(String, PathBuf)>,
    /// Request bodies larger than this are refused (413).
    pub max_body_bytes: usize,
    /// Documents in one request at most (413 beyond).
    pub max_batch: usize,
    /// A request not answered within this is answered 408; a connection whose request headers
    /// are not complete within this is closed.
    pub timeout: Duration,
    /// When learned documents are written to the model file.
    pub checkpoints: Checkpoints,
    /// How often model files are checked for changes; zero never.
    pub watch: Duration,
}

impl ServeConfig {
    /// A model as the program's arguments name it: `NAME=PATH`, or a path, named by its file
    /// stem.
    pub fn named_model(spec: &str) -> crate::Result<(String, PathBuf)> {
        super::models::named(spec)
    }
}

/// What every handler shares.
#[derive(Debug)]
pub(super) struct Shared {
    pub(super) config: ServeConfig,
    pub(super) models: Vec<Served>,
    pub(super) metrics: Metrics,
    pub(super) stopping: AtomicBool,
}
