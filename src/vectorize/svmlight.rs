//! The svmlight / libsvm text format: `label index:value ...`, one row per line.
//!
//! Column indices are written 1-based, as liblinear requires (scikit-learn's `load_svmlight_file`
//! detects the base). Values are written as integers when they are whole, otherwise as the
//! shortest decimal that reads back as the same `f32`: plenty for features, and half the bytes
//! of full double precision.

use std::io::{self, Write};

use rayon::prelude::*;

use super::Matrix;

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
        self.line.clear();
        self.line
            .extend_from_slice(self.ints.format(label).as_bytes());
        for (&index, &value) in indices.iter().zip(values) {
            self.line.push(b' ');
            self.line
                .extend_from_slice(self.ints.format(u64::from(index) + 1).as_bytes());
            self.line.push(b':');
            self.push_value(value);
        }
        self.line.push(b'\n');
        &self.line
    }

    fn push_value(&mut self, value: f64) {
        if value.fract() == 0.0 && value.abs() < 1e15 {
            self.line
                .extend_from_slice(self.ints.format(value as i64).as_bytes());
        } else {
            self.line
                .extend_from_slice(self.floats.format(value as f32).as_bytes());
        }
    }

    /// Writes every row of `matrix` with its label. Rows are formatted in parallel, a group at a
    /// time so that memory stays bounded, and written in order.
    pub fn write_matrix(out: &mut impl Write, labels: &[i64], matrix: &Matrix) -> io::Result<()> {
        if labels.len() != matrix.rows() {
            let message = format!("{} labels for {} rows", labels.len(), matrix.rows());
            return Err(io::Error::new(io::ErrorKind::InvalidInput, message));
        }
        let chunks = super::row_chunks(matrix.rows());
        // A few chunks per thread keep every thread busy while holding only that much text.
        for group in chunks.chunks(4 * rayon::current_num_threads()) {
            let texts: Vec<Vec<u8>> = group
                .par_iter()
                .map(|range| {
                    let (mut writer, mut text) = (SvmlightWriter::new(), Vec::new());
                    for i in range.clone() {
                        let span = matrix.indptr().outer_inds_sz(i);
                        let (indices, values) =
                            (&matrix.indices()[span.clone()], &matrix.data()[span]);
                        text.extend_from_slice(writer.format_row(labels[i], indices, values));
                    }
                    text
                })
                .collect();
            for text in texts {
                out.write_all(&text)?;
            }
        }
        Ok(())
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
}
