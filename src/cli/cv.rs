//! `bowline cv`: stratified k-fold cross-validation of a classifier on a labelled corpus.
//!
//! The corpus is analyzed and counted once; each fold then fits its vocabulary, pruning and idf
//! on its training rows alone, trains, and is scored on its held-out rows.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::labelled::{evaluate, Labelled};
use super::train::{ClassifierArgs, ClassifierChoice};
use super::{AnalysisArgs, InputArgs, Outcome, RuntimeArgs, VocabularyArgs};
use crate::analyze::Analyzer;
use crate::error::{Error, Result};
use crate::eval::folds;
use crate::vectorize::{fit_part, weigh_part};

/// Flags of `bowline cv`.
#[derive(Debug, Args)]
pub struct CvArgs {
    /// A labelled corpus: class folders, a .tsv or a .jsonl file.
    pub corpus: PathBuf,
    /// Number of folds, at least 2.
    #[arg(long, default_value_t = 5, value_name = "K")]
    pub folds: usize,
    /// Seed of the fold assignment (a hash of each document's id) and of the SVM [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub model: ClassifierArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub analysis: AnalysisArgs,
    #[command(flatten)]
    pub weighting: VocabularyArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

#[derive(Serialize)]
struct FoldResult {
    fold: usize,
    docs: u64,
    accuracy: f64,
    macro_f1: f64,
}

#[derive(Serialize)]
struct Spread {
    mean: f64,
    std: f64,
}

/// Mean and sample standard deviation.
fn spread(values: impl Iterator<Item = f64> + Clone) -> Spread {
    let n = values.clone().count() as f64;
    let mean = values.clone().sum::<f64>() / n;
    let variance = values.map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    Spread {
        mean,
        std: variance.sqrt(),
    }
}

/// Runs the command.
pub fn run(args: CvArgs) -> Result<Outcome> {
    let choice = args.model.choice(ClassifierChoice::Svm);
    let svm_seed = (choice == ClassifierChoice::Svm)
        .then_some(args.seed)
        .flatten();
    let analyzer = Analyzer::new(args.analysis.config_over(&choice.analysis())?)?;
    let config = args.weighting.config_over(&choice.vectorizer())?;
    let trainer = args.model.trainer(choice, svm_seed, config.weighting)?;
    let (labelled, reading) = Labelled::open(
        &args.corpus,
        "cross-validation",
        &analyzer,
        &args.input,
        &args.runtime,
    )?;
    let corpus = &labelled.corpus;
    let fold_of = folds(
        &corpus.ids,
        &labelled.classes,
        args.folds,
        args.seed.unwrap_or(1),
    )?;
    let mut results = Vec::new();
    for fold in 0..args.folds {
        let (held, kept): (Vec<usize>, Vec<usize>) =
            (0..fold_of.len()).partition(|&i| fold_of[i] == fold);
        let part = fit_part(corpus, &kept, &config)?;
        let train = trainer.rows(corpus, &part, &kept)?;
        let classifier = trainer.fit(&train, &labelled.classes_of(&kept), corpus.classes.len())?;
        let test = weigh_part(corpus, &part, &held)?;
        let report = evaluate(
            &classifier,
            &corpus.classes,
            &test,
            &labelled.classes_of(&held),
        );
        results.push(FoldResult {
            fold: fold + 1,
            docs: report.docs,
            accuracy: report.accuracy,
            macro_f1: report.macro_f1,
        });
    }
    let accuracy = spread(results.iter().map(|r| r.accuracy));
    let macro_f1 = spread(results.iter().map(|r| r.macro_f1));
    let text = if args.json {
        let json = serde_json::json!({
            "classifier": format!("{choice:?}").to_lowercase(),
            "folds": results,
            "accuracy": accuracy,
            "macro_f1": macro_f1,
        });
        serde_json::to_string_pretty(&json).map_err(|e| Error::Config(e.to_string()))? + "\n"
    } else {
        let mut out = format!(
            "{:>5}  {:>6}  {:>8}  {:>8}\n",
            "fold", "docs", "accuracy", "macro-F1"
        );
        for r in &results {
            out += &format!(
                "{:>5}  {:>6}  {:>8.4}  {:>8.4}\n",
                r.fold, r.docs, r.accuracy, r.macro_f1
            );
        }
        out + &format!(
            "\naccuracy {:.4} ± {:.4}, macro-F1 {:.4} ± {:.4} (mean ± standard deviation over {} folds)\n",
            accuracy.mean, accuracy.std, macro_f1.mean, macro_f1.std, args.folds
        )
    };
    super::print_or_quiet(&text)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", reading.log.summary());
    }
    Ok(reading.log.outcome())
}
