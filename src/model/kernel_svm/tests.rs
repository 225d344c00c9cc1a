use super::*;
use crate::model::random::SplitMix;
use crate::vectorize::{pick_rows, MatrixBuilder, SparseRow};

/// `rows` random rows of `columns` columns, each entry non-zero with probability ½.
fn random_matrix(rows: usize, columns: usize, seed: u64) -> Matrix {
    let mut rng = SplitMix(seed);
    let mut builder = MatrixBuilder::default();
    for _ in 0..rows {
        let mut row = SparseRow::default();
        for j in 0..columns {
            if rng.below(2) == 0 {
                row.indices.push(j as u32);
                row.values.push((rng.below(1000) + 1) as f64 / 1000.0);
            }
        }
        builder.push(&row);
    }
    builder.finish(columns).unwrap()
}

/// K(x_a, z_b) for every row pair, computed directly from the rows.
fn exact_kernel(kernel: &KernelFunction, x: &Matrix, z: &Matrix) -> Vec<Vec<f64>> {
    let dense = |m: &Matrix, i: usize| {
        let mut row = vec![0.0; m.cols()];
        let (indices, values) = matrix_row(m, i);
        indices
            .iter()
            .zip(values)
            .for_each(|(&j, &v)| row[j as usize] = v);
        row
    };
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>();
    (0..x.rows())
        .map(|a| {
            let xa = dense(x, a);
            (0..z.rows())
                .map(|b| {
                    let zb = dense(z, b);
                    kernel.value(dot(&xa, &zb), dot(&xa, &xa), dot(&zb, &zb))
                })
                .collect()
        })
        .collect()
}

/// Φ·Φᵀ of a feature matrix, as rows of row pairs.
fn inner_products(features: &Matrix) -> Vec<Vec<f64>> {
    let linear = Kernel::new(KernelKind::Linear).resolve(features);
    exact_kernel(&linear, features, features)
}

fn rbf(gamma: f64) -> Kernel {
    Kernel {
        gamma: Gamma::Value(gamma),
        ..Kernel::new(KernelKind::Rbf)
    }
}

#[test]
fn nystroem_features_reproduce_the_kernel_on_the_landmarks() {
    let x = random_matrix(40, 10, 7);
    for kernel in [rbf(0.5), Kernel::new(KernelKind::Linear)] {
        let nystroem = Nystroem::fit(&x, &kernel, 12, 3).unwrap();
        assert_reproduces_the_kernel(&nystroem, nystroem.landmarks());
    }
}

/// Asserts that the features of the rows of `x` reproduce their kernel, up to 1e-9.
fn assert_reproduces_the_kernel(nystroem: &Nystroem, x: &Matrix) {
    let found = inner_products(&nystroem.transform(x).unwrap());
    let expected = exact_kernel(&nystroem.kernel(), x, x);
    for (a, row) in expected.iter().enumerate() {
        for (b, k) in row.iter().enumerate() {
            assert!(
                (found[a][b] - k).abs() < 1e-9,
                "{:?} {a},{b}",
                nystroem.kernel()
            );
        }
    }
}

/// Landmarks that repeat make their kernel matrix singular: the map keeps one feature per
/// distinct landmark, and still reproduces the kernel on every row.
#[test]
fn nystroem_keeps_one_feature_per_distinct_landmark() {
    let distinct = random_matrix(5, 10, 9);
    let repeated: Vec<usize> = (0..20).map(|i| i % 5).collect();
    let x = pick_rows(&distinct, &repeated).unwrap();
    let nystroem = Nystroem::fit(&x, &rbf(0.5), 20, 3).unwrap();
    assert_eq!((nystroem.components(), nystroem.features()), (20, 5));
    assert_reproduces_the_kernel(&nystroem, &x);
}

/// Rows with no entries have a linear kernel of zero: the map has no features, and maps every
/// row to none, in batches and row by row.
#[test]
fn nystroem_of_a_kernel_of_zeros_has_no_features() {
    let mut builder = MatrixBuilder::default();
    (0..6).for_each(|_| builder.push(&SparseRow::default()));
    let x = builder.finish(4).unwrap();
    let linear = Kernel::new(KernelKind::Linear);
    let (nystroem, fitted) = Nystroem::fit_transform(&x, &linear, 3, 1).unwrap();
    assert_eq!((nystroem.features(), fitted.shape()), (0, (6, 0)));
    assert_eq!(nystroem.transform(&x).unwrap().shape(), (6, 0));
    nystroem.transform_row(&[], &[], &mut []);
}

