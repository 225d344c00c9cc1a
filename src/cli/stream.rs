//! Standard input as a stream, for `classify` and `learn`: a reader thread turns lines into
//! documents at the pace they arrive, and SIGINT or SIGTERM ends the stream cleanly.
//!
//! The reader thread is detached, not scoped: it may sit in a blocking read of a terminal or a
//! `tail -f` forever, and the command must still be able to finish. On a signal the stream ends
//! after the documents already read, so the command processes and writes what is in flight,
//! saves what it must, and exits with status 128 + the signal number. A second signal exits at
//! once.

use std::path::Path;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

use crossbeam_channel::{bounded, Receiver, Sender};

use bowline::corpus::{self, ReadOptions};
use bowline::flow::Analyzed;
use bowline::{Error, Result};

/// Documents from stdin, and the signal that ended them, if one did.
pub struct Stream {
    /// Each document in input order; `None` or a closed channel ends the stream.
    pub items: Receiver<Option<Analyzed>>,
    /// The signal number once SIGINT or SIGTERM has arrived, else 0.
    pub signal: Arc<AtomicI32>,
}

impl Stream {
    /// The signal that stopped the stream, if any.
    pub fn interrupted_by(&self) -> Option<i32> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            signal => Some(signal),
        }
    }
}

/// Starts reading stdin in the given format; `capacity` documents may wait in the channel.
pub fn stdin(read: &ReadOptions, capacity: usize) -> Result<Stream> {
    let (entries, _) = corpus::open(Path::new("-"), read)?;
    let (tx, items) = bounded(capacity.max(1));
    let signal = Arc::new(AtomicI32::new(0));
    watch_signals(tx.clone(), Arc::clone(&signal))?;
    std::thread::spawn(move || {
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            for entry in entries {
                if tx.send(Some(Analyzed::from(entry))).is_err() {
                    break;
                }
            }
        }));
        if read.is_err() {
            eprintln!("bowline: error: reading stdin failed unexpectedly; the stream ends here");
        }
        // The end must be said: the signal watcher holds a sender too, so the channel never
        // closes by itself.
        let _ = tx.send(None);
    });
    Ok(Stream { items, signal })
}

#[cfg(unix)]
fn watch_signals(tx: Sender<Option<Analyzed>>, signal: Arc<AtomicI32>) -> Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
        .map_err(|e| Error::Config(format!("cannot watch for signals: {e}")))?;
    std::thread::spawn(move || {
        let mut received = signals.forever();
        if let Some(first) = received.next() {
            signal.store(first, Ordering::SeqCst);
            // Ends the stream after what was read before the signal.
            let _ = tx.send(None);
        }
        if let Some(second) = received.next() {
            std::process::exit(128 + second);
        }
    });
    Ok(())
}

#[cfg(not(unix))]
fn watch_signals(_tx: Sender<Option<Analyzed>>, _signal: Arc<AtomicI32>) -> Result<()> {
    Ok(())
}
