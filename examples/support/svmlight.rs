//! The svmlight reader that the benchmark examples share (`kernel_svm.rs`, `approx_svm.rs`):
//! the library writes svmlight but has no reason to read it.

use bowline::vectorize::{Matrix, MatrixBuilder, SparseRow};

/// What an example's `main` returns on failure.
pub type Failure = Box<dyn std::error::Error>;

/// Labels and rows of an svmlight file with 1-based columns, in `columns` columns at least.
pub fn read_svmlight(path: &str, columns: usize) -> Result<(Vec<u32>, Matrix), Failure> {
    let text = std::fs::read_to_string(path)?;
    let mut builder = MatrixBuilder::default();
    let (mut labels, mut width) = (Vec::new(), columns);
    for line in text.lines() {
        let mut fields = line.split(' ');
        labels.push(fields.next().unwrap_or_default().parse()?);
        let mut row = SparseRow::default();
        for pair in fields.filter(|f| !f.is_empty()) {
            let (index, value) = pair.split_once(':').ok_or("a field without `:`")?;
            let column = index.parse::<u32>()?.checked_sub(1).ok_or("column 0")?;
            width = width.max(column as usize + 1);
            row.indices.push(column);
            row.values.push(value.parse()?);
        }
        builder.push(&row);
    }
    Ok((labels, builder.finish(width)?))
}
