//! Trains bowline's linear SVM over a kernel approximation (Nyström or random Fourier features)
//! on an svmlight training file and scores a test file, printing the accuracy and the median
//! time of fitting (map and SVM) and predicting (mapping and scoring) over several runs, as one
//! JSON line. `benches/approx.sh` runs it beside scikit-learn's `Nystroem` and `RBFSampler` with
//! `LinearSVC` on the same files.
//!
//! `cargo run --release --example approx_svm -- TRAIN.svm TEST.svm APPROX M GAMMA C RUNS [SEED]`,
//! with APPROX nystroem or rff; SEED (default 1) draws the map and the SVM's order.

use std::time::Instant;

use bowline::model::approx::{ApproxParams, Approximated, Approximation};
use bowline::model::kernel_svm::Gamma;
use bowline::model::SvmParams;

#[path = "support/svmlight.rs"]
mod svmlight;

use svmlight::{read_svmlight, Failure};

fn main() -> Result<(), Failure> {
    let args: Vec<String> = std::env::args().collect();
    if !(8..=9).contains(&args.len()) {
        return Err("usage: approx_svm TRAIN TEST APPROX M GAMMA C RUNS [SEED]".into());
    }
    let (train_labels, train) = read_svmlight(&args[1], 0)?;
    // The test rows keep the training columns only, as a model's vocabulary would.
    let (test_labels, test) = read_svmlight(&args[2], train.cols())?;
    let classes = train_labels
        .iter()
        .chain(&test_labels)
        .max()
        .map_or(0, |&l| l + 1) as usize;
    let approximation = match args[3].as_str() {
        "nystroem" => Approximation::Nystroem,
        "rff" => Approximation::Fourier,
        other => return Err(format!("unknown approximation {other}").into()),
    };
    let approx = ApproxParams {
        components: args[4].parse()?,
        gamma: Gamma::Value(args[5].parse()?),
        ..ApproxParams::new(approximation)
    };
    let svm = SvmParams {
        c: args[6].parse()?,
        seed: args.get(8).map_or(Ok(1), |seed| seed.parse())?,
        ..SvmParams::default()
    };
    let (mut fits, mut predicts, mut accuracy, mut features) = (vec![], vec![], 0.0, 0);
    for _ in 0..args[7].parse::<usize>()? {
        let start = Instant::now();
        let model = Approximated::train(&train, &train_labels, classes, svm, &approx, false)?;
        fits.push(start.elapsed().as_secs_f64());
        let start = Instant::now();
        let predicted = model.predict(&test)?;
        predicts.push(start.elapsed().as_secs_f64());
        let right = predicted.iter().zip(&test_labels).filter(|(p, l)| p == l);
        accuracy = right.count() as f64 / test_labels.len() as f64;
        features = model.map.features();
    }
    let median = |times: &mut Vec<f64>| {
        times.sort_by(f64::total_cmp);
        times[times.len() / 2]
    };
    println!(
        "{{\"accuracy\": {accuracy}, \"fit\": {}, \"predict\": {}, \"features\": {features}}}",
        median(&mut fits),
        median(&mut predicts)
    );
    Ok(())
}
