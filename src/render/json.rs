//! JSON outputs: every one starts with its `schema_version`.

use crate::error::{Error, Result};

/// The layout version of every JSON output (`schema_version`): raised when a field changes
/// meaning or goes away, so that a program reading the output can tell.
pub(crate) const SCHEMA_VERSION: u32 = 1;

/// A JSON document with its `schema_version` first.
#[derive(serde::Serialize)]
struct Versioned<'a, T: ?Sized> {
    schema_version: u32,
    #[serde(flatten)]
    body: &'a T,
}

/// `value`, an object, as indented JSON with `schema_version` first, and a final newline.
pub(crate) fn json_text<T: serde::Serialize + ?Sized>(value: &T) -> Result<String> {
    let versioned = Versioned {
        schema_version: SCHEMA_VERSION,
        body: value,
    };
    serde_json::to_string_pretty(&versioned)
        .map(|text| text + "\n")
        .map_err(|e| Error::Config(format!("cannot encode JSON: {e}")))
}

/// Appends `value`, an object, as one line of JSON with `schema_version` first.
pub(crate) fn json_line<T: serde::Serialize + ?Sized>(line: &mut Vec<u8>, value: &T) -> Result<()> {
    let versioned = Versioned {
        schema_version: SCHEMA_VERSION,
        body: value,
    };
    serde_json::to_writer(&mut *line, &versioned)
        .map_err(|e| Error::Config(format!("cannot encode JSON: {e}")))?;
    line.push(b'\n');
    Ok(())
}

/// Writes `value`, an object, as one line of JSON with `schema_version` first, straight into
/// `out`: a large object (an exported model) is never held as text.
pub(crate) fn write_json<T: serde::Serialize + ?Sized>(
    out: &mut impl std::io::Write,
    value: &T,
) -> std::io::Result<()> {
    let versioned = Versioned {
        schema_version: SCHEMA_VERSION,
        body: value,
    };
    serde_json::to_writer(&mut *out, &versioned)?;
    out.write_all(b"\n")
}
