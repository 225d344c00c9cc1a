//! The svmlight / libsvm text format: `label index:value ...`, one row per line.
//!
//! Column indices are written 1-based, as liblinear requires (scikit-learn's `load_svmlight_file`
//! detects the base). Values are written as integers when they are whole, otherwise as the
//! shortest decimal that reads back as the same `f32`: plenty for features, and half the bytes
//! of full double precision.

use std::io::{self, Write};
use std::ops::Range;

use rayon::prelude::*;

use super::RowSource;

/// Formats rows into a reused line buffer; write one line per document.
#[derive(Default)]
pub struct SvmlightWriter {
    line: Vec<u8>,
    ints: itoa::Buffer,
    floats: ryu::Buffer,
}

impl SvmlightWriter {
    /// A writer with an empty line buffer.
    pub fn new() -> Self {
        SvmlightWriter::default()
    }

    /// Writes one row: the label, then `index+1:value` for each stored entry.
    pub fn write_row(
        &mut self,
        out: &mut impl Write,
        label: i64,
        indices: &[u32],
        values: &[f64],
    ) -> io::Result<()> {
        out.write_all(self.format_row(label, indices, values))
    }

    /// Formats one row, newline included, into the writer's line buffer.
    pub fn format_row(&mut self, label: i64, indices: &[u32], values: &[f64]) -> &[u8] {
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        self.append_row(label, indices, values, &mut line);
        self.line = line;
        &self.line
    }

    /// Appends one row, newline included, to `text`.
    fn append_row(&mut self, label: i64, indices: &[u32], values: &[f64], text: &mut Vec<u8>) {
        text.extend_from_slice(self.ints.format(label).as_bytes());
        for (&index, &value) in indices.iter().zip(values) {
            text.push(b' ');
            text.extend_from_slice(self.ints.format(u64::from(index) + 1).as_bytes());
            text.push(b':');
            if value.fract() == 0.0 && value.abs() < 1e15 {
                text.extend_from_slice(self.ints.format(value as i64).as_bytes());
            } else {
                text.extend_from_slice(self.floats.format(value as f32).as_bytes());
            }
        }
        text.push(b'\n');
    }

    /// Writes every row of `source` with its label and returns the number of entries written.
    /// Rows are formatted in parallel, a group of chunks at a time so that memory stays bounded,
    /// and written in order; each group is written while the next one is formatted, so that no
    /// thread waits for the writes.
    pub fn write_rows(
        out: &mut (impl Write + Send),
        labels: &[i64],
        source: &impl RowSource,
    ) -> io::Result<usize> {
        if labels.len() != source.rows() {
            let message = format!("{} labels for {} rows", labels.len(), source.rows());
            return Err(io::Error::new(io::ErrorKind::InvalidInput, message));
        }
        let chunks = super::row_chunks(source.rows());
        let format = |group: &[Range<usize>]| -> Vec<Chunk> {
            group
                .par_iter()
                .map(|range| Chunk::format(source, labels, range.clone()))
                .collect()
        };
        let write = |out: &mut _, chunks: Vec<Chunk>| {
            chunks.iter().try_fold(0, |entries, chunk| {
                Write::write_all(out, &chunk.text).map(|()| entries + chunk.entries)
            })
        };
        // Two chunks per thread keep every thread busy while two groups' text is held.
        let mut groups = chunks.chunks(2 * rayon::current_num_threads());
        let mut formatted = groups.next().map(format).unwrap_or_default();
        let mut entries = 0;
        for group in groups {
            let (next, written) = rayon::join(|| format(group), || write(&mut *out, formatted));
            entries += written?;
            formatted = next;
        }
        Ok(entries + write(out, formatted)?)
    }
}

/// The text of a chunk of rows, and how many entries it holds.
struct Chunk {
    text: Vec<u8>,
    entries: usize,
}

impl Chunk {
    /// Formats rows `range` of `source`. The buffer is sized from the chunk's entries (about 18
    /// bytes each on 20 Newsgroups), so that it is not outgrown and copied while it fills.
    fn format(source: &impl RowSource, labels: &[i64], range: Range<usize>) -> Chunk {
        let size = 20 * source.entries(range.clone()) + 8 * range.len();
        let (mut text, mut entries) = (Vec::with_capacity(size), 0);
        let mut writer = SvmlightWriter::new();
        source.visit(range, |i, indices, values| {
            writer.append_row(labels[i], indices, values, &mut text);
            entries += indices.len();
        });
        Chunk { text, entries }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_one_based_and_compact() {
        let mut out = Vec::new();
        let mut writer = SvmlightWriter::new();
        writer
            .write_row(&mut out, 3, &[0, 41], &[2.0, 0.25])
            .unwrap();
        writer.write_row(&mut out, 0, &[], &[]).unwrap();
        writer.write_row(&mut out, 1, &[7], &[1.0 / 3.0]).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "3 1:2 42:0.25\n0\n1 8:0.33333334\n"
        );
    }

    #[test]
    fn a_matrix_of_many_groups_is_written_in_row_order() {
        // Enough rows for several groups of chunks, so that groups are formatted while others
        // are written.
        let rows = 20 * super::super::matrix::ROW_CHUNK + 7;
        let mut builder = crate::vectorize::MatrixBuilder::default();
        let mut expected = Vec::new();
        let mut writer = SvmlightWriter::new();
        for i in 0..rows {
            let row = crate::vectorize::SparseRow {
                indices: (0..(i % 5) as u32).map(|j| j * 3 + 1).collect(),
                values: (0..i % 5).map(|j| (i + j) as f64 / 7.0).collect(),
            };
            writer
                .write_row(&mut expected, i as i64, &row.indices, &row.values)
                .unwrap();
            builder.push(&row);
        }
        let matrix = builder.finish(16).unwrap();
        let labels: Vec<i64> = (0..rows as i64).collect();
        let mut out = Vec::new();
        SvmlightWriter::write_rows(&mut out, &labels, &matrix).unwrap();
        assert_eq!(out, expected);
    }
}