/// Fitting and mapping the training rows at once reads the landmarks' features off the kernel
/// matrix's factor: they equal the map's own features of those rows up to rounding, repeated
/// landmarks and linear kernels of low rank included.
#[test]
fn nystroem_fit_transform_gives_the_features_of_transform() {
    let distinct = random_matrix(5, 10, 9);
    let repeated = pick_rows(&distinct, &(0..20).map(|i| i % 5).collect::<Vec<_>>()).unwrap();
    let cases = [
        (random_matrix(40, 10, 7), rbf(0.5), 12),
        (repeated, rbf(0.5), 8),
        (random_matrix(30, 6, 4), Kernel::new(KernelKind::Linear), 12),
    ];
    for (x, kernel, m) in cases {
        let (nystroem, fitted) = Nystroem::fit_transform(&x, &kernel, m, 3).unwrap();
        assert_eq!(nystroem, Nystroem::fit(&x, &kernel, m, 3).unwrap());
        let mapped = nystroem.transform(&x).unwrap();
        assert_eq!(fitted.shape(), mapped.shape());
        for i in 0..x.rows() {
            let (ours, theirs) = (fitted.outer_view(i).unwrap(), mapped.outer_view(i).unwrap());
            let close = (&ours - &theirs).data().iter().all(|d| d.abs() < 1e-9);
            assert!(close, "{kernel:?} row {i}");
        }
    }
}

/// A map saved by an earlier version came from an eigendecomposition and is not triangular:
/// multiplied in full, in batches and row by row, it gives its own features. Here it is the
/// fitted map with its features in reverse order.
#[test]
fn a_nystroem_map_that_is_not_triangular_is_multiplied_in_full() {
    let x = random_matrix(40, 10, 7);
    let fitted = Nystroem::fit(&x, &rbf(0.5), 12, 3).unwrap();
    let reversed = fitted.with_features_reversed();
    let (ours, theirs) = (fitted.transform_dense(&x), reversed.transform_dense(&x));
    let r = fitted.features();
    let mut row = vec![0.0; r];
    for (i, (ours, theirs)) in ours.chunks(r).zip(theirs.chunks(r)).enumerate() {
        let (indices, values) = matrix_row(&x, i);
        reversed.transform_row(indices, values, &mut row);
        for f in 0..r {
            assert!((ours[f] - theirs[r - 1 - f]).abs() < 1e-12, "{i}, {f}");
            assert!((row[f] - theirs[f]).abs() < 1e-12, "{i}, {f}");
        }
    }
}

/// A polynomial kernel with a negative constant is no kernel: a document's value with itself
/// can be negative, and the map refuses it, naming the flags to change.
#[test]
fn nystroem_refuses_a_kernel_that_is_not_positive_semi_definite() {
    let x = random_matrix(20, 10, 5);
    let kernel = Kernel {
        gamma: Gamma::Value(1.0),
        coef0: -5.0,
        ..Kernel::new(KernelKind::Poly)
    };
    let error = Nystroem::fit(&x, &kernel, 10, 3).unwrap_err().to_string();
    assert!(error.contains("--coef0"), "{error}");
}

#[test]
fn fourier_features_approach_the_rbf_kernel_as_components_grow() {
    let x = random_matrix(20, 8, 11);
    let expected = exact_kernel(&rbf(0.5).resolve(&x), &x, &x);
    let error = |components: usize| {
        let map = FourierFeatures::fit(&x, Gamma::Value(0.5), components, 5).unwrap();
        let found = inner_products(&map.transform(&x).unwrap());
        let squares: f64 = (expected.iter().flatten().zip(found.iter().flatten()))
            .map(|(k, f)| (k - f).powi(2))
            .sum();
        (squares / 400.0).sqrt()
    };
    let errors = [error(100), error(1_000), error(10_000)];
    assert!(errors[0] > errors[1] && errors[1] > errors[2], "{errors:?}");
    assert!(errors[2] < 0.03, "{errors:?}");
}

#[test]
fn gamma_scale_is_one_over_features_times_the_variance_of_every_entry() {
    let x = random_matrix(30, 6, 2);
    let entries: Vec<f64> = (0..x.rows())
        .flat_map(|i| (0..6).map(move |j| (i, j)))
        .map(|(i, j)| x.get(i, j).copied().unwrap_or(0.0))
        .collect();
    let mean = entries.iter().sum::<f64>() / entries.len() as f64;
    let variance = entries.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / entries.len() as f64;
    let gamma = Kernel::new(KernelKind::Rbf).resolve(&x).gamma;
    assert!((gamma - 1.0 / (6.0 * variance)).abs() < 1e-12 * gamma);
}

/// Two classes that the rows' first two columns separate, with noise in the others.
fn separable(rows: usize) -> (Matrix, Vec<u32>) {
    let x = random_matrix(rows, 6, 9);
    let labels = (0..rows)
        .map(|i| u32::from(x.get(i, 0).copied().unwrap_or(0.0) > 0.5))
        .collect();
    (x, labels)
}

