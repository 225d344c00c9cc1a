//! `label`: a person labels a pool, one document at a time, while a model learns each label.
//!
//! The labels file is JSON lines, `{"id", "label", "text"}`, which `train` and every other
//! command read as a corpus. Each label is appended and synced to disk before it counts, so a
//! label once answered as saved survives a crash; a line a crash cut short was never answered,
//! and is cut off when the file is opened again. Undo truncates the file before its last line,
//! and syncs it: the file holds exactly the labels in force, with no undo records to skip.
//! Skipped documents are kept the same way in a file beside it, `LABELS.skipped`, one
//! `{"id"}` per line, so that a restart asks about neither a labelled nor a skipped document.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::Note;
use crate::active::session::{Action, Pool, Record, Session, View};
use crate::analyze::{Analyzer, Terms};
use crate::classifier::OnlineLearner;
use crate::corpus::ReadOptions;
use crate::error::{Error, Result};
use crate::model::{Kind, Model};
use crate::vectorize::{DfBound, VectorizerConfig};

/// A `label` session to open.
pub struct Label {
    /// The pool: files, folders of files, line files.
    pub pool: Vec<PathBuf>,
    /// How the pool is read: as unlabeled documents.
    pub read: ReadOptions,
    /// The labels file, created when missing, resumed when not.
    pub labels: PathBuf,
    /// A naive Bayes model to start from; without one, an empty multinomial model.
    pub model: Option<PathBuf>,
    /// The classes offered before any label names them.
    pub classes: Vec<String>,
}

/// An open labelling session: the session and its files.
pub struct Labelling {
    session: Session,
    labels: Journal,
    skips: Journal,
    view: View,
}

impl Label {
    /// Reads the pool (telling `note` of each entry), opens the labels file and relearns the
    /// labels it holds, and picks the first document to ask about.
    pub fn open(self, note: Note) -> Result<Labelling> {
        let model = self.model.clone();
        let fresh: Box<dyn Fn() -> Result<OnlineLearner> + Send> =
            Box::new(move || learner(model.as_deref()));
        let analyzer = Analyzer::new(fresh()?.analysis().clone())?;
        let pool = read_pool(&self.pool, &self.read, &analyzer, note)?;
        let classes = self.classes.iter().map(|c| c.trim().to_string());
        let classes = classes.filter(|c| !c.is_empty()).collect();
        let mut session = Session::new(pool, classes, fresh)?;
        let (labels, lines) = Journal::open(&self.labels)?;
        for (n, line) in lines.iter().enumerate() {
            let record: Record = serde_json::from_str(line)
                .map_err(|e| Error::input(&self.labels, format!("line {}: {e}", n + 1)))?;
            session.learn(record)?;
        }
        let mut skipped = self.labels.into_os_string();
        skipped.push(".skipped");
        let (skips, lines) = Journal::open(Path::new(&skipped))?;
        for line in lines {
            let skip: Skipped =
                serde_json::from_str(&line).map_err(|e| Error::input(&skipped, e.to_string()))?;
            if let Some(i) = session.find(&skip.id).filter(|&i| !session.is_done(i)) {
                session.skipped_before(i);
            }
        }
        session.pick();
        let view = session.view()?;
        Ok(Labelling {
            session,
            labels,
            skips,
            view,
        })
    }
}

/// A line of the file of skipped documents.
#[derive(serde::Serialize, serde::Deserialize)]
struct Skipped {
    id: String,
}

impl Labelling {
    /// What the page shows now.
    pub fn view(&self) -> &View {
        &self.view
    }

    /// Gives pool document `id` the label `label`: appended to the labels file and synced,
    /// then learned, then the next document picked.
    pub fn label(&mut self, id: &str, label: &str) -> Result<()> {
        let i = self.open_document(id)?;
        let label = label.trim();
        if label.is_empty() {
            return Err(Error::Config("a label cannot be empty".into()));
        }
        let record = self.session.record(i, label);
        self.labels.append(&json_line(&record)?)?;
        self.session.learn(record)?;
        self.moved_on()
    }

    /// Skips pool document `id`, kept in the file of skipped documents.
    pub fn skip(&mut self, id: &str) -> Result<()> {
        let i = self.open_document(id)?;
        self.skips.append(&json_line(&Skipped { id: id.into() })?)?;
        self.session.skip(i);
        self.moved_on()
    }

    /// Takes the last label or skip back, in its file first; false when there is none.
    pub fn undo(&mut self) -> Result<bool> {
        match self.session.last_action() {
            None => return Ok(false),
            Some(Action::Labelled) => self.labels.drop_last()?,
            Some(Action::Skipped(_)) => self.skips.drop_last()?,
        }
        self.session.undo()?;
        self.moved_on()?;
        Ok(true)
    }

