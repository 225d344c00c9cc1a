use super::*;
use crate::vectorize::{pick_rows, MatrixBuilder, SparseRow};

/// Two clusters in three dimensions, labels 0 and 1, plus a third class on its own axis.
fn points() -> (Matrix, Vec<u32>) {
    let rows: [(&[(u32, f64)], u32); 9] = [
        (&[(0, 1.0), (1, 0.1)], 0),
        (&[(0, 0.9)], 0),
        (&[(0, 1.2), (2, 0.2)], 0),
        (&[(1, 1.0)], 1),
        (&[(1, 0.8), (0, 0.1)], 1),
        (&[(1, 1.1), (2, 0.1)], 1),
        (&[(2, 1.0)], 2),
        (&[(2, 0.7), (0, 0.2)], 2),
        (&[(2, 1.3)], 2),
    ];
    let mut builder = MatrixBuilder::default();
    let mut labels = Vec::new();
    for (row, label) in rows {
        let mut pairs = row.to_vec();
        pairs.sort_by_key(|p| p.0);
        builder.push(&SparseRow {
            indices: pairs.iter().map(|p| p.0).collect(),
            values: pairs.iter().map(|p| p.1).collect(),
        });
        labels.push(label);
    }
    (builder.finish(3).unwrap(), labels)
}

/// The dual objective ½‖w(α)‖² + ½·D·‖α‖² − Σα, with w(α) = Σ α_i y_i (x_i, 1).
fn dual_objective(x: &Matrix, y: &[f64], alpha: &[f64], diagonal: f64) -> f64 {
    let mut w = vec![0.0; x.cols() + 1];
    for (i, &a) in alpha.iter().enumerate() {
        let (indices, values) = row(x, i);
        for (&j, &v) in indices.iter().zip(values) {
            w[j as usize] += a * y[i] * v;
        }
        w[x.cols()] += a * y[i];
    }
    let norm: f64 = w.iter().map(|v| v * v).sum();
    0.5 * norm + 0.5 * diagonal * alpha.iter().map(|a| a * a).sum::<f64>()
        - alpha.iter().sum::<f64>()
}

#[test]
fn the_dual_objective_decreases_and_the_tolerance_is_met() {
    let (x, labels) = points();
    let y: Vec<f64> = labels
        .iter()
        .map(|&l| if l == 0 { 1.0 } else { -1.0 })
        .collect();
    let rows = dual::Rows::new(&x, &labels).unwrap();
    for (loss, diagonal) in [(Loss::Hinge, 0.0), (Loss::SquaredHinge, 0.5)] {
        let params = SvmParams {
            loss,
            c: 1.0,
            tolerance: 1e-6,
            ..SvmParams::default()
        };
        let mut objectives = Vec::new();
        let start = Start::cold();
        let solution = dual::solve(&rows, 0..1, &params, 7, vec![start], |alpha, lanes| {
            let alpha: Vec<f64> = alpha.iter().step_by(lanes).copied().collect();
            objectives.push(dual_objective(&x, &y, &alpha, diagonal));
        });
        assert!(
            solution.convergence[0].converged,
            "{loss:?} stopped at the cap"
        );
        assert!(
            objectives.windows(2).all(|w| w[1] <= w[0] + 1e-12),
            "{loss:?}: {objectives:?}"
        );
        assert!(objectives.last().unwrap() < &0.0);
    }
}

/// Class `c`'s weights in a feature-major table of `k` classes (as [`dual::table`] writes).
fn class_weights(table: &[f32], k: usize, c: usize) -> Vec<f32> {
    table.iter().skip(c).step_by(k).copied().collect()
}

#[test]
fn classes_solved_together_take_the_steps_they_take_alone() {
    let (x, labels) = many_points();
    let rows = dual::Rows::new(&x, &labels).unwrap();
    let params = SvmParams::default();
    let cold = |k| vec![Start::cold(); k];
    let mut together = dual::solve(&rows, 0..3, &params, 7, cold(3), |_, _| {});
    let all = dual::table(&rows, std::slice::from_mut(&mut together));
    for c in 0..3 {
        let mut alone = dual::solve(&rows, c..c + 1, &params, 7, cold(1), |_, _| {});
        assert_eq!(alone.convergence[0], together.convergence[c]);
        let one = dual::table(&rows, std::slice::from_mut(&mut alone));
        assert_eq!(class_weights(&one, c + 1, c), class_weights(&all, 3, c));
        assert_eq!(alone.bias[0], together.bias[c]);
        for i in 0..labels.len() {
            assert_eq!(alone.row_alpha(i)[0], together.row_alpha(i)[c]);
        }
    }
}

