//! Output files: written to a temporary file and renamed into place, or streamed to stdout.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Where a command writes its results: stdout for `-`, otherwise a file that appears under its
/// name only when [`Output::commit`] succeeds, so an interrupted run never destroys the previous
/// file.
///
/// The file is written beside its target. On Linux it has no name (`O_TMPFILE`) until it is
/// complete and synced; it is then named `.NAME.PID.tmp` and at once renamed over the target.
/// Elsewhere, or on a filesystem without unnamed files, it has that name from the start. An
/// output dropped without a commit removes its file, but a process killed outright (SIGKILL)
/// runs no code: it leaves a temporary file only if killed between the naming and the rename on
/// Linux, and at any moment of the write elsewhere. `remove_stale_temps` removes such
/// leftovers; every model writer calls it when it takes the model's lock, so no temporary file
/// of a model outlives the next write of that model.
pub struct Output {
    writer: BufWriter<Box<dyn Write + Send>>,
    path: PathBuf,
    /// The file being written, for a file output.
    pending: Option<Pending>,
}

impl Output {
    /// Opens `path` for writing (`-` is stdout).
    pub fn create(path: &Path) -> Result<Self> {
        if path == Path::new("-") {
            let stdout: Box<dyn Write + Send> = Box::new(std::io::stdout());
            return Ok(Output {
                writer: BufWriter::with_capacity(1 << 16, stdout),
                path: path.to_path_buf(),
                pending: None,
            });
        }
        let target = resolve_links(path)?;
        match std::fs::metadata(&target) {
            Ok(meta) if meta.is_dir() => return Err(Error::input(path, "is a folder, not a file")),
            // A device or a pipe (`/dev/null`, a FIFO) cannot be replaced by a rename, and must
            // not be replaced by a file: it is written in place.
            Ok(meta) if !meta.is_file() => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&target)
                    .map_err(|e| Error::io(path, e))?;
                let file: Box<dyn Write + Send> = Box::new(file);
                return Ok(Output {
                    writer: BufWriter::with_capacity(1 << 16, file),
                    path: path.to_path_buf(),
                    pending: None,
                });
            }
            _ => {}
        }
        let (file, name) = create_temp(&target).map_err(|e| Error::io(path, e))?;
        // A second handle, because the writer holds the file as a plain `Write`.
        let handle = file.try_clone().map_err(|e| Error::io(path, e))?;
        let pending = Pending {
            file: handle,
            name,
            target,
        };
        let file: Box<dyn Write + Send> = Box::new(EarlyWriteback { file, unsynced: 0 });
        Ok(Output {
            writer: BufWriter::with_capacity(1 << 16, file),
            path: path.to_path_buf(),
            pending: Some(pending),
        })
    }

    /// The path as given, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Wraps an I/O error from writing to this output.
    pub fn error(&self, err: std::io::Error) -> Error {
        Error::io(&self.path, err)
    }

    /// Flushes, syncs and renames the file into place.
    pub fn commit(mut self) -> Result<()> {
        self.writer.flush().map_err(|e| Error::io(&self.path, e))?;
        match self.pending.take() {
            Some(pending) => pending.commit().map_err(|e| Error::io(&self.path, e)),
            None => Ok(()),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.writer.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.writer.write_all(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.writer.flush()
    }
}

/// A file being written beside its target.
struct Pending {
    /// A handle on the file, to sync it and to name it.
    file: File,
    /// The file's name while it has one.
    name: Option<PathBuf>,
    /// The file it replaces when committed: the path's target when the path is a symbolic link,
    /// so that the link stays a link.
    target: PathBuf,
}

impl Pending {
    fn commit(mut self) -> std::io::Result<()> {
        // A file replaced keeps its permission bits: a model made private stays private.
        if let Ok(old) = std::fs::metadata(&self.target) {
            self.file.set_permissions(old.permissions())?;
        }
        // A rename of unsynced data could survive a power cut as an empty file.
        self.file.sync_all()?;
        let name = match self.name.take() {
            Some(name) => name,
            None => name_unnamed(&self.file, temp_path(&self.target))?,
        };
        // Named now, the file is removed on drop if the rename fails.
        let name = self.name.insert(name);
        std::fs::rename(name, &self.target)?;
        self.name = None;
        Ok(())
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(name) = self.name.take() {
            // Not committed: the partial file is garbage, and failing to remove it changes nothing.
            let _ = std::fs::remove_file(name);
        }
    }
}

/// A file whose written pages the kernel starts sending to disk every [`WRITEBACK_BYTES`], so
/// that the sync before the rename in [`Output::commit`] waits only for the last few.
///
/// `vectorize` writes 22 MB of svmlight text for 20 Newsgroups; syncing it all at the end took
/// 10 ms (`strace -T`) while every thread waited. With the writeback started early, its commit
/// (sync and rename) took 6–10 ms instead of 12–19, and the whole command 332 ms instead of 340
/// (medians of 40 alternating runs). Starting the writeback is only a hint: it neither blocks
/// nor reports errors, and the sync at commit still makes the file durable.
struct EarlyWriteback {
    file: File,
    unsynced: usize,
}

/// Bytes written between two writeback requests.
const WRITEBACK_BYTES: usize = 4 << 20;

impl Write for EarlyWriteback {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = self.file.write(buf)?;
        self.unsynced += written;
        if self.unsynced >= WRITEBACK_BYTES {
            self.unsynced = 0;
            start_writeback(&self.file);
        }
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// Asks the kernel to start writing the file's dirty pages to disk, without waiting.
#[cfg(target_os = "linux")]
fn start_writeback(file: &File) {
    use std::os::fd::AsRawFd;
    // SAFETY: sync_file_range only reads its integer arguments; the descriptor stays open for
    // the call because `file` is borrowed. Offset 0 and length 0 mean the whole file.
    unsafe {
        libc::sync_file_range(file.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE);
    }
}

#[cfg(not(target_os = "linux"))]
fn start_writeback(_: &File) {}

/// The file a path names once its symbolic links are followed (40 at most, as the kernel allows);
/// a path that is not a link is itself.
pub(crate) fn resolve_links(path: &Path) -> Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&current).map_err(|e| Error::io(path, e))?;
                current = match current.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(Error::input(path, "too many levels of symbolic links"))
}

