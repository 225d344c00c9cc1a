//! Running work on every worker of a cluster and gathering the results at worker 0, over
//! timely-dataflow: one small dataflow per exchange, stepped until its input is drained.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use serde::de::{Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use timely::container::CapacityContainerBuilder;
use timely::dataflow::operators::vec::{Broadcast, Input};
use timely::dataflow::operators::{Exchange, Inspect, Probe};
use timely::dataflow::InputHandle;
use timely::execute::execute_from;
use timely::worker::Worker;
use timely::{CommunicationConfig, ExchangeData, WorkerConfig};

use super::connect::connect;
use super::{Cluster, Shard};
use crate::error::{Error, Result};

/// What process 0's worker 0 gathered: each worker's payload, in worker order.
pub type Gathered = Vec<Vec<u8>>;

/// Settings that every process must share, as (name, value) pairs: a process whose settings
/// differ is named with the first setting that differs.
pub type Settings = Vec<(String, String)>;

/// Runs `work` on every worker of the cluster with its [`Shard`], after checking that every
/// process was given the same `settings`, and gathers the payloads at worker 0 of process 0,
/// which returns them (every other process returns `None`). A worker's error reaches worker 0,
/// which reports it with the process it came from; every process then fails.
pub(crate) fn gather<W>(cluster: &Cluster, settings: Settings, work: W) -> Result<Option<Gathered>>
where
    W: Fn(Shard) -> Result<Vec<u8>> + Send + Sync + 'static,
{
    run(cluster, settings, move |link| {
        let mine = work(link.shard());
        link.gather(mine)
    })
}

/// Runs `work` on every worker of the cluster with a [`Link`] to the others, after checking
/// that every process was given the same `settings`: the general form of `gather`, for work
/// that exchanges several times (as the SVM's rounds do). Returns what worker 0 of this process
/// returned; the first error of any worker of this process wins.
pub fn run<T, W>(cluster: &Cluster, settings: Settings, work: W) -> Result<Option<T>>
where
    T: Send + 'static,
    W: Fn(&mut Link) -> Result<Option<T>> + Send + Sync + 'static,
{
    let (builders, network) = if cluster.processes() == 1 {
        let local = CommunicationConfig::Process(cluster.workers).try_build();
        local.map_err(|e| Error::Config(format!("cannot start the workers: {e}")))?
    } else {
        connect(cluster)?
    };
    let settings = Arc::new(settings);
    let workers = cluster.workers;
    let guards = execute_from(builders, network, WorkerConfig::default(), move |worker| {
        let mut link = Link { worker, workers };
        link.check_settings(&settings)?;
        work(&mut link)
    })
    .map_err(|e| Error::Config(format!("cannot start the workers: {e}")))?;
    let mut returned = None;
    for result in guards.join() {
        match result {
            Ok(Ok(Some(value))) => returned = returned.or(Some(value)),
            Ok(Ok(None)) => {}
            Ok(Err(error)) => return Err(error),
            Err(panic) => return Err(Error::Config(format!("a cluster worker failed: {panic}"))),
        }
    }
    Ok(returned)
}

/// One worker's link to every other worker of the cluster. Each exchange is a small dataflow
/// that every worker must take part in, in the same order: a worker that fails still takes
/// part, sending its error instead of its payload, so that no other worker waits for it.
pub struct Link<'w> {
    worker: &'w mut Worker,
    workers: usize,
}

