//! The host file: one `host:port` per line, process 0's first, as timely reads it.

use std::net::ToSocketAddrs;
use std::path::Path;

use crate::error::{Error, Result};

/// Reads a host file: one `host:port` per line (blank lines and lines starting with `#` are
/// skipped), each checked to resolve to an address, so that a mistake is reported with its line
/// instead of as a connection that never comes.
pub fn read_host_file(path: &Path) -> Result<Vec<String>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let mut addresses = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| Error::Line {
            path: path.to_path_buf(),
            line: number as u64 + 1,
            message: format!("'{line}' {why}"),
        };
        let port = line.rsplit_once(':').map(|(_, port)| port.parse::<u16>());
        if !matches!(port, Some(Ok(_))) {
            return Err(bad("is not host:port"));
        }
        match line.to_socket_addrs().map(|mut found| found.next()) {
            Ok(Some(_)) => addresses.push(line.to_string()),
            Ok(None) => return Err(bad("resolves to no address")),
            Err(e) => return Err(bad(&format!("does not resolve: {e}"))),
        }
    }
    if addresses.is_empty() {
        return Err(Error::input(path, "the host file lists no host:port"));
    }
    Ok(addresses)
}