/// Checks, before any work, that `output` can be written and is none of `inputs`: its folder
/// exists and can be written in, and it is neither one of `inputs` (the same file, by any name)
/// nor inside an input folder, since a run must never replace or add to what it reads. `-` is
/// stdout, and a device or a pipe is written in place, so only their being an input matters.
pub fn refuse_overwriting_inputs(output: &Path, inputs: &[&Path]) -> Result<()> {
    if output == Path::new("-") {
        return Ok(());
    }
    let target = resolve_links(output)?;
    let meta = std::fs::metadata(&target).ok();
    if meta.as_ref().is_none_or(std::fs::Metadata::is_file) {
        check_folder(output, &target)?;
    }
    for input in inputs {
        let Ok(input_meta) = std::fs::metadata(input) else {
            continue;
        };
        let same = meta
            .as_ref()
            .is_some_and(|meta| same_file(meta, &input_meta));
        if same || (input_meta.is_dir() && is_inside(&target, input)) {
            let relation = if same { "is also" } else { "is inside" };
            return Err(Error::input(
                output,
                format!(
                    "{relation} the input {}; write the output elsewhere",
                    input.display()
                ),
            ));
        }
    }
    Ok(())
}

/// The folder `target` is to be written in exists, is a folder, and may be written in.
fn check_folder(output: &Path, target: &Path) -> Result<()> {
    let folder = folder(target);
    match std::fs::metadata(folder) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return Err(Error::input(
                output,
                format!("{} is not a folder", folder.display()),
            ))
        }
        Err(_) => {
            let message = format!("its folder {} does not exist", folder.display());
            return Err(Error::input(output, message));
        }
    }
    // A file created and dropped unnamed leaves no trace; where there are no unnamed files, a
    // named probe is created and removed.
    let probe = create_temp(target).and_then(|(file, name)| {
        drop(file);
        name.map_or(Ok(()), std::fs::remove_file)
    });
    probe.map_err(|e| Error::input(output, format!("cannot write in {}: {e}", folder.display())))
}

