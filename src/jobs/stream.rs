//! Standard input as a stream, for `classify` and `learn`: a reader thread turns lines into
//! documents at the pace they arrive, and a [`Stopper`] ends the stream after the documents
//! already read (a front end stops it on SIGINT or SIGTERM).
//!
//! The reader thread is detached, not scoped: it may sit in a blocking read of a terminal or a
//! `tail -f` forever, and the job must still be able to finish. Once stopped, the job processes
//! and writes what is in flight and saves what it must.

use std::path::Path;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;

use crossbeam_channel::{bounded, Receiver, Sender};

use crate::corpus::{self, ReadOptions};
use crate::error::Result;
use crate::flow::Analyzed;

/// Documents from stdin, and the signal that stopped them, if one did.
pub struct Stream {
    /// Each document in input order; `None` or a closed channel ends the stream.
    pub items: Receiver<Option<Analyzed>>,
    stopper: Stopper,
}

/// What ends a stream early, from any thread.
#[derive(Clone)]
pub struct Stopper {
    tx: Sender<Option<Analyzed>>,
    /// The signal number once the stream was stopped, else 0.
    signal: Arc<AtomicI32>,
}

impl Stopper {
    /// Ends the stream after the documents read so far, recording `signal` as the cause.
    pub fn stop(&self, signal: i32) {
        self.signal.store(signal, Ordering::SeqCst);
        let _ = self.tx.send(None);
    }
}

impl Stream {
    /// Starts reading stdin in the given format; `capacity` documents may wait in the channel.
    pub fn stdin(read: &ReadOptions, capacity: usize) -> Result<Stream> {
        let (entries, _) = corpus::open(Path::new("-"), read)?;
        let (tx, items) = bounded(capacity.max(1));
        let stopper = Stopper {
            tx: tx.clone(),
            signal: Arc::new(AtomicI32::new(0)),
        };
        std::thread::spawn(move || {
            let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                for entry in entries {
                    if tx.send(Some(Analyzed::from(entry))).is_err() {
                        break;
                    }
                }
            }));
            if read.is_err() {
                eprintln!(
                    "bowline: error: reading stdin failed unexpectedly; the stream ends here"
                );
            }
            // The end must be said: the stopper holds a sender too, so the channel never
            // closes by itself.
            let _ = tx.send(None);
        });
        Ok(Stream { items, stopper })
    }

    /// What stops this stream.
    pub fn stopper(&self) -> Stopper {
        self.stopper.clone()
    }

    /// The signal that stopped the stream, if any.
    pub fn interrupted_by(&self) -> Option<i32> {
        match self.stopper.signal.load(Ordering::SeqCst) {
            0 => None,
            signal => Some(signal),
        }
    }
}
