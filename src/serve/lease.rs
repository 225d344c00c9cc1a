//! Read leases (`fcntl(F_SETLEASE)`, Linux): how a server maps its model files without the risk
//! that a program rewriting one in place takes pages from under it.
//!
//! A mapped model reads its file for as long as it is used. A program that opens the file to
//! write it (`cp` over it, `>` in a shell) or truncates it would change or remove those pages,
//! and reading a removed page stops the process with SIGBUS. With a read lease the kernel
//! holds that program in its `open` or `truncate` and sends the server SIGIO; the server then
//! copies the model into memory, serves the copy, and drops the mapping, which closes the file
//! and so releases the lease; only then does the other program go on. The kernel waits for
//! that at most `/proc/sys/fs/lease-break-time` seconds (45 by default), far more than a copy
//! takes.
//!
//! A lease is granted only on a file that nobody has open for writing, to its owner (or a
//! process with `CAP_LEASE`), on a file system that supports leases; where it is refused, the
//! server reads the model into memory instead, as before.

use std::fs::File;
use std::io;

/// Takes a read lease on `file`, opened for reading. The kernel sends SIGIO to this process
/// when another wants to write the file.
#[cfg(target_os = "linux")]
pub(super) fn take(file: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: `file` is an open descriptor for as long as the call lasts, and F_SETLEASE
    // reads no memory.
    let result = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETLEASE, libc::F_RDLCK) };
    if result == -1 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Whether the lease on `file` is being broken (another process waits to write the file) or
/// is gone: in both cases the mapping must not be read much longer.
#[cfg(target_os = "linux")]
pub(super) fn breaking(file: &File) -> bool {
    use std::os::fd::AsRawFd;
    // SAFETY: as in `take`: F_GETLEASE reads no memory.
    let lease = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETLEASE) };
    lease != libc::F_RDLCK
}

/// Leases exist only on Linux; elsewhere models are read into memory.
#[cfg(not(target_os = "linux"))]
pub(super) fn take(_file: &File) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}

#[cfg(not(target_os = "linux"))]
pub(super) fn breaking(_file: &File) -> bool {
    true
}
