//! A cross-validation's figures, as `cv` shows them: each fold's accuracy and macro-F1 in a
//! table with their mean and spread, or as JSON.

use super::json::json_text;
use crate::classifier::CvReport;
use crate::error::Result;
use crate::model::Kind;

/// The folds' figures as JSON, naming the `kind` of classifier cross-validated.
pub fn cv_json(report: &CvReport, kind: Kind) -> Result<String> {
    let json = serde_json::json!({
        "classifier": kind.name(),
        "folds": report.folds,
        "accuracy": report.accuracy,
        "macro_f1": report.macro_f1,
    });
    json_text(&json)
}

/// The figures of `folds` folds as a table, with their mean and spread.
pub fn cv_text(report: &CvReport, folds: usize) -> String {
    let mut out = format!(
        "{:>5}  {:>6}  {:>8}  {:>8}\n",
        "fold", "docs", "accuracy", "macro-F1"
    );
    for r in &report.folds {
        out += &format!(
            "{:>5}  {:>6}  {:>8.4}  {:>8.4}\n",
            r.fold, r.docs, r.accuracy, r.macro_f1
        );
    }
    let (accuracy, macro_f1) = (report.accuracy, report.macro_f1);
    out + &format!(
        "\naccuracy {:.4} ± {:.4}, macro-F1 {:.4} ± {:.4} (mean ± standard deviation over {} folds)\n",
        accuracy.mean, accuracy.std, macro_f1.mean, macro_f1.std, folds
    )
}
