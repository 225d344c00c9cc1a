//! The `bowline` command: parses arguments, runs the library, maps the outcome to an exit code.
//!
//! Exit codes: 0 on success (and when stdout is closed early, as by `| head`); 1 when the run
//! finished but some input files or lines could not be used (each was reported); 2 on an error
//! that stopped the run (bad flags, missing corpus, unwritable output); 128 + the signal number
//! when SIGINT or SIGTERM stopped a stream after its documents in flight were written.

use std::process::ExitCode;

use clap::Parser;

use bowline::cli::{self, Cli, Outcome};

fn main() -> ExitCode {
    return_freed_memory_at_once();
    let cli = Cli::parse();
    match cli::run(cli) {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::Partial(failed)) => {
            eprintln!("bowline: {failed} input(s) could not be read; see the errors above");
            ExitCode::from(1)
        }
        Ok(Outcome::Interrupted(signal)) => ExitCode::from((128 + signal).clamp(0, 255) as u8),
        Err(error) if error.is_broken_pipe() => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("bowline: {error}");
            ExitCode::from(2)
        }
    }
}

// mimalloc made `vectorize` on 20news 1.47x faster than the system allocator (hyperfine, 12 runs
// each): the pipeline allocates and frees per-document buffers on several threads at once.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc 3 keeps pages that became free for a second (its `purge_delay` option, 1000 ms)
/// before handing them back to the system, so a run's peak memory counted nearly everything
/// freed in the last second. With no delay, training the SVM on 20 Newsgroups peaked at 182 MiB
/// instead of 278 (means of 6 runs, alternating) in the same time (2.73 s against 2.75 s median),
/// and `vectorize` at 82 MiB instead of 152. Loading and classifying with a 41 MB model took the
/// same time either way (149 ms median). `MIMALLOC_PURGE_DELAY` still overrides this.
fn return_freed_memory_at_once() {
    // mimalloc numbers its options in `mi_option_e` and does not export a constant for this one;
    // its default value, checked first, confirms that number before anything is changed.
    const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    const DEFAULT_DELAY: std::os::raw::c_long = 1000;
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // SAFETY: both calls only read or write one of mimalloc's option slots; this runs first in
    // `main`, before any other thread exists, as the functions require.
    unsafe {
        if libmimalloc_sys::mi_option_get(PURGE_DELAY) == DEFAULT_DELAY {
            libmimalloc_sys::mi_option_set(PURGE_DELAY, 0);
        }
    }
}