/// The class with the highest decision value for row `i` of `x`.
fn predict(svm: &LinearSvm, x: &Matrix, i: usize) -> u32 {
    let (indices, values) = row(x, i);
    let mut scores = vec![0.0; svm.convergence().len()];
    svm.scores(indices, values, &mut scores);
    let best = (0..scores.len()).max_by(|&a, &b| scores[a].total_cmp(&scores[b]));
    best.unwrap() as u32
}

#[test]
fn one_vs_rest_separates_the_classes_deterministically() {
    let (x, labels) = points();
    let svm = LinearSvm::train(&x, &labels, 3, SvmParams::default()).unwrap();
    for (i, &label) in labels.iter().enumerate() {
        assert_eq!(predict(&svm, &x, i), label, "row {i}");
    }
    assert_eq!(
        LinearSvm::train(&x, &labels, 3, SvmParams::default()).unwrap(),
        svm
    );
    let bad = SvmParams {
        c: 0.0,
        ..SvmParams::default()
    };
    assert!(LinearSvm::train(&x, &labels, 3, bad).is_err());
}

/// A coordinate step is exact: its curvature is ‖x_i‖² + 1 (the bias) + D, so the step lands
/// where that coordinate's gradient, y·(w·x_i + b) − 1 + D·α_i, is zero (below the bound C).
#[test]
fn a_coordinate_step_lands_where_its_gradient_is_zero() {
    let (x, labels) = points();
    let rows = dual::Rows::new(&x, &labels).unwrap();
    for loss in [Loss::Hinge, Loss::SquaredHinge] {
        let params = SvmParams {
            loss,
            c: 10.0,
            ..SvmParams::default()
        };
        let mut pass = dual::Pass::new(&(0..1), &params, 1.0);
        let mut progress = dual::Progress::new(1);
        let mut weights = vec![[0.0; dual::LANES]; rows.columns() + 1];
        let mut alpha = [0.0; dual::LANES];
        pass.visit(&rows, 0, &mut weights, &mut alpha, &mut progress);
        let margin = rows.margins(0, &weights)[0];
        let diagonal = dual::loss_constants(&params).1;
        assert!(
            alpha[0] > 0.0 && alpha[0] < params.c,
            "{loss:?}: {}",
            alpha[0]
        );
        let gradient = margin - 1.0 + diagonal * alpha[0];
        assert!(gradient.abs() < 1e-12, "{loss:?}: {gradient}");
    }
}

/// A full group of classes: from zero, every lane steps at the first rows, and the weights
/// must take all of their steps.
#[test]
fn one_vs_rest_separates_as_many_classes_as_a_group_solves_at_once() {
    let classes = dual::LANES as u32;
    let mut builder = MatrixBuilder::default();
    let mut labels = Vec::new();
    for k in 0..3 * classes {
        let class = k % classes;
        builder.push(&SparseRow {
            indices: vec![class],
            values: vec![1.0 + f64::from(k / classes) / 10.0],
        });
        labels.push(class);
    }
    let x = builder.finish(classes as usize).unwrap();
    let svm = LinearSvm::train(&x, &labels, classes as usize, SvmParams::default()).unwrap();
    for (i, &label) in labels.iter().enumerate() {
        assert_eq!(predict(&svm, &x, i), label, "row {i}");
    }
}

