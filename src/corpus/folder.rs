//! Folder inputs: a class-per-folder tree, and unlabeled files or trees.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::entry::{Document, Entries, Entry};
use crate::error::{Error, Result};

/// Hidden files and folders (names starting with `.`) are editor and VCS litter, not documents.
fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.as_encoded_bytes().first() == Some(&b'.')
}

/// Lists the class folders of `root`: its immediate, non-hidden subfolders, sorted by name.
fn list_classes(root: &Path) -> Result<Vec<(String, PathBuf)>> {
    let reader = std::fs::read_dir(root).map_err(|e| Error::io(root, e))?;
    let mut classes = Vec::new();
    for item in reader {
        let item = item.map_err(|e| Error::io(root, e))?;
        let path = item.path();
        if !is_hidden(&item.file_name()) && path.is_dir() {
            classes.push((item.file_name().to_string_lossy().into_owned(), path));
        }
    }
    classes.sort();
    if classes.is_empty() {
        return Err(Error::input(
            root,
            "no class folders (one subfolder per class) found; use --input files for unlabeled documents",
        ));
    }
    Ok(classes)
}

/// Every regular file below `dir`, recursively, in sorted order, as pending entries whose id is
/// made by `id_of` from the file's path. Unreadable folders and broken links become failed entries.
fn walk_files(
    dir: PathBuf,
    label: Option<String>,
    id_of: impl Fn(&Path) -> String + Send + 'static,
) -> impl Iterator<Item = Entry> + Send {
    WalkDir::new(dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_hidden(e.file_name()))
        .filter_map(move |item| match item {
            Ok(e) if e.file_type().is_file() => Some(Entry {
                doc: Document {
                    id: id_of(e.path()),
                    label: label.clone(),
                    ..Document::default()
                },
                file: Some(e.into_path()),
                ..Entry::default()
            }),
            Ok(_) => None,
            Err(err) => {
                let path = err.path().map(Path::to_path_buf).unwrap_or_default();
                let io = err
                    .into_io_error()
                    .unwrap_or_else(|| std::io::Error::other("filesystem loop"));
                Some(Entry::failed(id_of(&path), Error::io(&path, io)))
            }
        })
}

/// A class-per-folder corpus: each immediate subfolder of `root` is a class; each file below it is
/// a document whose id is its path relative to `root`. Files directly in `root` belong to no
/// class and are not read.
pub(super) fn class_folders(root: &Path) -> Result<(Entries, Vec<String>)> {
    let classes = list_classes(root)?;
    let names = classes.iter().map(|(name, _)| name.clone()).collect();
    let root = root.to_path_buf();
    let entries = classes.into_iter().flat_map(move |(name, dir)| {
        let root = root.clone();
        walk_files(dir, Some(name), move |path| relative_id(&root, path))
    });
    Ok((Box::new(entries), names))
}

/// A multi-label class-per-folder corpus: the same file in several class folders is one
/// document, labelled with each of those folders in folder order and read from its first copy.
/// The same file means the same link target or the same bytes; a name shared by different files
/// (`space/01.txt`, `cooking/01.txt`) does not make them one. A document's id is its first
/// copy's path below the root, and documents come in the order their first copy is met. The
/// listing is read in full first, since a file's last folder may be the last one walked.
pub(super) fn merged_class_folders(root: &Path) -> Result<(Entries, Vec<String>)> {
    let classes = list_classes(root)?;
    let names = classes.iter().map(|(name, _)| name.clone()).collect();
    let mut joiner = Joiner::default();
    for (name, dir) in classes {
        let base = root.to_path_buf();
        for entry in walk_files(dir, Some(name.clone()), move |p| relative_id(&base, p)) {
            joiner.add(entry, &name);
        }
    }
    Ok((Box::new(joiner.merged.into_iter()), names))
}

/// Gathers a multi-label folder corpus's entries, joining copies of one file.
#[derive(Default)]
struct Joiner {
    merged: Vec<Entry>,
    /// Where each file's first copy went, by the path its links resolve to.
    by_target: HashMap<PathBuf, usize>,
    /// The documents of each size, with the hash of their bytes once it was needed: only files
    /// of equal size are read before the pipeline reads them.
    by_size: HashMap<u64, Vec<(usize, Option<u64>)>>,
}

impl Joiner {
    fn add(&mut self, mut entry: Entry, class: &str) {
        let Some(file) = entry.file.clone().filter(|_| entry.is_document()) else {
            self.merged.push(entry);
            return;
        };
        let target = std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
        let size = std::fs::metadata(&file).map_or(u64::MAX, |m| m.len());
        let at = match self.by_target.get(&target) {
            Some(&at) => Some(at),
            None => self.same_bytes(&file, size, class),
        };
        let at = at.filter(|&at| !self.merged[at].doc.label_set().iter().any(|l| l == class));
        if let Some(at) = at {
            let first = &mut self.merged[at];
            let mut set = first.doc.label_set();
            set.push(class.to_string());
            first.doc.set_labels(set);
            first.joined += 1;
            return;
        }
        entry.doc.set_labels(vec![class.to_string()]);
        let at = self.merged.len();
        self.by_target.insert(target, at);
        self.by_size.entry(size).or_default().push((at, None));
        self.merged.push(entry);
    }

    /// The document, of another class, whose file holds the same bytes as `file`, if any.
    fn same_bytes(&mut self, file: &Path, size: u64, class: &str) -> Option<usize> {
        let candidates = self.by_size.get_mut(&size)?;
        let bytes = std::fs::read(file).ok()?;
        let hash = hash_of(&bytes);
        for (at, known) in candidates.iter_mut() {
            let other = &self.merged[*at];
            if other.doc.label_set().iter().any(|l| l == class) {
                continue;
            }
            let Some(path) = other.file.as_deref() else {
                continue;
            };
            let other_hash = match known {
                Some(hash) => *hash,
                None => *known.insert(std::fs::read(path).map_or(0, |b| hash_of(&b))),
            };
            // Equal hashes are confirmed byte for byte: two files are one document only when
            // their bytes are the same.
            if other_hash == hash && std::fs::read(path).is_ok_and(|b| b == bytes) {
                return Some(*at);
            }
        }
        None
    }
}

fn hash_of(bytes: &[u8]) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault};
    BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(bytes)
}

/// Unlabeled input: one file, or every file below a folder. Ids are the paths as reached from the
/// path the user gave, so ids from several inputs never collide.
pub(super) fn unlabeled_files(path: &Path) -> Entries {
    Box::new(walk_files(path.to_path_buf(), None, |p| {
        p.to_string_lossy().into_owned()
    }))
}

/// The id of a file in a class-per-folder corpus: its path below the root, with `/` separators.
fn relative_id(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    let parts: Vec<_> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    parts.join("/")
}
