//! `bowline serve`: flags → [`ServeConfig`], a tokio runtime, the signals, and
//! [`bowline::Server`].

use bowline::jobs::settings::seconds;
use std::net::SocketAddr;

use clap::Args;

use super::Outcome;
use bowline::jobs::learn::Checkpoints;
use bowline::{Error, Result, ServeConfig};

/// Flags of `bowline serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Model files to serve, each under its file stem, or NAME=PATH to name it.
    #[arg(required = true, value_name = "MODEL")]
    pub models: Vec<String>,
    /// The address to listen on (port 0 picks a free port, printed at start).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Request bodies larger than this many bytes are refused (413).
    #[arg(long, default_value_t = 16 << 20, value_name = "BYTES")]
    pub max_body_bytes: usize,
    /// Documents in one request at most (413 beyond).
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    pub max_batch: usize,
    /// Seconds a request may take, body upload included, before it is answered 408 (a
    /// connection still sending its headers is closed).
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    pub timeout: f64,
    /// Write a model's file after this many learned documents...
    // The write-ahead log makes each document durable; a checkpoint only bounds what start-up
    // learns again from the log and keeps the file current for other readers, so it need not
    // come often: at 1,000 the file writes took a third of learning's time (benches/learn.sh).
    #[arg(long, default_value_t = 10_000, value_name = "N")]
    pub checkpoint_every: u64,
    /// ...or at the first learn this many seconds after the last write (and always on shutdown).
    #[arg(long, default_value_t = 60.0, value_name = "SECONDS")]
    pub checkpoint_secs: f64,
    /// Seconds between checks of the model files for changes, which are reloaded; 0 never.
    #[arg(long, default_value_t = 2.0, value_name = "SECONDS")]
    pub watch_secs: f64,
    /// Log every request.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Log only errors.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

impl ServeArgs {
    fn config(&self) -> Result<ServeConfig> {
        let models = self
            .models
            .iter()
            .map(|m| ServeConfig::named_model(m))
            .collect::<Result<_>>()?;
        let timeout = seconds(self.timeout, "--timeout")?;
        if timeout.is_zero() || self.max_batch == 0 || self.max_body_bytes == 0 {
            return Err(Error::Config(
                "--timeout, --max-batch and --max-body-bytes must be above 0".into(),
            ));
        }
        Ok(ServeConfig {
            addr: self.addr,
            models,
            max_body_bytes: self.max_body_bytes,
            max_batch: self.max_batch,
            timeout,
            checkpoints: Checkpoints {
                every: self.checkpoint_every.max(1),
                interval: seconds(self.checkpoint_secs, "--checkpoint-secs")?,
            },
            watch: seconds(self.watch_secs, "--watch-secs")?,
        })
    }
}

/// Runs the server until SIGTERM or SIGINT; SIGHUP reloads every model.
pub fn run(args: ServeArgs) -> Result<Outcome> {
    bowline::log_serving(args.quiet, args.verbose);
    bowline::serve_until_stopped(args.config()?)?;
    tracing::info!("stopped");
    Ok(Outcome::Clean)
}
