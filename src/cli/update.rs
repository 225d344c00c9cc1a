//! `bowline update`: teach a saved model more labelled documents.
//!
//! The new documents are counted over their own vocabulary, which is merged with the model's:
//! new terms become new columns, new classes new labels, document frequencies add up. Each new
//! document is then weighted with the merged vectorizer.
//!
//! Naive Bayes adds the new rows to its counts. With a weighting that depends on the document
//! alone (no idf) and no pruning, the result equals training on all documents at once; with idf,
//! earlier documents keep the weights they had.
//!
//! k-NN adds the new documents' counts and derives its weights again from the merged document
//! frequencies: with no pruning (min-df 1, its default) the result is the model trained on all
//! documents at once.
//!
//! The SVM continues its dual problem over its reservoir of earlier rows, re-weighted with the
//! new idf, plus the new rows (see [`LinearSvm::update`](crate::model::LinearSvm::update)).

use std::path::PathBuf;

use clap::Args;

use super::log::ReadLog;
use super::train::report_unconverged;
use super::{InputArgs, Outcome, RuntimeArgs};
use crate::analyze::Analyzer;
use crate::error::{Error, Result};
use crate::model::{file::utc_now, Classifier, ColumnChange, Model};
use crate::vectorize::{
    count_rows, counting_config, fit_corpus, weigh_rows, FittedCorpus, FittedVectorizer, Norm,
};

/// Flags of `bowline update`.
#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// A model written by `bowline train`.
    pub model: PathBuf,
    /// A labelled corpus of new documents.
    pub corpus: PathBuf,
    /// Write the updated model here instead of replacing MODEL (which is replaced atomically).
    #[arg(short, long, value_name = "NEW_MODEL")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub runtime: RuntimeArgs,
}

/// Runs the command.
pub fn run(args: UpdateArgs) -> Result<Outcome> {
    let mut model = Model::load(&args.model)?;
    if matches!(model.classifier, Classifier::Selected(_)) {
        return Err(Error::input(
            &args.model,
            "a model from `select` keeps only its selected features and cannot be updated; \
             select again on all the documents",
        ));
    }
    let read = args.input.options()?;
    let pipeline = args.runtime.start()?;
    let analyzer = Analyzer::new(model.vectorizer.analyzer().clone())?;
    let mut log = ReadLog::new(read.max_doc_bytes);
    let fitted = fit_corpus(
        &args.corpus,
        &read,
        &analyzer,
        &counting_config(),
        &pipeline,
        |e| log.note(e),
    )?;
    let documents = fitted.labels.len();
    let (merged, ours, theirs) = model.vectorizer.extend(&fitted.vectorizer)?;
    let ids = new_class_ids(&mut model, &fitted, &args.corpus)?;
    // The new documents' counts, moved to the merged columns and weighted as the model weighs
    // (k-NN weighs its own counts).
    let all: Vec<usize> = (0..documents).collect();
    let rows = match &model.classifier {
        Classifier::Knn(_) => count_rows(&fitted.matrix, &theirs, &all, merged.terms().len())?,
        _ => weigh_rows(&fitted.matrix, &merged, &theirs, &all)?,
    };
    match &mut model.classifier {
        Classifier::NaiveBayes(nb) => {
            nb.remap(&ours, merged.terms().len(), model.labels.len());
            nb.add(&rows, &ids);
        }
        Classifier::Svm(svm) => {
            let change = ColumnChange {
                columns: &ours,
                rescale: &rescale(&model.vectorizer, &merged, &ours),
                l2: merged.config().weighting.norm == Norm::L2,
            };
            svm.update(&rows, &ids, model.labels.len(), change)?;
            report_unconverged(svm, &model.labels);
        }
        Classifier::Knn(knn) => {
            knn.remap(&ours, merged.terms().len(), model.labels.len());
            knn.add(&rows, &ids)?;
        }
        // Refused when the model was loaded.
        Classifier::Selected(_) => {}
    }
    model.info.docs_per_class.resize(model.labels.len(), 0);
    ids.iter()
        .for_each(|&c| model.info.docs_per_class[c as usize] += 1);
    model.info.corpora.push(args.corpus.display().to_string());
    model.info.written = utc_now();
    model.vectorizer = merged;
    let target = args.output.as_ref().unwrap_or(&args.model);
    model.save(target)?;
    if !args.runtime.quiet {
        eprintln!("bowline: {}", log.summary());
        eprintln!(
            "bowline: updated with {documents} documents: {} classes, {} terms -> {}",
            model.labels.len(),
            model.vectorizer.terms().len(),
            target.display()
        );
    }
    Ok(log.outcome())
}

/// Each new document's class id, adding classes the model has not seen to its labels.
fn new_class_ids(
    model: &mut Model,
    fitted: &FittedCorpus,
    corpus: &std::path::Path,
) -> Result<Vec<u32>> {
    let mut ids = Vec::with_capacity(fitted.labels.len());
    for label in &fitted.labels {
        let label = label
            .as_ref()
            .ok_or_else(|| Error::input(corpus, "updating needs a label on every document"))?;
        let id = match model.labels.iter().position(|l| l == label) {
            Some(id) => id,
            None => {
                model.labels.push(label.clone());
                model.labels.len() - 1
            }
        };
        ids.push(id as u32);
    }
    Ok(ids)
}

/// Per merged column, its new idf over its old one: how the values of earlier rows change. A
/// column the model did not have, or whose old idf was zero (a term in every document under plain
/// idf, whose values were all zero), keeps factor 1.
fn rescale(old: &FittedVectorizer, merged: &FittedVectorizer, columns: &[u32]) -> Vec<f64> {
    let mut factors = vec![1.0; merged.terms().len()];
    for (&new, &before) in columns.iter().zip(old.idf()) {
        if before > 0.0 {
            factors[new as usize] = merged.idf()[new as usize] / before;
        }
    }
    factors
}
