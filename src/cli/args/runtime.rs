//! Threads and reporting.

use clap::Args;

use bowline::jobs::settings::{default_threads, PipelineConfig};
use bowline::Result;

/// Threads and reporting.
#[derive(Debug, Clone, Args)]
pub struct RuntimeArgs {
    /// Worker threads [default: all cores]. Staged mode gives each stage this many.
    #[arg(long, short = 'j', value_name = "N")]
    pub threads: Option<usize>,
    /// Run each analysis stage in its own threads instead of all stages in each thread.
    #[arg(long)]
    pub staged: bool,
    /// Documents per batch handed between threads.
    #[arg(long, default_value_t = 64, value_name = "N")]
    pub batch_size: usize,
    /// Print every warning, and at the end each pipeline stage's counters and timings, to stderr.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Print nothing but the error that stops a run: no summary, warnings or per-file errors.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

impl RuntimeArgs {
    /// The validated pipeline configuration, with rayon's pool sized to match: what every
    /// command that reads a corpus does before reading it.
    pub fn start(&self) -> Result<PipelineConfig> {
        crate::cli::log::set_level(self.quiet, self.verbose);
        let pipeline = self.pipeline()?;
        self.init_thread_pool();
        Ok(pipeline)
    }

    /// Sizes rayon's global pool, which runs the parallel matrix phases, to `--threads`. Only the
    /// first call in a process has an effect; later ones keep the pool that exists.
    fn init_thread_pool(&self) {
        let threads = self.threads.unwrap_or_else(default_threads).max(1);
        // An error means a pool already exists, which is fine.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
    }

    /// The pipeline configuration, validated.
    fn pipeline(&self) -> Result<PipelineConfig> {
        let threads = self.threads.unwrap_or_else(default_threads);
        let config = PipelineConfig {
            batch_size: self.batch_size,
            observer: crate::cli::log::stage_observer(),
            ..PipelineConfig::with_threads(!self.staged, threads)
        };
        config.validate()?;
        Ok(config)
    }
}
