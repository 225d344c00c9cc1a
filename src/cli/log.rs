//! Reporting what was read: warnings as they happen, in input order, and a summary at the end.
//!
//! `-q` silences every message that does not stop the run. Otherwise errors on single files or
//! lines are all printed, warnings only the first [`SHOWN`] (a corpus with thousands of
//! Windows-1252 files would bury everything else), and the summary says how many more there
//! were; `-v` prints them all.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

use bowline::corpus::{warnings, Entry, ReadCounts};
use bowline::pipeline::{StageObserver, StageStats};

use super::Outcome;

/// Warnings printed before the rest are only counted.
const SHOWN: u64 = 5;

const QUIET: u8 = 0;
const NORMAL: u8 = 1;
const VERBOSE: u8 = 2;

/// How much the run prints, from `-q` and `-v`; set once, before any input is read.
static LEVEL: AtomicU8 = AtomicU8::new(NORMAL);

/// Sets how much the run prints.
pub fn set_level(quiet: bool, verbose: bool) {
    let level = match (quiet, verbose) {
        (true, _) => QUIET,
        (false, true) => VERBOSE,
        (false, false) => NORMAL,
    };
    LEVEL.store(level, Ordering::Relaxed);
}

/// Where a run that could not read some inputs sends the user for the errors: above, unless
/// `-q` kept them from being printed.
pub fn where_errors_are() -> &'static str {
    if LEVEL.load(Ordering::Relaxed) == QUIET {
        "run without -q to see why"
    } else {
        "see the errors above"
    }
}

/// The tally of every pipeline run of a verbose run: the one observer all its configurations
/// share, so that the counters of pipelines run inside library calls are seen too.
static STAGES: OnceLock<StageObserver> = OnceLock::new();

/// What a pipeline configuration reports its runs to: the run's observer when it is verbose.
pub fn stage_observer() -> Option<StageObserver> {
    let verbose = LEVEL.load(Ordering::Relaxed) == VERBOSE;
    verbose.then(|| STAGES.get_or_init(StageObserver::default).clone())
}

/// Prints the counters of every pipeline the run ran, summed by stage, when it is verbose.
pub fn print_stage_totals() {
    let Some(observer) = STAGES.get() else {
        return;
    };
    let (runs, stages) = observer.totals();
    if runs > 0 {
        let plural = if runs == 1 { "" } else { "s" };
        eprint!(
            "pipeline stages, {runs} run{plural}:\n{}",
            StageStats::table(&stages)
        );
    }
}

/// Prints a message that does not stop the run (a warning, an error on one input), unless the
/// run is quiet.
pub fn warn(message: &str) {
    if LEVEL.load(Ordering::Relaxed) != QUIET {
        eprintln!("bowline: {message}");
    }
}

/// Counts entries and prints their warnings to stderr.
#[derive(Debug, Default)]
pub struct ReadLog {
    /// The tallies so far.
    pub counts: ReadCounts,
    max_doc_bytes: u64,
    /// Warnings met so far, printed or not.
    warnings: u64,
    /// A progress bar to print through, so that messages do not cut across it.
    bar: Option<indicatif::ProgressBar>,
}

impl ReadLog {
    /// A log for inputs read with the given size limit (named in truncation warnings).
    pub fn new(max_doc_bytes: u64) -> Self {
        ReadLog {
            max_doc_bytes,
            ..ReadLog::default()
        }
    }

    /// Prints through `bar` from now on.
    pub fn print_through(&mut self, bar: indicatif::ProgressBar) {
        self.bar = Some(bar);
    }

    /// Counts one entry and prints its messages, as the level allows.
    pub fn note(&mut self, entry: &Entry) {
        self.counts.add(entry);
        let level = LEVEL.load(Ordering::Relaxed);
        for line in warnings(entry, self.max_doc_bytes) {
            let is_warning = line.starts_with("warning:");
            self.warnings += u64::from(is_warning);
            let shown = match level {
                QUIET => false,
                VERBOSE => true,
                _ => !is_warning || self.warnings <= SHOWN,
            };
            if shown {
                self.print(&format!("bowline: {line}"));
            }
        }
    }