#[test]
fn the_solution_satisfies_the_equality_constraint_and_the_box() {
    let (x, labels) = separable(60);
    let params = KernelSvmParams {
        kernel: rbf(2.0),
        c: 3.0,
        ..KernelSvmParams::default()
    };
    let svm = KernelSvm::train(&x, &labels, 2, &params).unwrap();
    assert!(svm.converged().iter().all(|&c| c));
    let column: Vec<f64> = svm.coefficients.chunks_exact(2).map(|c| c[0]).collect();
    assert!(column.iter().sum::<f64>().abs() < 1e-9);
    assert!(column.iter().all(|a| a.abs() <= 3.0 + 1e-12));
    let objective = svm.dual_objectives()[0];
    assert!(objective > 0.0 && objective == svm.dual_objectives()[1]);
    let scores = svm.decision_values(&x);
    assert!(scores.chunks_exact(2).all(|s| (s[0] + s[1]).abs() < 1e-12));
}

#[test]
fn a_tiny_cache_and_no_shrinking_reach_the_same_optimum() {
    let (x, labels) = separable(80);
    let base = KernelSvmParams {
        kernel: rbf(1.0),
        c: 10.0,
        tolerance: 1e-6,
        ..KernelSvmParams::default()
    };
    let reference = KernelSvm::train(&x, &labels, 2, &base).unwrap();
    let variants = [
        KernelSvmParams {
            cache_bytes: 0,
            ..base
        },
        KernelSvmParams {
            shrinking: false,
            ..base
        },
    ];
    for params in variants {
        let svm = KernelSvm::train(&x, &labels, 2, &params).unwrap();
        let (a, b) = (svm.dual_objectives()[0], reference.dual_objectives()[0]);
        assert!((a - b).abs() < 1e-6 * b, "{params:?}: {a} vs {b}");
        assert_eq!(svm.predict(&x), reference.predict(&x));
    }
}

#[test]
fn three_classes_are_solved_one_against_the_rest() {
    let x = random_matrix(90, 6, 4);
    let labels: Vec<u32> = (0..90)
        .map(|i| {
            let v = |j| x.get(i, j).copied().unwrap_or(0.0);
            (0..3).fold(0, |best, j| if v(j) > v(best) { j } else { best }) as u32
        })
        .collect();
    let params = KernelSvmParams {
        kernel: Kernel::new(KernelKind::Linear),
        c: 100.0,
        ..KernelSvmParams::default()
    };
    let svm = KernelSvm::train(&x, &labels, 3, &params).unwrap();
    let predicted = svm.predict(&x);
    let right = (predicted.iter().zip(&labels)).filter(|(p, l)| p == l);
    assert!(right.count() >= 80);
}

#[test]
fn a_kernel_svm_whose_parts_disagree_is_refused() {
    let (x, labels) = separable(20);
    let mut svm = KernelSvm::train(&x, &labels, 2, &KernelSvmParams::default()).unwrap();
    svm.check().unwrap();
    svm.rho.push(0.0);
    assert!(svm.check().is_err());
    svm.rho.pop();
    svm.kernel.gamma = f64::NAN;
    assert!(svm.check().is_err());
}

#[test]
fn the_shared_kernel_matrix_and_per_class_caches_reach_the_same_optimum() {
    let x = random_matrix(70, 6, 5);
    let labels: Vec<u32> = (0..70).map(|i| (i % 3) as u32).collect();
    let whole = KernelSvmParams {
        kernel: rbf(1.5),
        c: 2.0,
        tolerance: 1e-6,
        ..KernelSvmParams::default()
    };
    // 70² f32 values take 19,600 bytes: the first fits whole, the second caches rows.
    let rows = KernelSvmParams {
        cache_bytes: 70 * 4 * 10,
        ..whole
    };
    let (a, b) = (
        KernelSvm::train(&x, &labels, 3, &whole).unwrap(),
        KernelSvm::train(&x, &labels, 3, &rows).unwrap(),
    );
    for (p, q) in a.dual_objectives().iter().zip(b.dual_objectives()) {
        assert!((p - q).abs() < 1e-6 * q.abs(), "{p} vs {q}");
    }
    assert_eq!(a.predict(&x), b.predict(&x));
}

#[test]
fn scores_of_one_row_equal_the_batch_scores() {
    let x = random_matrix(50, 8, 6);
    let labels: Vec<u32> = (0..50).map(|i| (i % 3) as u32).collect();
    let svm = KernelSvm::train(&x, &labels, 3, &KernelSvmParams::default()).unwrap();
    let batch = svm.decision_values(&x);
    let mut one = vec![0.0; 3];
    for i in 0..x.rows() {
        let (indices, values) = matrix_row(&x, i);
        svm.scores(indices, values, &mut one);
        assert_eq!(one, batch[i * 3..(i + 1) * 3]);
    }
}

