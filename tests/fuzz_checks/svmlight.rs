//! Target `svmlight`: rows written by [`SvmlightWriter`] read back as they were.
//!
//! bowline writes svmlight (`bowline vectorize`) but reads none, so the reader here is the
//! format as `src/vectorize/svmlight.rs` documents it and liblinear and scikit-learn read it:
//! `label index:value ...` per line, indices 1-based, a whole value below 1e15 as an integer and
//! any other as the shortest decimal that reads back as the same `f32`. Rows are written both
//! one at a time ([`SvmlightWriter::format_row`]) and in parallel chunks
//! ([`SvmlightWriter::write_rows`]), which must give the same bytes.

use std::ops::Range;

use bowline::vectorize::svmlight::SvmlightWriter;
use bowline::vectorize::RowSource;

/// One row: its label, columns (0-based) and values.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub label: i64,
    pub indices: Vec<u32>,
    pub values: Vec<f64>,
}

/// The input is a list of rows: each is one byte with its number of entries (modulo 8) and
/// whether its label is small (one byte) or any `i64` (eight), then the label, then each entry
/// as a 4-byte column and an 8-byte value (any `f64` bits: NaN, infinities, subnormals).
/// A row cut short by the end of the input is left out.
pub fn check(data: &[u8]) {
    round_trip(&rows_of(data));
}

/// Writes `rows` both ways, checks the bytes agree and reads them back.
pub fn round_trip(rows: &[Row]) {
    let mut one_by_one = Vec::new();
    let mut writer = SvmlightWriter::new();
    for row in rows {
        one_by_one.extend_from_slice(writer.format_row(row.label, &row.indices, &row.values));
    }
    let labels: Vec<i64> = rows.iter().map(|row| row.label).collect();
    let mut chunked = Vec::new();
    let entries = SvmlightWriter::write_rows(&mut chunked, &labels, &Rows(rows))
        .expect("a Vec takes every write");
    assert_eq!(
        entries,
        rows.iter().map(|row| row.indices.len()).sum::<usize>()
    );
    assert!(
        chunked == one_by_one,
        "chunked and row-by-row writing differ"
    );
    let text = String::from_utf8(one_by_one).expect("svmlight is ASCII");
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    assert_eq!(lines.len(), rows.len(), "one line per row: {text:?}");
    for (line, row) in lines.iter().zip(rows) {
        read_back(line, row);
    }
}

fn rows_of(mut data: &[u8]) -> Vec<Row> {
    let mut rows = Vec::new();
    while let Some((&head, rest)) = data.split_first() {
        let label_size = if head & 8 != 0 { 8 } else { 1 };
        let entries = usize::from(head & 7);
        let Some((label, rest)) = take(rest, label_size) else {
            break;
        };
        let Some((pairs, rest)) = take(rest, entries * 12) else {
            break;
        };
        let label = match label_size {
            1 => i64::from(label[0] as i8),
            _ => i64::from_le_bytes(label.try_into().expect("eight bytes")),
        };
        let indices = pairs
            .chunks_exact(12)
            .map(|e| u32::from_le_bytes(e[..4].try_into().expect("four bytes")))
            .collect();
        let values = pairs
            .chunks_exact(12)
            .map(|e| f64::from_le_bytes(e[4..].try_into().expect("eight bytes")))
            .collect();
        rows.push(Row {
            label,
            indices,
            values,
        });
        data = rest;
    }
    rows
}

fn take(data: &[u8], n: usize) -> Option<(&[u8], &[u8])> {
    (data.len() >= n).then(|| data.split_at(n))
}

/// Reads one line and compares it with the row it was written from.
fn read_back(line: &str, row: &Row) {
    let mut fields = line.split(' ');
    let label: i64 = fields
        .next()
        .and_then(|l| l.parse().ok())
        .unwrap_or_else(|| panic!("no label in {line:?}"));
    assert_eq!(label, row.label, "label of {line:?}");
    let entries: Vec<&str> = fields.collect();
    assert_eq!(entries.len(), row.indices.len(), "entries of {line:?}");
    for ((entry, &index), &value) in entries.iter().zip(&row.indices).zip(&row.values) {
        let (column, number) = entry
            .split_once(':')
            .unwrap_or_else(|| panic!("no ':' in {entry:?}"));
        assert_eq!(
            column.parse::<u64>().ok(),
            Some(u64::from(index) + 1),
            "column of {entry:?}"
        );
        if value.fract() == 0.0 && value.abs() < 1e15 {
            assert_eq!(
                number.parse::<f64>().ok(),
                Some(value),
                "whole value {value} as {entry:?}"
            );
        } else {
            let read: f32 = number
                .parse()
                .unwrap_or_else(|_| panic!("{entry:?} is not a number"));
            let expected = value as f32;
            let same = read.to_bits() == expected.to_bits() || read.is_nan() && expected.is_nan();
            assert!(
                same,
                "{value} written as {entry:?} reads {read}, not {expected}"
            );
        }
    }
}

/// Rows as the writer's row source.
struct Rows<'a>(&'a [Row]);

impl RowSource for Rows<'_> {
    fn rows(&self) -> usize {
        self.0.len()
    }

    fn entries(&self, range: Range<usize>) -> usize {
        self.0[range].iter().map(|row| row.indices.len()).sum()
    }

    fn visit(&self, range: Range<usize>, mut each: impl FnMut(usize, &[u32], &[f64])) {
        for i in range {
            each(i, &self.0[i].indices, &self.0[i].values);
        }
    }
}
