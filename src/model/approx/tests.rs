use super::*;
use crate::model::random::SplitMix;
use crate::vectorize::{matrix_row, MatrixBuilder, SparseRow};

/// `rows` rows over `columns` columns, each with a few entries in (0, 1).
fn sparse_rows(rows: usize, columns: u32, seed: u64) -> Matrix {
    let mut rng = SplitMix(seed);
    let mut builder = MatrixBuilder::default();
    for _ in 0..rows {
        let mut row = SparseRow::default();
        for j in 0..columns {
            if rng.below(3) == 0 {
                row.indices.push(j);
                row.values.push((rng.below(1000) + 1) as f64 / 1000.0);
            }
        }
        builder.push(&row);
    }
    builder.finish(columns as usize).unwrap()
}

fn maps(x: &Matrix) -> Vec<FeatureMap> {
    [Approximation::Nystroem, Approximation::Fourier]
        .map(|approximation| {
            let params = ApproxParams {
                components: 12,
                gamma: Gamma::Value(0.5),
                ..ApproxParams::new(approximation)
            };
            FeatureMap::fit(x, &params, 7).unwrap()
        })
        .into()
}

#[test]
fn a_batch_maps_each_row_as_the_row_alone_does() {
    let x = sparse_rows(30, 9, 3);
    for map in maps(&x) {
        let batch = map.transform(&x).unwrap();
        assert_eq!(batch.cols(), map.features());
        for i in 0..x.rows() {
            let (indices, values) = matrix_row(&x, i);
            let mut alone = vec![0.0; map.features()];
            map.transform_row(indices, values, &mut alone);
            let mut dense = vec![0.0; map.features()];
            let (columns, mapped) = matrix_row(&batch, i);
            columns
                .iter()
                .zip(mapped)
                .for_each(|(&j, &v)| dense[j as usize] = v);
            for (a, b) in alone.iter().zip(&dense) {
                assert!((a - b).abs() < 1e-12, "{:?} row {i}", map.approximation());
            }
        }
    }
}

#[test]
fn a_grown_vocabulary_leaves_every_old_row_mapped_as_before() {
    let x = sparse_rows(20, 6, 5);
    // The six old columns move to 1, 2, 4, 5, 7, 8 among nine; 0, 3 and 6 are new.
    let columns = [1, 2, 4, 5, 7, 8];
    for mut map in maps(&x) {
        let before = map.transform(&x).unwrap();
        map.remap(&columns, 9).unwrap();
        assert_eq!(map.columns(), 9);
        for i in 0..x.rows() {
            let (indices, values) = matrix_row(&x, i);
            let moved: Vec<u32> = indices.iter().map(|&j| columns[j as usize]).collect();
            let mut after = vec![0.0; map.features()];
            map.transform_row(&moved, values, &mut after);
            let (_, expected) = matrix_row(&before, i);
            for (a, b) in after.iter().zip(expected) {
                assert!((a - b).abs() < 1e-12, "{:?} row {i}", map.approximation());
            }
        }
    }
}

#[test]
fn components_out_of_range_are_refused_naming_the_flag() {
    for components in [0, MAX_COMPONENTS + 1] {
        let params = ApproxParams {
            components,
            ..ApproxParams::new(Approximation::Fourier)
        };
        assert!(params
            .validate()
            .unwrap_err()
            .to_string()
            .contains("--components"));
    }
}
