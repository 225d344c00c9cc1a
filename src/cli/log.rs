//! Printing what was read: warnings as they happen, in input order, and a summary at the end,
//! as `bowline::render::reading` words them; `-q` silences every message that does not stop the
//! run, `-v` prints every warning.

use std::sync::OnceLock;

use bowline::jobs::settings::Entry;
use bowline::jobs::settings::{StageObserver, StageStats};
use bowline::render::reading::{ReadReport, Verbosity};

use super::Outcome;

/// How much the run prints, from `-q` and `-v`; set once, before any input is read.
static LEVEL: OnceLock<Verbosity> = OnceLock::new();

/// Sets how much the run prints.
pub fn set_level(quiet: bool, verbose: bool) {
    let level = match (quiet, verbose) {
        (true, _) => Verbosity::Quiet,
        (false, true) => Verbosity::Verbose,
        (false, false) => Verbosity::Normal,
    };
    // A second setting (a command that starts two pipelines) gives the same level.
    let _ = LEVEL.set(level);
}

/// How much of its reading the run shows.
fn verbosity() -> Verbosity {
    LEVEL.get().copied().unwrap_or_default()
}

/// Where a run that could not read some inputs sends the user for the errors: above, unless
/// `-q` kept them from being printed.
pub fn where_errors_are() -> &'static str {
    if verbosity() == Verbosity::Quiet {
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
    let verbose = verbosity() == Verbosity::Verbose;
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
    if verbosity() != Verbosity::Quiet {
        eprintln!("bowline: {message}");
    }
}

/// A read report that a job's threads note their entries in, printing its messages through a
/// progress bar: what a command that runs a job prints of its reading, and how it ends.
pub struct Logged {
    report: std::sync::Arc<std::sync::Mutex<ReadReport>>,
    progress: indicatif::ProgressBar,
}

impl Logged {
    /// A log for inputs read with the given size limit, printing through `progress`.
    pub fn new(max_doc_bytes: u64, progress: indicatif::ProgressBar) -> Self {
        let report = ReadReport::new(max_doc_bytes, verbosity());
        Logged {
            report: std::sync::Arc::new(std::sync::Mutex::new(report)),
            progress,
        }
    }

    /// The callback a job tells each entry it reads.
    pub fn note(&self) -> bowline::jobs::Note {
        let (report, progress) = (std::sync::Arc::clone(&self.report), self.progress.clone());
        std::sync::Arc::new(move |entry: &Entry| {
            progress.inc(1);
            // Printing under the lock keeps the messages in the order the entries were noted.
            if let Ok(mut report) = report.lock() {
                for line in report.note(entry) {
                    print_through(&progress, &format!("bowline: {line}"));
                }
            }
        })
    }

    /// Prints the summary (naming the process in a cluster) unless `quiet`, and gives the run's
    /// outcome: clean unless some input failed.
    pub fn finish(
        self,
        quiet: bool,
        placement: &bowline::jobs::Placement,
    ) -> bowline::Result<Outcome> {
        let report = self
            .report
            .lock()
            .map_err(|_| bowline::Error::Config("a worker failed while reading".into()))?;
        if !quiet {
            match placement.process() {
                Some(process) => eprintln!("bowline: process {process}: {}", report.summary()),
                None => eprintln!("bowline: {}", report.summary()),
            }
        }
        Ok(match report.counts().failed {
            0 => Outcome::Clean,
            failed => Outcome::Partial(failed),
        })
    }
}

/// Prints one message: above the progress bar, through its own print path, when it is drawn,
/// so that the message and the bar never cut across each other.
fn print_through(bar: &indicatif::ProgressBar, line: &str) {
    if bar.is_hidden() {
        // A hidden bar prints nothing, so its messages go straight to stderr.
        eprintln!("{line}");
    } else {
        bar.println(line);
    }
}

#[cfg(test)]
mod tests {
    use bowline::jobs::settings::{Document, Entry};
    use bowline::jobs::Placement;
    use indicatif::{InMemoryTerm, ProgressBar, ProgressDrawTarget, ProgressStyle};

    use super::Logged;

    #[test]
    fn a_warning_is_printed_whole_above_the_progress_bar() {
        let term = InMemoryTerm::new(6, 100);
        let target = ProgressDrawTarget::term_like(Box::new(term.clone()));
        let bar = ProgressBar::with_draw_target(None, target);
        bar.set_style(ProgressStyle::with_template("documents read: {pos}").unwrap());
        bar.set_position(2);
        bar.tick();
        let logged = Logged::new(1000, bar.clone());
        let document = Document {
            id: "old.txt".into(),
            ..Document::default()
        };
        let mut entry = Entry::loaded(document, 4);
        entry.decoded_windows_1252 = true;
        logged.note()(&entry);
        let shown = term.contents();
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines.len(), 2, "{shown:?}");
        assert!(
            lines[0].starts_with("bowline: warning: old.txt: "),
            "{shown:?}"
        );
        assert_eq!(lines[1], "documents read: 3");
        assert!(logged.finish(true, &Placement::Local).is_ok());
    }
}