impl Link<'_> {
    /// This worker's share of the corpus.
    pub(crate) fn shard(&self) -> Shard {
        Shard {
            index: self.worker.index(),
            peers: self.worker.peers(),
        }
    }

    /// The process that worker `index` runs in.
    fn process_of(&self, index: u64) -> usize {
        index as usize / self.workers
    }

    /// Exchanges the settings with every worker; refuses to go on if any differs.
    fn check_settings(&mut self, settings: &Settings) -> Result<()> {
        let index = self.worker.index();
        let everyone = exchange(self.worker, vec![(index as u64, settings.clone())], None);
        for (other, theirs) in &everyone {
            if let Some(((name, ours), (_, value))) =
                settings.iter().zip(theirs).find(|(a, b)| a != b)
            {
                return Err(Error::Config(format!(
                    "process {} was started with other settings than process {}: {name} is \
                     '{value}' there and '{ours}' here; every process must be given the same",
                    self.process_of(*other),
                    self.process_of(index as u64)
                )));
            }
        }
        Ok(())
    }

    /// Sends this worker's payload (or its error) to worker 0, which returns every payload in
    /// worker order, or the first error with the process it came from. Every other worker
    /// returns `None`, or its own error.
    pub(crate) fn gather(&mut self, mine: Result<Vec<u8>>) -> Result<Option<Gathered>> {
        let index = self.worker.index();
        let (ok, payload, own) = match mine {
            Ok(bytes) => (true, bytes, Ok(())),
            Err(e) => (false, e.to_string().into_bytes(), Err(e)),
        };
        let to_root: fn(&Item) -> u64 = |_| 0;
        let mut received = exchange(
            self.worker,
            vec![(index as u64, ok, Payload(payload))],
            Some(to_root),
        );
        own?;
        if index != 0 {
            return Ok(None);
        }
        received.sort_by_key(|&(from, ..)| from);
        let mut payloads = Vec::with_capacity(received.len());
        for (from, ok, Payload(payload)) in received {
            if !ok {
                return Err(Error::Config(format!(
                    "process {} failed: {}",
                    self.process_of(from),
                    String::from_utf8_lossy(&payload)
                )));
            }
            payloads.push(payload);
        }
        Ok(Some(payloads))
    }

    /// Worker 0 sends each worker its payload (`payloads`, in worker order; ignored on the
    /// other workers), or its error to all; every worker returns what it received.
    pub(crate) fn scatter(&mut self, payloads: Result<Gathered>) -> Result<Vec<u8>> {
        let peers = self.worker.peers() as u64;
        let items: Vec<Item> = match (self.worker.index(), payloads) {
            (0, Ok(payloads)) => (0..peers)
                .zip(payloads)
                .map(|(to, p)| (to, true, Payload(p)))
                .collect(),
            (0, Err(e)) => (0..peers)
                .map(|to| (to, false, Payload(e.to_string().into_bytes())))
                .collect(),
            _ => Vec::new(),
        };
        let to_each: fn(&Item) -> u64 = |&(to, ..)| to;
        let received = exchange(self.worker, items, Some(to_each));
        match received.into_iter().next() {
            Some((_, true, Payload(payload))) => Ok(payload),
            Some((_, false, Payload(message))) => Err(Error::Config(
                String::from_utf8_lossy(&message).into_owned(),
            )),
            None => Err(Error::Config("worker 0 sent nothing".into())),
        }
    }

    /// Gathers every worker's payload at worker 0, which turns them into one reply per worker
    /// (`reply`, called on worker 0 only) and scatters them: one round trip, after which every
    /// worker holds its reply, or every worker fails with the same error.
    pub(crate) fn reduce(
        &mut self,
        mine: Result<Vec<u8>>,
        reply: impl FnOnce(Gathered) -> Result<Gathered>,
    ) -> Result<Vec<u8>> {
        let gathered = self.gather(mine);
        match gathered {
            Ok(Some(payloads)) => self.scatter(reply(payloads)),
            Ok(None) => self.scatter(Ok(Vec::new())),
            Err(e) if self.worker.index() == 0 => self.scatter(Err(e)),
            Err(e) => {
                let _ = self.scatter(Ok(Vec::new()));
                Err(e)
            }
        }
    }
}

/// A payload on its way: the worker it comes from or goes to, whether it is a payload (or an
/// error's message), and its bytes.
type Item = (u64, bool, Payload);

/// A payload's bytes, which bincode (timely's encoding between processes) writes and reads as
/// one block: as a plain `Vec<u8>` it goes byte by byte, which cost much of a round of the
/// SVM's 200 MB.
#[derive(Debug, Clone, Default)]
struct Payload(Vec<u8>);

impl Serialize for Payload {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Payload {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        deserializer.deserialize_byte_buf(PayloadVisitor)
    }
}

/// Reads a [`Payload`] from a block of bytes, owned or borrowed.
struct PayloadVisitor;

impl Visitor<'_> for PayloadVisitor {
    type Value = Payload;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("bytes")
    }

    fn visit_byte_buf<E: serde::de::Error>(
        self,
        bytes: Vec<u8>,
    ) -> std::result::Result<Payload, E> {
        Ok(Payload(bytes))
    }

    fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> std::result::Result<Payload, E> {
        Ok(Payload(bytes.to_vec()))
    }
}

/// Sends `items` to every worker (`route` `None`) or each to the worker `route` names, and
/// returns what this worker received once every worker's items have arrived.
fn exchange<D: ExchangeData + Clone>(
    worker: &mut Worker,
    items: Vec<D>,
    route: Option<fn(&D) -> u64>,
) -> Vec<D> {
    let received = Rc::new(RefCell::new(Vec::new()));
    let sink = Rc::clone(&received);
    let mut input = InputHandle::<u64, CapacityContainerBuilder<Vec<D>>>::new();
    let probe = worker.dataflow::<u64, _, _>(|scope| {
        let stream = scope.input_from(&mut input);
        let routed = match route {
            Some(route) => stream.exchange(route),
            None => stream.broadcast(),
        };
        routed
            .inspect(move |x| sink.borrow_mut().push(x.clone()))
            .probe()
            .0
    });
    for item in items {
        input.send(item);
    }
    drop(input);
    while !probe.done() {
        worker.step();
    }
    received.take()
}