    /// The pool document of `id`, which must be neither labelled nor skipped.
    fn open_document(&self, id: &str) -> Result<usize> {
        let i = (self.session.find(id))
            .ok_or_else(|| Error::Config(format!("no document '{id}' in the pool")))?;
        match self.session.is_done(i) {
            true => Err(Error::Config(format!(
                "'{id}' is labelled or skipped already"
            ))),
            false => Ok(i),
        }
    }

    fn moved_on(&mut self) -> Result<()> {
        self.session.pick();
        self.view = self.session.view()?;
        Ok(())
    }
}

fn json_line<T: serde::Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| Error::Config(format!("cannot write JSON: {e}")))
}

/// A new learner: the model at `model`, or an empty multinomial naive Bayes model that keeps
/// every term, as `learn` starts one.
fn learner(model: Option<&Path>) -> Result<OnlineLearner> {
    if let Some(path) = model {
        return OnlineLearner::resume(Model::load(path)?, path);
    }
    let kind = Kind::Mnb;
    let vectorizer = VectorizerConfig {
        min_df: DfBound::Count(1),
        ..kind.default_vectorizer()
    };
    let alpha = kind.default_alpha().value();
    OnlineLearner::new(kind, kind.default_analysis(), vectorizer, alpha)
}

/// Reads every document of the pool, in order, and analyzes them on every core.
fn read_pool(
    paths: &[PathBuf],
    read: &ReadOptions,
    analyzer: &Analyzer,
    note: Note,
) -> Result<Pool> {
    let mut pool = Pool::default();
    for mut entry in super::classify::sources(paths, read)?.entries {
        crate::corpus::load_pending(&mut entry, read.max_doc_bytes);
        note(&entry);
        if entry.is_document() {
            pool.ids.push(std::mem::take(&mut entry.doc.id));
            pool.texts.push(std::mem::take(&mut entry.doc.text));
        }
    }
    pool.terms = (pool.texts.par_iter())
        .map_init(
            || analyzer.worker(),
            |worker, text| {
                let mut terms = Terms::new();
                worker.analyze(text, &mut terms);
                terms
            },
        )
        .collect();
    Ok(pool)
}

/// A file of JSON lines that grows by appends, each synced before it counts, and shrinks by
/// its last line.
struct Journal {
    path: PathBuf,
    file: File,
    /// Where each line ends, its newline included.
    ends: Vec<u64>,
}

impl Journal {
    /// Opens or creates the file, cutting off a last line without its newline (a write a crash
    /// interrupted), and gives its lines.
    fn open(path: &Path) -> Result<(Journal, Vec<String>)> {
        let existed = path.exists();
        let io = |e| Error::io(path, e);
        let mut file = (OpenOptions::new().read(true).append(true).create(true))
            .open(path)
            .map_err(io)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        let mut whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
        // A last line that is whole JSON lacks only its newline (an editor's habit); anything
        // else there is a write a crash cut short, never answered as saved.
        if serde_json::from_slice::<serde_json::Value>(&bytes[whole..]).is_ok() {
            file.write_all(b"\n").map_err(io)?;
            bytes.push(b'\n');
            whole = bytes.len();
        }
        if whole < bytes.len() {
            file.set_len(whole as u64).map_err(io)?;
            file.sync_all().map_err(io)?;
        }
        if !existed {
            file.sync_all().map_err(io)?;
            crate::io::sync_folder(path)?;
        }
        let text = String::from_utf8(bytes[..whole].to_vec())
            .map_err(|_| Error::input(path, "the file is not UTF-8"))?;
        let (mut lines, mut ends, mut end) = (Vec::new(), Vec::new(), 0u64);
        for line in text.split_inclusive('\n') {
            end += line.len() as u64;
            ends.push(end);
            lines.push(line.trim_end().to_string());
        }
        let path = path.to_path_buf();
        Ok((Journal { path, file, ends }, lines))
    }

    /// Appends `line` and syncs the file.
    fn append(&mut self, line: &str) -> Result<()> {
        let io = |e| Error::io(&self.path, e);
        self.file
            .write_all(format!("{line}\n").as_bytes())
            .map_err(io)?;
        self.file.sync_data().map_err(io)?;
        let start = self.ends.last().copied().unwrap_or(0);
        self.ends.push(start + line.len() as u64 + 1);
        Ok(())
    }

    /// Truncates the file before its last line and syncs it.
    fn drop_last(&mut self) -> Result<()> {
        let io = |e| Error::io(&self.path, e);
        self.ends.pop();
        let end = self.ends.last().copied().unwrap_or(0);
        self.file.set_len(end).map_err(io)?;
        self.file.sync_data().map_err(io)
    }
}