    /// Prints one message: above the progress bar, through its own print path, when it is
    /// drawn, so that the message and the bar never cut across each other.
    fn print(&self, line: &str) {
        match &self.bar {
            // A hidden bar prints nothing, so its messages go straight to stderr.
            Some(bar) if !bar.is_hidden() => bar.println(line),
            _ => eprintln!("{line}"),
        }
    }

    /// One line for the end of the run.
    pub fn summary(&self) -> String {
        let c = &self.counts;
        format!(
            "{} documents, {:.1} MB; {} decoded as Windows-1252, {} empty, {} truncated, \
             {} binary skipped, {} failed",
            c.documents,
            c.bytes as f64 / 1e6,
            c.windows_1252,
            c.empty,
            c.truncated,
            c.binary,
            c.failed
        ) + &self.joined()
            + &self.unshown()
    }

    /// How many files were read as copies of another, if any were.
    fn joined(&self) -> String {
        match self.counts.joined {
            0 => String::new(),
            1 => "; 1 file joined to a copy in another class folder".into(),
            joined => format!("; {joined} files joined to a copy in another class folder"),
        }
    }

    /// The warnings left unprinted, if any.
    fn unshown(&self) -> String {
        let unshown = self.warnings.saturating_sub(SHOWN);
        if LEVEL.load(Ordering::Relaxed) == NORMAL && unshown > 0 {
            format!("; {unshown} more warnings not shown (-v lists them)")
        } else {
            String::new()
        }
    }

    /// Clean unless some input failed.
    pub fn outcome(&self) -> Outcome {
        match self.counts.failed {
            0 => Outcome::Clean,
            failed => Outcome::Partial(failed),
        }
    }
}

/// A read log that a job's threads note their entries in, advancing a progress bar: what a
/// command that runs a job prints of its reading, and how it ends.
pub struct Logged {
    log: std::sync::Arc<std::sync::Mutex<ReadLog>>,
    progress: indicatif::ProgressBar,
}

impl Logged {
    /// A log for inputs read with the given size limit, printing through `progress`.
    pub fn new(max_doc_bytes: u64, progress: indicatif::ProgressBar) -> Self {
        let mut log = ReadLog::new(max_doc_bytes);
        log.print_through(progress.clone());
        Logged {
            log: std::sync::Arc::new(std::sync::Mutex::new(log)),
            progress,
        }
    }

    /// The callback a job tells each entry it reads.
    pub fn note(&self) -> bowline::jobs::Note {
        let (log, progress) = (std::sync::Arc::clone(&self.log), self.progress.clone());
        std::sync::Arc::new(move |entry: &Entry| {
            progress.inc(1);
            if let Ok(mut log) = log.lock() {
                log.note(entry);
            }
        })
    }

    /// Prints the summary (naming the process in a cluster) unless `quiet`, and gives the run's
    /// outcome.
    pub fn finish(
        self,
        quiet: bool,
        placement: &bowline::jobs::Placement,
    ) -> bowline::Result<Outcome> {
        let log = self
            .log
            .lock()
            .map_err(|_| bowline::Error::Config("a worker failed while reading".into()))?;
        if !quiet {
            match placement.process() {
                Some(process) => eprintln!("bowline: process {process}: {}", log.summary()),
                None => eprintln!("bowline: {}", log.summary()),
            }
        }
        Ok(log.outcome())
    }
}

#[cfg(test)]
mod tests {
    use bowline::corpus::{Document, Entry};
    use indicatif::{InMemoryTerm, ProgressBar, ProgressDrawTarget, ProgressStyle};

    use super::ReadLog;

    #[test]
    fn a_warning_is_printed_whole_above_the_progress_bar() {
        let term = InMemoryTerm::new(6, 100);
        let target = ProgressDrawTarget::term_like(Box::new(term.clone()));
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_style(ProgressStyle::with_template("documents read: {pos}").unwrap());
        bar.set_position(3);
        bar.tick();
        let mut log = ReadLog::new(1000);
        log.print_through(bar.clone());
        let document = Document {
            id: "old.txt".into(),
            ..Document::default()
        };
        let mut entry = Entry::loaded(document, 4);
        entry.decoded_windows_1252 = true;
        log.note(&entry);
        let shown = term.contents();
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines.len(), 2, "{shown:?}");
        assert!(
            lines[0].starts_with("bowline: warning: old.txt: "),
            "{shown:?}"
        );
        assert_eq!(lines[1], "documents read: 3");
    }
}