/// The columns of [`three_classes`]'s rows, which an update leaves as they are.
const EIGHT_COLUMNS: [u32; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// Rows of [`three_classes`] that do not move: the same columns, values and norms.
fn unchanged() -> crate::model::ColumnChange<'static> {
    crate::model::ColumnChange {
        columns: &EIGHT_COLUMNS,
        rescale: &[1.0; 8],
        l2: false,
    }
}

/// The parameters of the update tests: rbf, γ 1, C 2.
fn update_params() -> KernelSvmParams {
    KernelSvmParams {
        kernel: rbf(1.0),
        c: 2.0,
        ..KernelSvmParams::default()
    }
}

/// Rows `rows` of `x`, with their labels.
fn part(x: &Matrix, labels: &[u32], rows: &[usize]) -> (Matrix, Vec<u32>) {
    let picked = rows.iter().map(|&i| labels[i]).collect();
    (pick_rows(x, rows).unwrap(), picked)
}

fn three_classes(rows: usize, seed: u64) -> (Matrix, Vec<u32>) {
    let x = random_matrix(rows, 8, seed);
    let labels = (0..rows)
        .map(|i| {
            let first = x.get(i, 0).copied().unwrap_or(0.0);
            let second = x.get(i, 1).copied().unwrap_or(0.0);
            u32::from(first > 0.5) + u32::from(second > 0.5 && first <= 0.5) * 2
        })
        .collect();
    (x, labels)
}

#[test]
fn an_update_without_rows_starts_at_the_optimum_and_takes_no_step() {
    let (x, labels) = three_classes(90, 4);
    let params = update_params();
    let trained = KernelSvm::train(&x, &labels, 3, &params).unwrap();
    let mut updated = trained.clone();
    let none = MatrixBuilder::default().finish(8).unwrap();
    updated.update(&none, &[], 3, unchanged()).unwrap();
    // The support vectors alone have the same optimum: the rows left out had α = 0.
    assert_eq!(updated.steps(), &[0, 0, 0]);
    for (a, b) in updated
        .dual_objectives()
        .iter()
        .zip(trained.dual_objectives())
    {
        assert!((a - b).abs() <= 1e-9 * b.abs(), "{a} against {b}");
    }
    assert_eq!(updated.predict(&x), trained.predict(&x));
}

#[test]
fn an_update_reaches_the_cold_optimum_over_the_support_vectors_and_the_new_rows_in_fewer_steps() {
    let (x, labels) = three_classes(160, 11);
    let params = KernelSvmParams {
        tolerance: 1e-6,
        ..update_params()
    };
    let first: Vec<usize> = (0..120).collect();
    let later: Vec<usize> = (120..160).collect();
    let ((x1, y1), (x2, y2)) = (part(&x, &labels, &first), part(&x, &labels, &later));
    let mut updated = KernelSvm::train(&x1, &y1, 3, &params).unwrap();
    let (support, support_labels) = (updated.support.clone(), updated.labels.clone());
    updated.update(&x2, &y2, 3, unchanged()).unwrap();
    // The same problem trained from zero: the support vectors, then the new rows.
    let both = update::stacked(&support, &x2).unwrap();
    let both_labels: Vec<u32> = support_labels.iter().chain(&y2).copied().collect();
    let cold = KernelSvm::train(&both, &both_labels, 3, &params).unwrap();
    for (warm, cold) in updated.dual_objectives().iter().zip(cold.dual_objectives()) {
        assert!(
            (warm - cold).abs() <= 1e-6 * cold.abs(),
            "{warm} against {cold}"
        );
    }
    assert!(updated.converged().iter().all(|&c| c));
    let steps = |svm: &KernelSvm| svm.steps().iter().sum::<usize>();
    assert!(
        steps(&updated) < steps(&cold),
        "{} against {}",
        steps(&updated),
        steps(&cold)
    );
    assert_eq!(updated.predict(&x), cold.predict(&x));
}

#[test]
fn an_update_may_add_a_class_to_a_two_class_model() {
    let (x, labels) = three_classes(120, 5);
    let params = update_params();
    let (two, rest): (Vec<usize>, Vec<usize>) = (0..120).partition(|&i| labels[i] < 2);
    let ((x1, y1), (x2, y2)) = (part(&x, &labels, &two), part(&x, &labels, &rest));
    let mut svm = KernelSvm::train(&x1, &y1, 2, &params).unwrap();
    svm.update(&x2, &y2, 3, unchanged()).unwrap();
    assert_eq!(svm.classes(), 3);
    let predicted = svm.predict(&x);
    let right = (predicted.iter().zip(&labels)).filter(|(p, l)| p == l);
    assert!(right.count() >= 100, "{predicted:?}");
}
