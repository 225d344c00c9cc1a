//! What every command shares at its end: how it ended, and its output on stdout.

use bowline::{Error, Result};

/// How a command ended when it did not fail outright.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Everything was processed.
    Clean,
    /// The command finished, but this many inputs (files, lines) could not be used; they were
    /// reported as they were met.
    Partial(u64),
    /// SIGINT or SIGTERM (the number) stopped a stream; what was read before it was processed.
    Interrupted(i32),
}

/// Writes to stdout; a closed pipe becomes an error the binary treats as a quiet end.
pub(crate) fn print_or_quiet(text: &str) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| Error::io("-", e))
}

/// `bar` styled by `template` when stderr is a terminal; a hidden bar otherwise, so that logs
/// and pipes get no progress lines.
pub(crate) fn on_terminal(bar: indicatif::ProgressBar, template: &str) -> indicatif::ProgressBar {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return indicatif::ProgressBar::hidden();
    }
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}