/// Whether `target` lies inside the folder `dir`, both with their links followed.
fn is_inside(target: &Path, dir: &Path) -> bool {
    let (Ok(dir), Ok(parent)) = (dir.canonicalize(), folder(target).canonicalize()) else {
        return false;
    };
    parent.starts_with(dir)
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.is_file() && a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

/// A new file to write `target` in, beside it so that the rename stays on one filesystem, and
/// its name if it has one.
fn create_temp(target: &Path) -> std::io::Result<(File, Option<PathBuf>)> {
    if let Some(file) = create_unnamed(target) {
        return Ok((file, None));
    }
    let name = temp_path(target);
    Ok((File::create(&name)?, Some(name)))
}

/// An unnamed file in `target`'s folder, where the system has them.
#[cfg(target_os = "linux")]
fn create_unnamed(target: &Path) -> Option<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // The file is named through /proc when complete (`name_unnamed`); without /proc it could
    // not be.
    if !Path::new("/proc/self/fd").is_dir() {
        return None;
    }
    // Any failure (a filesystem or a kernel without unnamed files) falls back to a named file,
    // which reports a real problem such as a folder that cannot be written.
    std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_TMPFILE)
        .open(folder(target))
        .ok()
}

#[cfg(not(target_os = "linux"))]
fn create_unnamed(_: &Path) -> Option<File> {
    None
}

/// Gives the unnamed `file` the name `name`.
#[cfg(target_os = "linux")]
fn name_unnamed(file: &File, name: PathBuf) -> std::io::Result<PathBuf> {
    use std::ffi::CString;
    use std::os::fd::AsRawFd;
    use std::os::unix::ffi::OsStrExt;
    let from = CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))?;
    let to = CString::new(name.as_os_str().as_bytes())?;
    // The name holds this process's id, so a file already under it was left by a killed process
    // that had the same id.
    let _ = std::fs::remove_file(&name);
    // SAFETY: both paths are NUL-terminated and outlive the call.
    let linked = unsafe {
        libc::linkat(
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            libc::AT_SYMLINK_FOLLOW,
        )
    };
    match linked {
        0 => Ok(name),
        _ => Err(std::io::Error::last_os_error()),
    }
}

#[cfg(not(target_os = "linux"))]
fn name_unnamed(_: &File, _: PathBuf) -> std::io::Result<PathBuf> {
    Err(std::io::Error::other("unnamed files exist only on Linux"))
}

/// A hidden name beside `path` for its temporary file, unique to this process.
fn temp_path(path: &Path) -> PathBuf {
    path.with_file_name(format!(".{}.{}.tmp", file_name(path), std::process::id()))
}

fn file_name(path: &Path) -> std::borrow::Cow<'_, str> {
    path.file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default()
}

/// Removes the temporary files (see [`Output`]) that killed writers of the file `target` (links
/// already followed) left beside it. Only a caller that knows that no live process is writing
/// `target` may call it, as a model writer knows under the model's lock. Failures are ignored: a
/// leftover wastes space and harms nothing.
pub(crate) fn remove_stale_temps(target: &Path) {
    let Ok(entries) = std::fs::read_dir(folder(target)) else {
        return;
    };
    let prefix = format!(".{}.", file_name(target));
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let process = name
            .strip_prefix(prefix.as_str())
            .and_then(|rest| rest.strip_suffix(".tmp"));
        // `.NAME.PID.tmp` and nothing else: not the temporary file of a longer name.
        if process.is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// The folder that holds `path`.
fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Writes a whole file atomically through `write`.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut Output) -> std::io::Result<()>,
) -> Result<()> {
    let mut output = Output::create(path)?;
    write(&mut output).map_err(|e| output.error(e))?;
    output.commit()
}

/// Syncs the folder that holds `path`, so that a rename into it survives a power cut.
pub fn sync_folder(path: &Path) -> Result<()> {
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    File::open(folder)
        .and_then(|f| f.sync_all())
        .map_err(|e| Error::io(folder, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.json");
        write_atomically(&path, |out| out.write_all(b"good")).unwrap();
        let failed = write_atomically(&path, |out| {
            out.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"good");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_has_no_name_until_it_is_committed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let mut output = Output::create(&path).unwrap();
        output.write_all(b"complete").unwrap();
        output.flush().unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        output.commit().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"complete");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn only_the_targets_temporary_files_are_stale() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            "m.model",
            ".m.model.lock",
            ".m.model.123.tmp",
            ".m.model.old.123.tmp",
            ".m.model.12x.tmp",
            ".m.model..tmp",
            ".n.model.123.tmp",
        ];
        for name in names {
            std::fs::write(dir.path().join(name), b"").unwrap();
        }
        remove_stale_temps(&dir.path().join("m.model"));
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let mut kept: Vec<&str> = names
            .into_iter()
            .filter(|n| *n != ".m.model.123.tmp")
            .collect();
        kept.sort();
        assert_eq!(left, kept);
    }
}
