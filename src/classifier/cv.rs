//! Stratified k-fold cross-validation.
//!
//! The corpus is analyzed and counted once; each fold then fits its vocabulary, pruning and idf
//! on its training rows alone, trains, and is scored on its held-out rows.

use serde::Serialize;

use super::{Builder, Labelled, Reading};
use crate::analyze::Analyzer;
use crate::error::Result;
use crate::eval::{evaluate, folds};
use crate::flow::Source;
use crate::vectorize::{fit_part, weigh_part};

/// One fold's figures on its held-out rows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FoldResult {
    /// The fold, from 1.
    pub fold: usize,
    /// Held-out documents.
    pub docs: u64,
    /// Share of them classified right.
    pub accuracy: f64,
    /// Mean F1 over the classes.
    pub macro_f1: f64,
}

/// Mean and sample standard deviation of a figure over the folds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// The mean.
    pub mean: f64,
    /// The sample standard deviation.
    pub std: f64,
}

impl Spread {
    /// Mean and sample standard deviation of `values`.
    fn of(values: impl Iterator<Item = f64> + Clone) -> Spread {
        let n = values.clone().count() as f64;
        let mean = values.clone().sum::<f64>() / n;
        let variance = values.map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        Spread {
            mean,
            std: variance.sqrt(),
        }
    }
}

/// The figures of a cross-validation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CvReport {
    /// Each fold's figures.
    pub folds: Vec<FoldResult>,
    /// Accuracy over the folds.
    pub accuracy: Spread,
    /// Macro-F1 over the folds.
    pub macro_f1: Spread,
}

impl Builder {
    /// Cross-validates this classifier on the labelled documents of `source` over `k` folds,
    /// stratified by class, each document's fold chosen by a hash of its id and `seed`.
    pub fn cross_validate(
        &self,
        source: Source,
        reading: &mut Reading,
        k: usize,
        seed: u64,
    ) -> Result<CvReport> {
        let analyzer = Analyzer::new(self.analysis.clone())?;
        let hashing = self.vectorizer.hashing;
        let labelled = Labelled::read(source, "cross-validation", &analyzer, hashing, reading)?;
        self.cross_validate_labelled(&labelled, k, seed)
    }

    /// [`Builder::cross_validate`] on a corpus already read and counted (by a cluster's
    /// workers, say) with this builder's analysis and hashing.
    pub(crate) fn cross_validate_labelled(
        &self,
        labelled: &Labelled,
        k: usize,
        seed: u64,
    ) -> Result<CvReport> {
        let corpus = &labelled.corpus;
        let fold_of = folds(&corpus.ids, &labelled.classes, k, seed)?;
        let mut results = Vec::new();
        for fold in 0..k {
            let (held, kept): (Vec<usize>, Vec<usize>) =
                (0..fold_of.len()).partition(|&i| fold_of[i] == fold);
            let part = fit_part(corpus, &kept, &self.vectorizer)?;
            let train = self.trainer.rows(corpus, &part, &kept)?;
            let truth = labelled.classes_of(&kept);
            let space = part.vectorizer.space();
            let classifier = self
                .trainer
                .fit_in(&train, &truth, corpus.classes.len(), space)?;
            let test = weigh_part(corpus, &part, &held)?;
            let truth = labelled.classes_of(&held);
            let report = evaluate(&classifier, &corpus.classes, &test, &truth);
            results.push(FoldResult {
                fold: fold + 1,
                docs: report.docs,
                accuracy: report.accuracy,
                macro_f1: report.macro_f1,
            });
        }
        Ok(CvReport {
            accuracy: Spread::of(results.iter().map(|r| r.accuracy)),
            macro_f1: Spread::of(results.iter().map(|r| r.macro_f1)),
            folds: results,
        })
    }
}
