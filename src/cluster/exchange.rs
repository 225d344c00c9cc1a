//! Running work on every worker of a cluster and gathering the results at worker 0, over
//! timely-dataflow: one small dataflow per exchange, stepped until its input is drained.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

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
pub fn gather<W>(cluster: &Cluster, settings: Settings, work: W) -> Result<Option<Gathered>>
where
    W: Fn(Shard) -> Result<Vec<u8>> + Send + Sync + 'static,
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
        run_worker(worker, workers, &settings, &work)
    })
    .map_err(|e| Error::Config(format!("cannot start the workers: {e}")))?;
    let mut gathered = None;
    for result in guards.join() {
        match result {
            Ok(Ok(Some(payloads))) => gathered = Some(payloads),
            Ok(Ok(None)) => {}
            Ok(Err(error)) => return Err(error),
            Err(panic) => return Err(Error::Config(format!("a cluster worker failed: {panic}"))),
        }
    }
    Ok(gathered)
}

/// One worker's part: the settings check, its work, and (on worker 0) the gathering.
fn run_worker<W>(
    worker: &mut Worker,
    workers: usize,
    settings: &Settings,
    work: &W,
) -> Result<Option<Gathered>>
where
    W: Fn(Shard) -> Result<Vec<u8>>,
{
    let index = worker.index();
    let process = |worker: u64| worker as usize / workers;
    let everyone = exchange(worker, (index as u64, settings.clone()), true);
    for (other, theirs) in &everyone {
        if let Some(((name, ours), (_, value))) = settings.iter().zip(theirs).find(|(a, b)| a != b)
        {
            return Err(Error::Config(format!(
                "process {} was started with other settings than process {}: {name} is '{value}' \
                 there and '{ours}' here; every process must be given the same",
                process(*other),
                index / workers
            )));
        }
    }
    let shard = Shard {
        index,
        peers: worker.peers(),
    };
    let (ok, payload, own) = match work(shard) {
        Ok(bytes) => (true, bytes, Ok(())),
        Err(e) => (false, e.to_string().into_bytes(), Err(e)),
    };
    let mut received = exchange(worker, (index as u64, ok, payload), false);
    own?;
    if index != 0 {
        return Ok(None);
    }
    received.sort_by_key(|&(from, ..)| from);
    let mut payloads = Vec::with_capacity(received.len());
    for (from, ok, payload) in received {
        if !ok {
            return Err(Error::Config(format!(
                "process {} failed: {}",
                process(from),
                String::from_utf8_lossy(&payload)
            )));
        }
        payloads.push(payload);
    }
    Ok(Some(payloads))
}

/// Sends `item` to every worker (`everyone`) or to worker 0, and returns what this worker
/// received once every worker's item has arrived.
fn exchange<D: ExchangeData + Clone>(worker: &mut Worker, item: D, everyone: bool) -> Vec<D> {
    let received = Rc::new(RefCell::new(Vec::new()));
    let sink = Rc::clone(&received);
    let mut input = InputHandle::<u64, CapacityContainerBuilder<Vec<D>>>::new();
    let probe = worker.dataflow::<u64, _, _>(|scope| {
        let stream = scope.input_from(&mut input);
        let routed = if everyone {
            stream.broadcast()
        } else {
            stream.exchange(|_| 0)
        };
        routed
            .inspect(move |x| sink.borrow_mut().push(x.clone()))
            .probe()
            .0
    });
    input.send(item);
    drop(input);
    while !probe.done() {
        worker.step();
    }
    received.take()
}
