//! `bowline serve`: models behind an HTTP API (axum on tokio), behind the cargo feature `serve`.
//!
//! - `POST /v1/models/{name}/classify` takes `{"texts": [...]}` or `{"documents": [{"id",
//!   "text"}]}` with optional `top_k` and `threshold`, and answers the predictions in input
//!   order with the model's name and version.
//! - `POST /v1/models/{name}/learn` takes `{"documents": [{"label", "text"}]}`: the same update
//!   as `bowline update`, through one writer per model (which learns the requests waiting for
//!   it as one update), published whole when done, and answered once durable in the write-ahead
//!   log `MODEL.wal` (see [`wal`](crate::model::wal)), whose documents a restart after a crash
//!   learns again.
//! - `POST /v1/models/{name}/reload`, a change of the file on disk, or [`Server::reload_all`]
//!   (SIGHUP in the program) load the file again, with the documents learned since the last
//!   checkpoint learned again on top; a bad file leaves the old model serving, and a file that
//!   cannot learn those documents is refused (409).
//! - `GET /v1/models`, `/healthz`, `/readyz`, `/metrics` (Prometheus text).
//!
//! Errors are `{"error": ...}` with a 4xx or 5xx status. Bodies and batches have size limits,
//! and a request that takes longer than the timeout, as a slow client sending its body does,
//! is answered 408 and its worker freed; a connection whose headers take longer is closed. On shutdown the requests in flight finish, then every
//! model with unsaved documents is checkpointed.
//!
//! Model files are mapped under read leases where the kernel grants them, and copied into
//! memory when another program comes to write one in place: the lease holds that program
//! until the copy is made.

mod api;
mod journal;
mod label;
mod lease;
mod listen;
mod metrics;
mod models;
mod queue;
mod state;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use tokio::signal::unix::{signal, Signal, SignalKind};
use tower_http::timeout::TimeoutLayer;

pub use api::{ApiError, ClassifyRequest, LearnRequest};
pub use label::serve_labelling;
pub use models::{named, Checkpoints};

use crate::error::{Error, Result};
use metrics::Metrics;
use models::Served;
pub use state::ServeConfig;
use state::Shared;

/// A bound server with its models loaded, ready to run.
#[derive(Debug, Clone)]
pub struct Server {
    shared: Arc<Shared>,
    listener: Arc<std::sync::Mutex<Option<tokio::net::TcpListener>>>,
    /// SIGIO, by which the kernel says that a leased model file is about to be written.
    lease_breaks: Arc<std::sync::Mutex<Option<Signal>>>,
    addr: SocketAddr,
}

impl Server {
    /// Loads every model and binds the address. The server runs in a multi-threaded tokio
    /// runtime: learning and reloading block their worker in place while they work.
    pub async fn bind(config: ServeConfig) -> Result<Self> {
        // SIGIO's default action ends the process, so it is handled before any lease is taken;
        // where it cannot be, models are read into memory instead.
        let lease_breaks = signal(SignalKind::io()).ok();
        let leases = lease_breaks.is_some();
        let mut models = Vec::new();
        for (name, path) in &config.models {
            if models.iter().any(|m: &Served| &m.name == name) {
                return Err(Error::Config(format!("two models are named '{name}'")));
            }
            models.push(Served::load(name.clone(), path.clone(), leases)?);
        }
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|e| Error::Config(format!("cannot listen on {}: {e}", config.addr)))?;
        let addr = listener
            .local_addr()
            .map_err(|e| Error::Config(format!("cannot listen on {}: {e}", config.addr)))?;
        let shared = Arc::new(Shared {
            config,
            models,
            metrics: Metrics::default(),
            stopping: AtomicBool::new(false),
        });
        Ok(Server {
            shared,
            listener: Arc::new(std::sync::Mutex::new(Some(listener))),
            lease_breaks: Arc::new(std::sync::Mutex::new(lease_breaks)),
            addr,
        })
    }

    /// The address it listens on (with the port chosen when port 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Reloads every model from its file; errors are logged and reported in the status.
    pub async fn reload_all(&self) {
        for served in &self.shared.models {
            let _ = served.reload().await;
        }
    }

    /// Serves until `shutdown` completes, then lets the requests in flight finish and
    /// checkpoints every model with unsaved documents.
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<()> {
        let listener = self
            .listener
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .ok_or_else(|| Error::Config("the server is already running".into()))?;
        let watcher = tokio::spawn(watch(Arc::clone(&self.shared)));
        let lease_breaks = self
            .lease_breaks
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
            .map(|signal| tokio::spawn(release_leases(Arc::clone(&self.shared), signal)));
        let shared = Arc::clone(&self.shared);
        let stopping = async move {
            shutdown.await;
            shared.stopping.store(true, Ordering::Relaxed);
            tracing::info!("shutting down: finishing the requests in flight");
        };
        let app = router(Arc::clone(&self.shared));
        listen::serve(listener, app, self.shared.config.timeout, stopping).await;
        watcher.abort();
        if let Some(task) = lease_breaks {
            task.abort();
        }
        for model in &self.shared.models {
            model.checkpoint().await?;
        }
        Ok(())
    }
}