#[test]
fn calibrated_scores_are_probabilities_that_favour_the_right_class() {
    let (x, labels) = many_points();
    let svm = LinearSvm::train_calibrated(&x, &labels, 3, SvmParams::default()).unwrap();
    let plain = LinearSvm::train(&x, &labels, 3, SvmParams::default()).unwrap();
    for c in 0..3 {
        assert_eq!(
            svm.class_weights(c),
            plain.class_weights(c),
            "the final SVM is trained on every row"
        );
    }
    let scorer = &svm;
    for (i, &label) in labels.iter().enumerate() {
        let (indices, values) = row(&x, i);
        let mut scores = vec![0.0; 3];
        scorer.scores(indices, values, &mut scores);
        assert!(svm.calibrate_scores(&mut scores));
        assert!((scores.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let best = (0..3)
            .max_by(|&a, &b| scores[a].total_cmp(&scores[b]))
            .unwrap();
        assert_eq!(best as u32, label, "{scores:?}");
    }
    assert!(!plain.calibrate_scores(&mut [0.0; 3]));
}

/// Sixty noisy points around three axes, twenty per class, interleaved.
fn many_points() -> (Matrix, Vec<u32>) {
    let mut builder = MatrixBuilder::default();
    let mut labels = Vec::new();
    for k in 0..60u32 {
        let class = k % 3;
        // A deterministic wobble in [0, 0.3) keeps the classes apart but not identical.
        let wobble = f64::from((k * 37) % 10) / 33.0;
        let mut values = [wobble / 3.0; 3];
        values[class as usize] = 1.0 + wobble;
        builder.push(&SparseRow {
            indices: vec![0, 1, 2],
            values: values.to_vec(),
        });
        labels.push(class);
    }
    (builder.finish(3).unwrap(), labels)
}

/// Rows `range` of `x` as a matrix of their own, with their labels.
fn rows_of(x: &Matrix, labels: &[u32], range: std::ops::Range<usize>) -> (Matrix, Vec<u32>) {
    let rows: Vec<usize> = range.clone().collect();
    (pick_rows(x, &rows).unwrap(), labels[range].to_vec())
}

fn unchanged(columns: &[u32], rescale: &[f64]) -> ColumnChange<'static> {
    ColumnChange {
        columns: columns.to_vec().leak(),
        rescale: rescale.to_vec().leak(),
        l2: false,
    }
}

fn tight() -> SvmParams {
    SvmParams {
        tolerance: 1e-8,
        ..SvmParams::default()
    }
}

#[test]
fn an_update_with_every_row_kept_reaches_the_union_s_solution() {
    let (x, labels) = many_points();
    let (first, first_labels) = rows_of(&x, &labels, 0..30);
    let (second, second_labels) = rows_of(&x, &labels, 30..60);
    let mut svm = LinearSvm::train(&first, &first_labels, 3, tight()).unwrap();
    assert_eq!(svm.reservoir().rows().len(), 30);
    svm.update(&second, &second_labels, 3, unchanged(&[0, 1, 2], &[1.0; 3]))
        .unwrap();
    assert_eq!(svm.reservoir().seen(), 60);
    let union = LinearSvm::train(&x, &labels, 3, tight()).unwrap();
    for c in 0..3 {
        assert!(svm.convergence()[c].converged);
        let (updated, retrained) = (svm.class_weights(c), union.class_weights(c));
        for (a, b) in updated.iter().zip(&retrained) {
            assert!((a - b).abs() < 1e-4, "{updated:?} vs {retrained:?}");
        }
    }
}

#[test]
fn an_update_learns_new_columns_and_a_new_class() {
    // Train on classes 0 and 1 over two columns; the update brings class 2 and column 2.
    let (x, labels) = many_points();
    let old: Vec<usize> = (0..60).filter(|&i| labels[i] != 2).collect();
    let mut builder = MatrixBuilder::default();
    for &i in &old {
        let (indices, values) = row(&x, i);
        let pairs: Vec<(u32, f64)> = indices
            .iter()
            .copied()
            .zip(values.iter().copied())
            .filter(|p| p.0 < 2)
            .collect();
        builder.push(&SparseRow {
            indices: pairs.iter().map(|p| p.0).collect(),
            values: pairs.iter().map(|p| p.1).collect(),
        });
    }
    let old_labels: Vec<u32> = old.iter().map(|&i| labels[i]).collect();
    let mut svm = LinearSvm::train(
        &builder.finish(2).unwrap(),
        &old_labels,
        2,
        SvmParams::default(),
    )
    .unwrap();
    svm.update(&x, &labels, 3, unchanged(&[0, 1], &[1.0; 3]))
        .unwrap();
    let right = (0..60)
        .filter(|&i| predict(&svm, &x, i) == labels[i])
        .count();
    assert_eq!(right, 60);
    assert_eq!(svm.reservoir().rows()[0].alpha.len(), 3);
}

#[test]
fn without_a_reservoir_an_update_starts_from_the_saved_weights() {
    let (x, labels) = many_points();
    let params = SvmParams {
        reservoir: 0,
        ..SvmParams::default()
    };
    let (first, first_labels) = rows_of(&x, &labels, 0..30);
    let (second, second_labels) = rows_of(&x, &labels, 30..60);
    let mut svm = LinearSvm::train(&first, &first_labels, 3, params).unwrap();
    let before = svm.class_weights(0);
    svm.update(&second, &second_labels, 3, unchanged(&[0, 1, 2], &[1.0; 3]))
        .unwrap();
    assert!(svm.reservoir().rows().is_empty());
    assert_ne!(svm.class_weights(0), before);
    assert_eq!(predict(&svm, &second, 0), second_labels[0]);
}

#[test]
fn the_solution_does_not_depend_on_the_column_order() {
    // The solver renumbers columns by frequency; a matrix whose columns come in another order
    // must get the same weights, moved with their columns.
    let (x, labels) = points();
    let moved_to = [2u32, 0, 1];
    let mut builder = MatrixBuilder::default();
    for i in 0..labels.len() {
        let (indices, values) = row(&x, i);
        let mut pairs: Vec<(u32, f64)> = indices
            .iter()
            .map(|&j| moved_to[j as usize])
            .zip(values.iter().copied())
            .collect();
        pairs.sort_by_key(|p| p.0);
        builder.push(&SparseRow {
            indices: pairs.iter().map(|p| p.0).collect(),
            values: pairs.iter().map(|p| p.1).collect(),
        });
    }
    let moved = builder.finish(3).unwrap();
    let params = SvmParams::default();
    let svm = LinearSvm::train(&x, &labels, 3, params).unwrap();
    let other = LinearSvm::train(&moved, &labels, 3, params).unwrap();
    for c in 0..3 {
        let (weights, other_weights) = (svm.class_weights(c), other.class_weights(c));
        for (j, &w) in weights.iter().take(3).enumerate() {
            assert!((w - other_weights[moved_to[j] as usize]).abs() < 1e-6);
        }
        assert!((weights[3] - other_weights[3]).abs() < 1e-6);
    }
}

/// `rows` rows over `features` columns in `classes` classes, drawn from a fixed seed: each class
/// leans on columns of its own, with noise on every other.
fn random_problem(rows: usize, features: u32, classes: u32) -> (Matrix, Vec<u32>) {
    let mut random = crate::model::random::SplitMix(11);
    let mut builder = MatrixBuilder::default();
    let mut labels = Vec::new();
    for i in 0..rows {
        let label = (i as u32) % classes;
        let mut columns: Vec<u32> = (0..6)
            .map(|_| random.below(features.into()) as u32)
            .collect();
        columns.extend((0..3).map(|_| label * 3 + random.below(3) as u32));
        columns.sort_unstable();
        columns.dedup();
        let values = columns
            .iter()
            .map(|_| 0.2 + random.below(100) as f64 / 100.0);
        builder.push(&SparseRow {
            values: values.collect(),
            indices: columns,
        });
        labels.push(label);
    }
    (builder.finish(features as usize).unwrap(), labels)
}

/// The rows of `x` that `i % workers == w` picks, with their labels.
fn share(x: &Matrix, labels: &[u32], workers: usize, w: usize) -> (Matrix, Vec<u32>) {
    let mut builder = MatrixBuilder::default();
    let mut picked = Vec::new();
    for i in (w..labels.len()).step_by(workers) {
        let (indices, values) = row(x, i);
        builder.push(&SparseRow {
            indices: indices.to_vec(),
            values: values.to_vec(),
        });
        picked.push(labels[i]);
    }
    (builder.finish(x.cols()).unwrap(), picked)
}

/// CoCoA+ over `workers` shares of the rows, run as a cluster runs it (each worker's Δw summed
/// and added to every worker's weights), until every class meets the duality gap: each class's
/// dual objective, the SVM and the rounds taken.
fn distributed(
    x: &Matrix,
    labels: &[u32],
    classes: usize,
    params: &SvmParams,
    workers: usize,
) -> (Vec<f64>, LinearSvm, usize) {
    let shares: Vec<(Matrix, Vec<u32>)> =
        (0..workers).map(|w| share(x, labels, workers, w)).collect();
    let mut locals: Vec<cocoa::LocalProblem> = (shares.iter().enumerate())
        .map(|(w, (x, y))| {
            cocoa::LocalProblem::new(x, y, classes, params, workers, w as u64).unwrap()
        })
        .collect();
    let mut coordinator = cocoa::Coordinator::new(x.cols(), classes, *params);
    let summed = |all: Vec<Vec<f64>>| -> Vec<f64> {
        (0..classes)
            .map(|c| all.iter().map(|v| v[c]).sum())
            .collect()
    };
    let mut round = 0;
    loop {
        round += 1;
        let losses = summed(locals.iter().map(|l| l.losses()).collect());
        let parts = summed(locals.iter().map(|l| l.dual_parts()).collect());
        coordinator.judge(round, &losses, &parts);
        let deltas: Vec<Vec<f32>> = locals.iter_mut().map(|l| l.round(1)).collect();
        let sum: Vec<f32> = (0..deltas[0].len())
            .map(|i| deltas.iter().map(|d| d[i]).sum())
            .collect();
        let terms: Vec<cocoa::StepTerms> = (0..classes)
            .map(|c| {
                let each = locals.iter().map(|l| l.step_terms()[c]);
                each.fold(cocoa::StepTerms::default(), cocoa::StepTerms::and)
            })
            .collect();
        let scales = coordinator.scales(&sum, &terms);
        coordinator.add(&sum, &scales);
        let converged = coordinator.converged();
        locals
            .iter_mut()
            .for_each(|l| l.apply(&sum, &scales, &converged));
        if coordinator.done(round) {
            break;
        }
    }
    let parts = summed(locals.iter().map(|l| l.dual_parts()).collect());
    let reservoir = crate::model::reservoir::Reservoir::new(0, 1);
    let (svm, objectives) = coordinator.finish(&parts, reservoir).unwrap();
    (objectives, svm, round)
}

#[test]
fn cocoa_reaches_the_dual_objective_of_one_process() {
    // Sparse rows, as text gives: 600 rows over 4,000 columns.
    let (x, labels) = random_problem(600, 4000, 6);
    for loss in [Loss::SquaredHinge, Loss::Hinge] {
        let params = SvmParams {
            loss,
            tolerance: 0.01,
            ..SvmParams::default()
        };
        let (single, objectives) =
            LinearSvm::train_with_objectives(&x, &labels, 6, params).unwrap();
        assert_eq!(objectives.len(), 6);
        assert!(objectives.iter().all(|&o| o > 0.0), "{objectives:?}");
        for workers in 1..=3 {
            let (reached, svm, rounds) = distributed(&x, &labels, 6, &params, workers);
            for (c, (&one, &many)) in objectives.iter().zip(&reached).enumerate() {
                assert!(
                    (one - many).abs() <= 1e-3 * one.abs(),
                    "{loss:?}, {workers} workers, class {c}: {many} against {one} ({rounds} rounds)"
                );
            }
            assert!(svm.convergence().iter().all(|c| c.converged));
            let (mut a, mut b) = (vec![0.0; 6], vec![0.0; 6]);
            let agree = (0..labels.len())
                .filter(|&i| {
                    let (indices, values) = row(&x, i);
                    single.scores(indices, values, &mut a);
                    svm.scores(indices, values, &mut b);
                    let best = |s: &[f64]| (0..6).max_by(|&p, &q| s[p].total_cmp(&s[q]));
                    best(&a) == best(&b)
                })
                .count();
            assert!(
                agree >= labels.len() * 99 / 100,
                "{agree} of {}",
                labels.len()
            );
        }
    }
}

#[test]
fn held_out_scores_come_from_models_that_did_not_see_the_fold() {
    // With C this small every row lies inside every class's margin, so every row is a support
    // vector and the fold models visit every row outside their fold; run to a tight tolerance,
    // they reach the models trained from zero on those rows.
    let (x, labels) = random_problem(90, 30, 10);
    let mut sets = LabelSets::new();
    labels.iter().for_each(|&l| sets.push([l]));
    let params = SvmParams {
        c: 0.05,
        tolerance: 1e-9,
        ..SvmParams::default()
    };
    let fold: Vec<usize> = (0..90).map(|i| i % 3).collect();
    let (svm, scored) =
        LinearSvm::train_sets_held_out(&x, &sets, 10, (params, params), (&fold, 3)).unwrap();
    assert_eq!(svm, LinearSvm::train_sets(&x, &sets, 10, params).unwrap());
    let mut scores = vec![0.0; 10];
    for f in 0..3 {
        let kept: Vec<usize> = (0..90).filter(|&i| fold[i] != f).collect();
        let alone = LinearSvm::train_sets(
            &pick_rows(&x, &kept).unwrap(),
            &sets.select(&kept),
            10,
            params,
        )
        .unwrap();
        for i in (0..90).filter(|&i| fold[i] == f) {
            let (indices, values) = row(&x, i);
            alone.scores(indices, values, &mut scores);
            for (c, &score) in scores.iter().enumerate() {
                let (held_out, has) = scored[c][i];
                assert!(
                    (held_out - score).abs() < 1e-5,
                    "row {i}, class {c}: {held_out} vs {score}"
                );
                assert_eq!(has, labels[i] as usize == c);
            }
        }
    }
}

/// Solves classes `0..k` of `rows` from `starts` with tight settings; returns the weights'
/// table and the solution.
fn solve_all(rows: &dual::Rows, k: usize, starts: Vec<Start>) -> (Vec<f32>, dual::Solution) {
    let mut solution = dual::solve(rows, 0..k, &tight(), 5, starts, |_, _| {});
    (
        dual::table(rows, std::slice::from_mut(&mut solution)),
        solution,
    )
}

/// Asserts that two solutions of the same problem agree up to rounding.
fn assert_same_solution(a: &(Vec<f32>, dual::Solution), b: &(Vec<f32>, dual::Solution)) {
    assert_eq!(a.1.convergence, b.1.convergence);
    let close = |x: f64, y: f64| (x - y).abs() <= 1e-6 * x.abs().max(1.0);
    let weights = a.0.iter().zip(&b.0);
    assert!(weights.clone().all(|(&x, &y)| close(x.into(), y.into())));
    assert!(a.1.bias.iter().zip(&b.1.bias).all(|(&x, &y)| close(x, y)));
    assert!(a.1.alpha.iter().zip(&b.1.alpha).all(|(&x, &y)| close(x, y)));
}

/// A group of one, two, three or six classes runs in one, two, four or eight lanes; each class
/// takes the same steps in each, from a warm start too (whose weights outside the solver's
/// columns are kept per lane).
#[test]
fn classes_take_the_same_steps_in_any_number_of_lanes() {
    let (x, labels) = random_problem(300, 3_000, 6);
    let rows = dual::Rows::new(&x, &labels).unwrap();
    let mut random = crate::model::random::SplitMix(5);
    let starts: Vec<Start> = (0..6)
        .map(|_| Start {
            weights: (0..=3_000)
                .map(|_| random.below(100) as f64 / 500.0 - 0.1)
                .collect(),
            alpha: vec![0.0; labels.len()],
        })
        .collect();
    let alone: Vec<_> = (0..6)
        .map(|c| {
            let start = vec![starts[c].clone()];
            let mut solution = dual::solve(&rows, c..c + 1, &tight(), 5, start, |_, _| {});
            let table = dual::table(&rows, std::slice::from_mut(&mut solution));
            (class_weights(&table, c + 1, c), solution)
        })
        .collect();
    for k in [2, 3, 6] {
        let (table, together) = solve_all(&rows, k, starts[..k].to_vec());
        for (c, (weights, solution)) in alone.iter().take(k).enumerate() {
            assert!(class_weights(&table, k, c) == *weights, "class {c} of {k}");
            assert_eq!(solution.convergence[0], together.convergence[c]);
            assert_eq!(solution.bias[0], together.bias[c]);
            let alpha = (0..labels.len()).map(|i| together.row_alpha(i)[c]);
            assert!(alpha.eq(solution.alpha.iter().copied()), "class {c} of {k}");
        }
    }
}

/// Columns held by one row share that row's own column in the solver, and the weights read
/// off it are those of solving with every column apart.
#[test]
fn columns_one_row_holds_give_the_weights_of_solving_them_apart() {
    let (x, labels) = random_problem(300, 3_000, 4);
    let own = dual::Rows::new(&x, &labels).unwrap();
    let apart = dual::Rows::with_every_column(&x, Targets::Single(&labels)).unwrap();
    assert_eq!(apart.columns(), 3_000);
    assert!(own.columns() < 1_500, "{} columns", own.columns());
    let cold = || vec![Start::cold(); 4];
    assert_same_solution(&solve_all(&own, 4, cold()), &solve_all(&apart, 4, cold()));
}

/// A warm start may put weights anywhere, in columns no row holds too: those keep theirs, and
/// the columns one row holds move from theirs as when solved apart.
#[test]
fn a_warm_start_in_columns_one_row_or_none_holds_gives_the_weights_of_solving_them_apart() {
    let (x, labels) = random_problem(300, 3_000, 4);
    let own = dual::Rows::new(&x, &labels).unwrap();
    let apart = dual::Rows::with_every_column(&x, Targets::Single(&labels)).unwrap();
    let mut random = crate::model::random::SplitMix(3);
    let mut weights = |_| {
        (0..=3_000)
            .map(|_| random.below(100) as f64 / 500.0 - 0.1)
            .collect()
    };
    let starts: Vec<Start> = (0..4)
        .map(|c| Start {
            weights: weights(c),
            alpha: vec![0.0; labels.len()],
        })
        .collect();
    let held_by_none = (0..3_000)
        .find(|&j| !x.indices().contains(&(j as u32)))
        .unwrap();
    let solution = solve_all(&own, 4, starts.clone());
    assert_same_solution(&solution, &solve_all(&apart, 4, starts.clone()));
    for (c, start) in starts.iter().enumerate() {
        let kept = start.weights[held_by_none] as f32;
        assert_eq!(solution.0[held_by_none * 4 + c], kept);
    }
}

/// Two classes that every row falls in one of are solved in one lane, the second read off the
/// first (`dual::solve_mirrored`): on sparse rows and on dense ones (which the solver reads as
/// `f32`), each class gets bit for bit what solving it alone gives.
#[test]
fn two_mirrored_classes_get_what_each_gets_alone() {
    let (sparse, labels) = random_problem(300, 3_000, 2);
    let mut random = crate::model::random::SplitMix(3);
    let mut builder = MatrixBuilder::default();
    for &label in &labels {
        let values =
            (0..40).map(|j| (random.below(100) as f64 - 50.0) / 100.0 + f64::from(label == j % 2));
        builder.push(&SparseRow {
            indices: (0..40).collect(),
            values: values.map(|v| if v == 0.0 { 0.5 } else { v }).collect(),
        });
    }
    let dense = builder.finish(40).unwrap();
    let cold = |k| vec![Start::cold(); k];
    for x in [&sparse, &dense] {
        let rows = dual::Rows::new(x, &labels).unwrap();
        let (table, together) = solve_all(&rows, 2, cold(2));
        for c in 0..2 {
            let mut alone = dual::solve(&rows, c..c + 1, &tight(), 5, cold(1), |_, _| {});
            let one = class_weights(
                &dual::table(&rows, std::slice::from_mut(&mut alone)),
                c + 1,
                c,
            );
            let weights = class_weights(&table, 2, c);
            assert!(
                weights
                    .iter()
                    .zip(&one)
                    .all(|(a, b)| a.to_bits() == b.to_bits()),
                "class {c}"
            );
            assert_eq!(alone.convergence[0], together.convergence[c]);
            assert_eq!(alone.bias[0].to_bits(), together.bias[c].to_bits());
            let alpha = (0..labels.len()).map(|i| together.row_alpha(i)[c]);
            assert!(alpha.eq(alone.alpha.iter().copied()), "class {c}");
        }
    }
}
