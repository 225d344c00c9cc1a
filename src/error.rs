//! The library's error type.
//!
//! Every error that comes from user input names the file, and the line where there is one, so a
//! message on the terminal is enough to find the problem.

use std::path::{Path, PathBuf};

/// Everything that can go wrong in bowline.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or folder could not be opened, read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder involved.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// One line of a line-oriented input (TSV, JSONL) is malformed.
    #[error("{}:{line}: {message}", path.display())]
    Line {
        /// The input file, or `-` for standard input.
        path: PathBuf,
        /// The 1-based line number.
        line: u64,
        /// What is wrong with it.
        message: String,
    },
    /// The input as a whole cannot be used (no class folders, unknown format, ...).
    #[error("{}: {message}", path.display())]
    Input {
        /// The corpus root or file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// A parameter is out of range or contradicts another one.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// A pipeline stage returned an error or panicked.
    #[error("pipeline stage '{stage}' failed: {message}")]
    Stage {
        /// The stage's name.
        stage: String,
        /// The error or panic message.
        message: String,
    },
    /// A saved vectorizer or model could not be decoded.
    #[error("{}: {message}", path.display())]
    Format {
        /// The file that was being read.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
}

/// The library's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl AsRef<Path>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

    /// An error about one input file or root as a whole.
    pub fn input(path: impl AsRef<Path>, message: impl Into<String>) -> Self {
        Error::Input {
            path: path.as_ref().to_path_buf(),
            message: message.into(),
        }
    }

    /// True when the error is a closed output pipe, which a command treats as a normal end.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }
}
