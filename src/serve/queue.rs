//! The learn requests waiting for a model's single writer. Whichever request gets the writer
//! takes every request waiting then and learns them together, as one update (group commit):
//! one merge of their vocabulary into the model, one log record, one published version. The
//! update's fixed costs (the merge, the copy of the model that is published) are then paid once
//! per batch instead of once per request.

use std::sync::{Mutex, PoisonError};

use tokio::sync::oneshot;

use super::journal::Documents;
use crate::error::{Error, Result};

/// What a learn request is answered once its batch is learned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Learned {
    /// The published version that holds the request's documents.
    pub version: u64,
    /// The sequence number of the log record that holds them, to wait for its sync.
    pub seq: u64,
    /// Whether the model file was written with them.
    pub checkpointed: bool,
}

/// One request waiting for the writer.
#[derive(Debug)]
pub struct Waiting {
    /// Its documents.
    pub documents: Documents,
    answer: oneshot::Sender<Result<Learned>>,
}

impl Waiting {
    /// Answers the request (which may have gone: its client timed out, say).
    pub fn answer(self, learned: Result<Learned>) {
        let _ = self.answer.send(learned);
    }
}

/// The requests waiting for the writer, in arrival order.
#[derive(Debug, Default)]
pub struct Queue(Mutex<Vec<Waiting>>);

impl Queue {
    /// Queues `documents`; the receiver gets the answer once a writer has learned them.
    pub fn push(&self, documents: Documents) -> oneshot::Receiver<Result<Learned>> {
        let (answer, answered) = oneshot::channel();
        let waiting = Waiting { documents, answer };
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(waiting);
        answered
    }

    /// The requests waiting now.
    #[cfg(test)]
    pub fn waiting(&self) -> usize {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// Takes every request waiting now, leaving out those whose handler has gone (a request
    /// answered 408 while it waited is not learned, as it was not before batching).
    pub fn take(&self) -> Vec<Waiting> {
        let mut waiting = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let mut taken = std::mem::take(&mut *waiting);
        taken.retain(|w| !w.answer.is_closed());
        taken
    }
}

/// Waits for the answer to a queued request. Its sender goes unanswered only if the writer
/// that took it failed without answering (a panic), which is the server's fault.
pub async fn answer(answered: oneshot::Receiver<Result<Learned>>) -> Result<Learned> {
    answered.await.unwrap_or_else(|_| {
        Err(Error::Stage {
            stage: "learn".into(),
            message: "the writer stopped before learning the documents".into(),
        })
    })
}
