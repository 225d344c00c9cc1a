//! Connecting the processes: timely's own set-up retries forever and prints to stdout, so the
//! sockets are made here, with a deadline and errors that name the process missing, and handed
//! to timely.

use std::any::Any;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::ProcessBuilder;
use timely::communication::{AllocatorBuilder, Hooks};

use super::Cluster;
use crate::error::{Error, Result};

/// timely's allocators for this process's workers, and the guard of its network threads, which
/// must live as long as the workers.
pub(super) type Connected = (Vec<AllocatorBuilder>, Box<dyn Any + Send>);

/// Connects to every other process of `cluster` (to the lower-numbered ones, and waits for the
/// higher-numbered ones), each connection opened by the process's index, as timely expects.
pub(super) fn connect(cluster: &Cluster) -> Result<Connected> {
    let me = cluster.process;
    let deadline = Instant::now() + cluster.connect_timeout;
    let address = &cluster.addresses[me];
    let listener = TcpListener::bind(address)
        .map_err(|e| Error::Config(format!("process {me} cannot listen on {address}: {e}")))?;
    let mut sockets: Vec<Option<TcpStream>> = Vec::with_capacity(cluster.processes());
    for (peer, address) in cluster.addresses.iter().enumerate().take(me) {
        sockets.push(Some(dial(me, peer, address, deadline, cluster)?));
    }
    sockets.push(None);
    sockets.extend(accept(&listener, cluster, deadline)?.into_iter().map(Some));
    let hooks = Hooks::default();
    let threads = cluster.workers;
    let local =
        ProcessBuilder::new_typed_vector(threads, hooks.refill.clone(), hooks.spill.clone());
    let (builders, guard) = initialize_networking_from_sockets(local, sockets, me, threads, hooks)
        .map_err(|e| Error::Config(format!("cannot start the cluster's network: {e}")))?;
    let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
    Ok((builders, Box::new(guard)))
}

/// Connects to process `peer` at `address`, retrying until `deadline`, and says who is calling.
fn dial(
    me: usize,
    peer: usize,
    address: &str,
    deadline: Instant,
    cluster: &Cluster,
) -> Result<TcpStream> {
    loop {
        match TcpStream::connect(address) {
            Ok(mut stream) => {
                let said = stream
                    .set_nodelay(true)
                    .and_then(|()| stream.write_all(&(me as u64).to_be_bytes()));
                said.map_err(|e| lost(peer, address, &e))?;
                return Ok(stream);
            }
            Err(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => {
                return Err(Error::Config(format!(
                    "process {peer} at {address} did not answer within {} s ({e}): is it \
                     started, with the same host file?",
                    cluster.connect_timeout.as_secs()
                )))
            }
        }
    }
}

/// Accepts the higher-numbered processes until `deadline`, each placed by the index it sends.
fn accept(listener: &TcpListener, cluster: &Cluster, deadline: Instant) -> Result<Vec<TcpStream>> {
    let me = cluster.process;
    let address = &cluster.addresses[me];
    let mut peers: Vec<Option<TcpStream>> = (me + 1..cluster.processes()).map(|_| None).collect();
    listener
        .set_nonblocking(true)
        .map_err(|e| lost(me, address, &e))?;
    while peers.iter().any(Option::is_none) {
        match listener.accept() {
            Ok((mut stream, _)) => {
                let mut index = [0u8; 8];
                let heard = (stream.set_nonblocking(false))
                    .and_then(|()| stream.set_read_timeout(Some(Duration::from_secs(5))))
                    .and_then(|()| stream.read_exact(&mut index))
                    .and_then(|()| stream.set_read_timeout(None))
                    .and_then(|()| stream.set_nodelay(true));
                heard.map_err(|e| lost(me, address, &e))?;
                let peer = u64::from_be_bytes(index) as usize;
                match peer
                    .checked_sub(me + 1)
                    .and_then(|slot| peers.get_mut(slot))
                {
                    Some(slot @ None) => *slot = Some(stream),
                    _ => {
                        return Err(Error::Config(format!(
                            "a process calling itself {peer} connected to process {me}: are two \
                             processes started with the same --process?"
                        )))
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                let missing: Vec<String> = (peers.iter().enumerate())
                    .filter(|(_, s)| s.is_none())
                    .map(|(slot, _)| {
                        format!("{} at {}", me + 1 + slot, cluster.addresses[me + 1 + slot])
                    })
                    .collect();
                return Err(Error::Config(format!(
                    "process {} did not connect within {} s: is it started, with the same host \
                     file?",
                    missing.join(", process "),
                    cluster.connect_timeout.as_secs()
                )));
            }
            Err(e) => return Err(lost(me, address, &e)),
        }
    }
    Ok(peers.into_iter().flatten().collect())
}

fn lost(process: usize, address: &str, e: &std::io::Error) -> Error {
    Error::Config(format!(
        "connection with process {process} at {address} failed: {e}"
    ))
}
