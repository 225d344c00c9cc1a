//! Standard input as a stream, for `classify` and `learn`, that SIGINT or SIGTERM ends cleanly:
//! the command processes and writes what is in flight, saves what it must, and exits with status
//! 128 + the signal number. A second signal exits at once.

use bowline::jobs::settings::ReadOptions;
use bowline::jobs::stream::{Stopper, Stream};
use bowline::{Error, Result};

/// Starts reading stdin in the given format; `capacity` documents may wait in the channel.
pub fn stdin(read: &ReadOptions, capacity: usize) -> Result<Stream> {
    let stream = Stream::stdin(read, capacity)?;
    watch_signals(stream.stopper())?;
    Ok(stream)
}

#[cfg(unix)]
fn watch_signals(stopper: Stopper) -> Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
        .map_err(|e| Error::Config(format!("cannot watch for signals: {e}")))?;
    std::thread::spawn(move || {
        let mut received = signals.forever();
        if let Some(first) = received.next() {
            // Ends the stream after what was read before the signal.
            stopper.stop(first);
        }
        if let Some(second) = received.next() {
            std::process::exit(128 + second);
        }
    });
    Ok(())
}

#[cfg(not(unix))]
fn watch_signals(_stopper: Stopper) -> Result<()> {
    Ok(())
}