/// Logs the server's events to stderr: only errors when `quiet`, every request when `verbose`.
pub fn log_serving(quiet: bool, verbose: bool) {
    let level = match (quiet, verbose) {
        (true, _) => tracing::Level::ERROR,
        (false, true) => tracing::Level::DEBUG,
        (false, false) => tracing::Level::INFO,
    };
    tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
}

/// A runtime of tokio's worker threads for a server.
fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Config(format!("cannot start the server's threads: {e}")))
}

/// Completes at the first SIGTERM or SIGINT, watched from the call on.
fn stop_signal() -> Result<impl Future<Output = ()>> {
    let signal_error = |e: std::io::Error| Error::Config(format!("cannot watch signals: {e}"));
    let mut terminate = signal(SignalKind::terminate()).map_err(signal_error)?;
    let mut interrupt = signal(SignalKind::interrupt()).map_err(signal_error)?;
    Ok(async move {
        tokio::select! {
            _ = terminate.recv() => tracing::info!("SIGTERM"),
            _ = interrupt.recv() => tracing::info!("SIGINT"),
        }
    })
}

/// Serves `config` on a runtime of its own until SIGTERM or SIGINT; SIGHUP reloads every
/// model. Prints the address, with the port chosen when port 0 was asked for, on stderr.
pub fn serve_until_stopped(config: ServeConfig) -> Result<()> {
    runtime()?.block_on(async move {
        let server = Server::bind(config).await?;
        let mut hangup = signal(SignalKind::hangup())
            .map_err(|e| Error::Config(format!("cannot watch signals: {e}")))?;
        let shutdown = stop_signal()?;
        let reloader = server.clone();
        tokio::spawn(async move {
            while hangup.recv().await.is_some() {
                tracing::info!("SIGHUP: reloading every model");
                reloader.reload_all().await;
            }
        });
        // Tests and scripts read the address, with the port chosen, from this line.
        eprintln!("bowline: listening on http://{}", server.local_addr());
        server.run(shutdown).await
    })
}

fn router(shared: Arc<Shared>) -> Router {
    let config = &shared.config;
    Router::new()
        .route("/v1/models", get(api::models))
        .route("/v1/models/{name}/classify", post(api::classify))
        .route("/v1/models/{name}/learn", post(api::learn))
        .route("/v1/models/{name}/reload", post(api::reload))
        .route("/healthz", get(|| async { "ok\n" }))
        .route("/readyz", get(api::ready))
        .route("/metrics", get(api::metrics))
        .fallback(api::not_found)
        .layer(axum::extract::DefaultBodyLimit::max(config.max_body_bytes))
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            config.timeout,
        ))
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&shared),
            record,
        ))
        .with_state(shared)
}

/// Counts every request in the metrics and logs it.
async fn record(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("(other)".to_string(), |p| p.as_str().to_string());
    let response = next.run(request).await;
    let status = response.status().as_u16();
    let latency = started.elapsed();
    shared.metrics.record(&route, status, latency);
    tracing::debug!(%route, status, micros = latency.as_micros() as u64, "request");
    response
}

/// Reloads models whose files changed, every `watch` interval.
async fn watch(shared: Arc<Shared>) {
    if shared.config.watch.is_zero() {
        return;
    }
    let mut ticks = tokio::time::interval(shared.config.watch);
    loop {
        ticks.tick().await;
        for served in &shared.models {
            served.reload_if_changed().await;
        }
    }
}

/// Copies into memory every model whose leased file another program waits to write, at each
/// SIGIO (the signal does not say which file).
async fn release_leases(shared: Arc<Shared>, mut lease_breaks: Signal) {
    while lease_breaks.recv().await.is_some() {
        for served in &shared.models {
            served.release_if_breaking().await;
        }
    }
}
