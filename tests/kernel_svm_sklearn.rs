//! bowline's kernel SVM against scikit-learn's `SVC` (LIBSVM) on the same matrices: for every
//! one-vs-rest problem the dual objective within 1e-4 relative, and the same prediction for at
//! least 99.5% of test rows. The fixture comes from `tests/fixtures/make_kernel_svm.py`.

mod common;

use bowline::model::kernel_svm::{Gamma, Kernel, KernelKind};
use bowline::model::{KernelSvm, KernelSvmParams};
use bowline::vectorize::{Matrix, MatrixBuilder, SparseRow};
use serde_json::Value;

fn fixture() -> Value {
    serde_json::from_str(include_str!("fixtures/kernel_svm.json")).unwrap()
}

fn numbers(values: &Value) -> Vec<u32> {
    let values = values.as_array().unwrap();
    values.iter().map(|v| v.as_u64().unwrap() as u32).collect()
}

/// The fixture's kernels, as scikit-learn was given them.
fn kernel(name: &str) -> Kernel {
    let fixed = |kind| Kernel {
        gamma: Gamma::Value(1.0),
        ..Kernel::new(kind)
    };
    match name {
        "linear" => Kernel::new(KernelKind::Linear),
        "rbf" => fixed(KernelKind::Rbf),
        "poly" => Kernel {
            degree: 2,
            coef0: 1.0,
            ..fixed(KernelKind::Poly)
        },
        _ => panic!("unknown kernel {name}"),
    }
}

/// Trains every kernel of `expected` and compares with scikit-learn's figures; returns the
/// least agreement of predictions over the kernels.
fn compare(train: &Matrix, labels: &[u32], test: &Matrix, classes: usize, expected: &Value) -> f64 {
    let mut least = 1.0f64;
    for (name, theirs) in expected.as_object().unwrap() {
        let params = KernelSvmParams {
            kernel: kernel(name),
            c: fixture()["c"].as_f64().unwrap(),
            ..KernelSvmParams::default()
        };
        let svm = KernelSvm::train(train, labels, classes, &params).unwrap();
        for (c, objective) in svm.dual_objectives().iter().enumerate() {
            let libsvm = theirs["objectives"][c].as_f64().unwrap();
            let relative = (objective - libsvm).abs() / libsvm.abs();
            eprintln!("{name} class {c}: dual {objective} vs LIBSVM {libsvm} ({relative:.2e})");
            assert!(relative < 1e-4, "{name} class {c}: {objective} vs {libsvm}");
        }
        let predictions: Vec<u32> = match &theirs["predictions"] {
            Value::String(digits) => digits.bytes().map(|b| u32::from(b - b'0')).collect(),
            list => numbers(list),
        };
        let ours = svm.predict(test);
        let same = ours.iter().zip(&predictions).filter(|(a, b)| a == b);
        let agreement = same.count() as f64 / predictions.len() as f64;
        eprintln!(
            "{name}: predictions agree on {agreement:.4} of {}",
            ours.len()
        );
        assert!(agreement >= 0.995, "{name}: agreement {agreement}");
        least = least.min(agreement);
    }
    least
}

#[test]
fn tiny_matrix_matches_libsvm() {
    let tiny = &fixture()["tiny"];
    let (train, test) = (
        common::dense_matrix(&tiny["x_train"]),
        common::dense_matrix(&tiny["x_test"]),
    );
    let classes = tiny["classes"].as_u64().unwrap() as usize;
    let labels = numbers(&tiny["y_train"]);
    let least = compare(&train, &labels, &test, classes, &tiny["kernels"]);
    assert_eq!(least, 1.0);
}

/// Parses `bowline vectorize`'s svmlight rows (1-based columns) into labels and a matrix.
fn svmlight(text: &str) -> (Vec<u32>, Matrix) {
    let mut builder = MatrixBuilder::default();
    let (mut labels, mut columns) = (Vec::new(), 0);
    for line in text.lines() {
        let mut fields = line.split(' ');
        labels.push(fields.next().unwrap().parse().unwrap());
        let mut row = SparseRow::default();
        for pair in fields {
            let (index, value) = pair.split_once(':').unwrap();
            let column = index.parse::<u32>().unwrap() - 1;
            columns = columns.max(column as usize + 1);
            row.indices.push(column);
            row.values.push(value.parse().unwrap());
        }
        builder.push(&row);
    }
    (labels, builder.finish(columns).unwrap())
}

/// Rows `rows` of `x`.
fn subset(x: &Matrix, rows: &[usize]) -> Matrix {
    let mut builder = MatrixBuilder::default();
    for &i in rows {
        let row = x.outer_view(i).unwrap();
        builder.push(&SparseRow {
            indices: row.indices().to_vec(),
            values: row.data().to_vec(),
        });
    }
    builder.finish(x.cols()).unwrap()
}

#[test]
#[ignore = "needs ../shared/corpora"]
fn sms_spam_matches_libsvm() {
    let sms = &fixture()["sms"];
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sms.svm");
    let corpus = "../shared/corpora/sms-spam/SMSSpamCollection.tsv";
    let mut args = vec!["vectorize", corpus, "-o", common::arg(&out), "-q"];
    let flags = sms["vectorize"].as_array().unwrap();
    args.extend(flags.iter().map(|f| f.as_str().unwrap()));
    let (code, _, stderr) = common::outcome(&common::bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    let (labels, x) = svmlight(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(x.rows() as u64, sms["rows"].as_u64().unwrap());
    let (test, train): (Vec<usize>, Vec<usize>) = (0..x.rows()).partition(|i| i % 10 < 3);
    let train_labels: Vec<u32> = train.iter().map(|&i| labels[i]).collect();
    let (train, test) = (subset(&x, &train), subset(&x, &test));
    compare(&train, &train_labels, &test, 2, &sms["kernels"]);
}
