//! Target `cost_matrix`: [`CostMatrix::parse`] on any text never panics, and accepts exactly the
//! files its documentation (`src/model/decision.rs`) describes, with the costs they hold: lines
//! starting with `#` and blank lines ignored; a header line of true classes after an ignored
//! first cell; then one line per predicted class with its costs, tab-separated; every class of
//! the model once as a row and once as a column; every cost a finite number.

use std::path::Path;

use bowline::model::CostMatrix;

use super::parameters;

/// The model's classes, of which byte 0 chooses how many (its value modulo 5).
pub const LABELS: [&str; 4] = ["ham", "spam", "x", "é y"];

/// Byte 0: the number of classes; the rest is the file (invalid UTF-8 replaced).
pub fn check(data: &[u8]) {
    let ([count], rest) = parameters::<1>(data);
    let labels: Vec<String> = LABELS[..usize::from(count % 5)]
        .iter()
        .map(|l| l.to_string())
        .collect();
    let text = String::from_utf8_lossy(rest);
    let parsed = CostMatrix::parse(&text, &labels, Path::new("costs.tsv"));
    let expected = reference(&text, &labels);
    match (parsed, expected) {
        (Ok(matrix), Some(costs)) => {
            for (p, row) in costs.iter().enumerate() {
                for (t, &cost) in row.iter().enumerate() {
                    assert_eq!(
                        matrix.cost(p, t).to_bits(),
                        cost.to_bits(),
                        "cost({p}, {t}) of {text:?}"
                    );
                }
            }
        }
        (Err(_), None) => {}
        (parsed, expected) => {
            panic!("{text:?} with classes {labels:?}: parsed {parsed:?}, expected {expected:?}")
        }
    }
}

/// The costs, `costs[predicted][truth]`, or `None` when the file is not a valid cost matrix.
fn reference(text: &str, labels: &[String]) -> Option<Vec<Vec<f64>>> {
    let class = |name: &str| labels.iter().position(|l| l == name.trim());
    let mut lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let columns: Vec<usize> = lines
        .next()?
        .split('\t')
        .skip(1)
        .map(class)
        .collect::<Option<_>>()?;
    if !once_each(&columns, labels.len()) {
        return None;
    }
    let mut rows = vec![None; labels.len()];
    for line in lines {
        let mut cells = line.split('\t');
        let predicted = class(cells.next()?)?;
        let values: Vec<f64> = cells
            .map(|c| c.trim().parse().ok().filter(|v: &f64| v.is_finite()))
            .collect::<Option<_>>()?;
        if values.len() != columns.len() || rows[predicted].is_some() {
            return None;
        }
        let mut row = vec![0.0; labels.len()];
        for (&truth, value) in columns.iter().zip(values) {
            row[truth] = value;
        }
        rows[predicted] = Some(row);
    }
    rows.into_iter().collect()
}

/// True when `classes` holds each of `0..count` exactly once.
fn once_each(classes: &[usize], count: usize) -> bool {
    let mut seen = vec![false; count];
    classes
        .iter()
        .all(|&c| !std::mem::replace(&mut seen[c], true))
        && seen.iter().all(|&s| s)
}
