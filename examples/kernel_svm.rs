//! Trains bowline's kernel SVM on an svmlight training file and scores a test file, printing the
//! accuracy and the median time of fitting and predicting over several runs, as one JSON line.
//! `benches/kernel.sh` runs it beside scikit-learn's `SVC` on the same files.
//!
//! `cargo run --release --example kernel_svm -- TRAIN.svm TEST.svm KERNEL C GAMMA DEGREE COEF0
//! RUNS CACHE_MB`, with KERNEL one of linear, poly, rbf, cosine.

use std::time::Instant;

use bowline::model::kernel_svm::{Gamma, Kernel, KernelKind};
use bowline::model::{KernelSvm, KernelSvmParams};

#[path = "support/svmlight.rs"]
mod svmlight;

use svmlight::{read_svmlight, Failure};

fn kernel(args: &[String]) -> Result<Kernel, Failure> {
    let kind = match args[3].as_str() {
        "linear" => KernelKind::Linear,
        "poly" => KernelKind::Poly,
        "rbf" => KernelKind::Rbf,
        "cosine" => KernelKind::Cosine,
        other => return Err(format!("unknown kernel {other}").into()),
    };
    let gamma = match args[5].as_str() {
        "scale" => Gamma::Scale,
        value => Gamma::Value(value.parse()?),
    };
    Ok(Kernel {
        kind,
        gamma,
        degree: args[6].parse()?,
        coef0: args[7].parse()?,
    })
}

fn main() -> Result<(), Failure> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 10 {
        return Err(
            "usage: kernel_svm TRAIN TEST KERNEL C GAMMA DEGREE COEF0 RUNS CACHE_MB".into(),
        );
    }
    let (train_labels, train) = read_svmlight(&args[1], 0)?;
    let (test_labels, test) = read_svmlight(&args[2], train.cols())?;
    let classes = train_labels
        .iter()
        .chain(&test_labels)
        .max()
        .map_or(0, |&l| l + 1);
    let params = KernelSvmParams {
        kernel: kernel(&args)?,
        c: args[4].parse()?,
        cache_bytes: args[9].parse::<usize>()? << 20,
        ..KernelSvmParams::default()
    };
    let (mut fits, mut predicts, mut accuracy, mut support) = (vec![], vec![], 0.0, 0);
    for _ in 0..args[8].parse::<usize>()? {
        let start = Instant::now();
        let svm = KernelSvm::train(&train, &train_labels, classes as usize, &params)?;
        fits.push(start.elapsed().as_secs_f64());
        let start = Instant::now();
        let predicted = svm.predict(&test);
        predicts.push(start.elapsed().as_secs_f64());
        let right = predicted.iter().zip(&test_labels).filter(|(p, l)| p == l);
        accuracy = right.count() as f64 / test_labels.len() as f64;
        support = svm.support_vectors();
    }
    let median = |times: &mut Vec<f64>| {
        times.sort_by(f64::total_cmp);
        times[times.len() / 2]
    };
    println!(
        "{{\"accuracy\": {accuracy}, \"fit\": {}, \"predict\": {}, \"support_vectors\": {support}}}",
        median(&mut fits),
        median(&mut predicts)
    );
    Ok(())
}
