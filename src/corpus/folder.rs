//! Folder inputs: a class-per-folder tree, and unlabeled files or trees.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::{Document, Entries, Entry};
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

/// A multi-label class-per-folder corpus: files with the same path below their class folders
/// are one document, labelled with each of those folders in folder order, read from the first
/// folder's copy. The document's id is that shared path; documents come in the order their
/// first copy is met. The listing is read in full first, since a file's last folder may be the
/// last one walked.
pub(super) fn merged_class_folders(root: &Path) -> Result<(Entries, Vec<String>)> {
    let classes = list_classes(root)?;
    let names = classes.iter().map(|(name, _)| name.clone()).collect();
    let mut merged: Vec<Entry> = Vec::new();
    let mut position = std::collections::HashMap::new();
    for (name, dir) in classes {
        let base = dir.clone();
        for mut entry in walk_files(dir, Some(name.clone()), move |p| relative_id(&base, p)) {
            if !entry.is_document() {
                merged.push(entry);
                continue;
            }
            match position.get(&entry.doc.id) {
                Some(&at) => {
                    let first: &mut Entry = &mut merged[at];
                    let mut set = first.doc.label_set();
                    set.push(name.clone());
                    first.doc.set_labels(set);
                }
                None => {
                    position.insert(entry.doc.id.clone(), merged.len());
                    entry.doc.set_labels(vec![name.clone()]);
                    merged.push(entry);
                }
            }
        }
    }
    Ok((Box::new(merged.into_iter()), names))
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
