//! Multi-label training, prediction and evaluation: a document may have several labels, and the
//! model says every label whose score is above that label's threshold.
//!
//! Thresholds are chosen on the training data only: the training rows are dealt into folds
//! (stratified by each document's first label), a model trained on the other folds scores each
//! fold, and each label's threshold is the one that maximizes its F1 over those held-out scores
//! ([`choose_threshold`]). The folds share the vectorizer fitted on all training documents, an
//! unsupervised fit of terms and document frequencies that sees no test document.

use std::collections::BTreeSet;

use rayon::prelude::*;

use super::{Builder, Fitted, Reading, TextClassifier};
use crate::error::{Error, Result};
use crate::eval::{
    enough_documents, folds, LabelScoreTable, MultiLabelCounts, MultiLabelMetrics, ScoreKind,
};
use crate::flow::{run_stages, Analyzed, Source};
use crate::model::multilabel::{choose_threshold, HeldOutScores, LabelSets, PerLabel};
use crate::model::{
    Classifier, LinearSvm, Model, MultiLabel, MultiLabelClassifier, SvmParams, TrainingInfo,
};
use crate::pipeline::StageStats;
use crate::vectorize::{matrix_row, pick_rows, Matrix, SparseRow};

/// How a multi-label model decides: how its thresholds are chosen, and the least number of
/// labels it gives a document.
#[derive(Debug, Clone, PartialEq)]
pub struct MultiLabelOptions {
    /// Every document gets at least this many labels, the highest-scoring; default 1.
    pub min_labels: u32,
    /// Folds of the training data on which the thresholds are chosen; 0 or 1 keeps every
    /// threshold at 0, the classifiers' natural boundary. Default 5: on a split of
    /// Reuters-21578's training file, 5 folds gave the SVM a held-out macro-F1 of 0.618, against
    /// 0.582, 0.596, 0.597 and 0.604 for 2, 3, 4 and 10.
    pub folds: usize,
    /// Seed of the folds' assignment.
    pub seed: u64,
}

impl Default for MultiLabelOptions {
    fn default() -> Self {
        MultiLabelOptions {
            min_labels: 1,
            folds: 5,
            seed: 1,
        }
    }
}

/// A label given to a document, with its score (an SVM margin or naive Bayes' log posterior
/// odds; above the label's threshold unless it was needed to reach the least number of labels).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ScoredLabel {
    /// The label.
    pub label: String,
    /// Its score.
    pub score: f64,
}

impl Builder {
    /// Trains a multi-label model on `(labels, text)` pairs held in memory, with the default
    /// pipeline and [`MultiLabelOptions::default`].
    ///
    /// ```
    /// use bowline::{Kind, TextClassifier};
    ///
    /// let pairs = [
    ///     (vec!["sport"], "the match ended in a draw"),
    ///     (vec!["sport"], "a late goal won the match"),
    ///     (vec!["money"], "shares fell as rates rose"),
    ///     (vec!["money"], "the bank raised its rates"),
    ///     (vec!["sport", "money"], "the club's shares rose after the match"),
    ///     (vec!["sport", "money"], "a record fee for the goal scorer"),
    /// ];
    /// let model = TextClassifier::builder(Kind::Svm).fit_multi(pairs)?;
    /// let labels = model.predict_labels("the match")?;
    /// assert_eq!(labels[0].label, "sport");
    /// # Ok::<(), bowline::Error>(())
    /// ```
    pub fn fit_multi<L: Into<String>, T: Into<String>>(
        self,
        pairs: impl IntoIterator<Item = (Vec<L>, T)>,
    ) -> Result<TextClassifier> {
        let source = Source::multi_labelled(pairs);
        let options = MultiLabelOptions::default();
        let fitted = self.fit_multi_source(source, &mut Reading::default(), &options)?;
        Ok(fitted.classifier)
    }

    /// Trains a multi-label model (binary relevance: one binary problem per label) on the
    /// documents of `source`, every one of which needs a label, with thresholds chosen as
    /// `options` say.
    pub fn fit_multi_source(
        self,
        source: Source,
        reading: &mut Reading,
        options: &MultiLabelOptions,
    ) -> Result<Fitted> {
        self.fit_labelled(source, reading, options, true)
    }

    /// Trains on the documents of `source`: a multi-label model when `multi` is set or a
    /// document has several labels (as [`Builder::fit_multi_source`]), else a single-label
    /// one (as [`Builder::fit_source`]).
    pub fn fit_labelled(
        self,
        source: Source,
        reading: &mut Reading,
        options: &MultiLabelOptions,
        multi: bool,
    ) -> Result<Fitted> {
        let name = source.name.clone();
        let mut label_sets: Vec<Vec<String>> = Vec::new();
        let (analyzer, fitted) = self.read_corpus(source, reading, |entry| {
            label_sets.push(entry.doc.label_set());
        })?;
        if !multi && label_sets.iter().all(|set| set.len() <= 1) {
            return self.train_single(analyzer, fitted, &name);
        }
        let labels = label_names(&fitted.classes, &label_sets);
        if label_sets.iter().any(Vec::is_empty) {
            return Err(Error::input(
                &name,
                "training needs a label on every document",
            ));
        }
        if labels.len() < 2 {
            return Err(Error::input(&name, "training needs at least two labels"));
        }
        let sets = label_ids(&labels, &label_sets);
        let first: Vec<u32> = (0..sets.len()).map(|i| sets.row(i)[0]).collect();
        let (x, labels_n) = (&fitted.matrix, labels.len());
        let space = fitted.vectorizer.space();
        let classifier = if options.folds >= 2 {
            enough_documents(&name, "threshold", options.folds, sets.len())?;
            let fold = folds(&fitted.ids, &first, options.folds, options.seed)?;
            self.trainer
                .fit_sets_tuned(x, &sets, (labels_n, space), &fold, options)?
        } else {
            self.trainer
                .fit_sets(x, &sets, labels_n, options.min_labels, space)?
        };
        drop(fitted.matrix);
        let docs_per_label = sets.counts(labels_n);
        let model = Model {
            vectorizer: fitted
                .vectorizer
                .with_weighting(self.vectorizer.weighting)?,
            labels,
            classifier,
            info: TrainingInfo::now(vec![name.display().to_string()], docs_per_label),
        };
        Ok(Fitted {
            classifier: TextClassifier { model, analyzer },
            documents: sets.len(),
        })
    }
}

impl crate::model::Trainer {
    /// A multi-label classifier whose thresholds are each label's best F1 ([`choose_threshold`])
    /// over out-of-fold scores: each row is scored by a model trained on the other folds. An SVM
    /// starts its fold models from the model of every row
    /// ([`LinearSvm::train_sets_held_out`](crate::model::LinearSvm::train_sets_held_out));
    /// naive Bayes trains them from scratch, its smoothing counting `space` features.
    fn fit_sets_tuned(
        &self,
        x: &Matrix,
        sets: &LabelSets,
        (labels, space): (usize, usize),
        fold: &[usize],
        options: &MultiLabelOptions,
    ) -> Result<Classifier> {
        let (scorer, mut scored) = match self.svm() {
            Some((params, _)) => {
                let (svm, scored) = LinearSvm::train_sets_held_out(
                    x,
                    sets,
                    labels,
                    (params, fold_params(&params)),
                    (fold, options.folds),
                )?;
                (PerLabel::Svm(svm), scored)
            }
            None => (
                self.fit_per_label(x, sets, labels, space)?,
                self.out_of_fold_scores(x, sets, (labels, space), fold, options.folds)?,
            ),
        };
        let decision = MultiLabel {
            thresholds: scored.par_iter_mut().map(|s| choose_threshold(s)).collect(),
            min_labels: options.min_labels,
            tuned_by: format!(
                "best F1 per label over {} folds of the training data",
                options.folds
            ),
        };
        let multi = MultiLabelClassifier { scorer, decision };
        Ok(Classifier::MultiLabel(Box::new(multi)))
    }

    /// Each row's scores, per label, from a model trained on the other folds.
    fn out_of_fold_scores(
        &self,
        x: &Matrix,
        sets: &LabelSets,
        (labels, space): (usize, usize),
        fold: &[usize],
        folds: usize,
    ) -> Result<HeldOutScores> {
        let mut scored: HeldOutScores = vec![Vec::with_capacity(sets.len()); labels];
        let mut scores = vec![0.0; labels];
        for f in 0..folds {
            let (held, kept): (Vec<usize>, Vec<usize>) =
                (0..sets.len()).partition(|&i| fold[i] == f);
            let (rows, kept_sets) = (pick_rows(x, &kept)?, sets.select(&kept));
            let model = self.fit_sets(&rows, &kept_sets, labels, 0, space)?;
            for &i in &held {
                let (indices, values) = matrix_row(x, i);
                model.scores(indices, values, &mut scores);
                for (c, &score) in scores.iter().enumerate() {
                    scored[c].push((score, sets.contains(i, c)));
                }
            }
        }
        Ok(scored)
    }
}

/// The parameters of the fold models of an SVM, which start from the model of every row (see
/// [`LinearSvm::train_sets_held_out`]): one pass over the rows, whatever the tolerance.
///
/// On a split of Reuters-21578's training file (training on four fifths, F1 on every fifth
/// story; the test file unused), one pass gave held-out micro- and macro-F1 0.900 and 0.618,
/// where fold models trained from zero for at most three passes gave 0.896 and 0.624 and two
/// passes from the full model 0.895 and 0.604: differences within what one story changes on
/// the rare labels. On the whole file the fold models now add 0.12 s to the 0.31 s of a
/// training without them; trained from zero they added 0.48 s.
fn fold_params(params: &SvmParams) -> SvmParams {
    SvmParams {
        max_iterations: 1,
        ..*params
    }
}

/// The label names: the source's classes and every label of the documents, in byte order.
fn label_names(classes: &[String], sets: &[Vec<String>]) -> Vec<String> {
    let all: BTreeSet<&String> = classes.iter().chain(sets.iter().flatten()).collect();
    all.into_iter().cloned().collect()
}

/// Each document's labels as ids into `labels`, which holds them all.
fn label_ids(labels: &[String], sets: &[Vec<String>]) -> LabelSets {
    let mut ids = LabelSets::new();
    for set in sets {
        ids.push(
            set.iter()
                .filter_map(|l| labels.iter().position(|n| n == l))
                .map(|c| c as u32),
        );
    }
    ids
}

impl TextClassifier {
    /// Whether the model is multi-label: it gives each document a set of labels.
    pub fn is_multi_label(&self) -> bool {
        self.model.classifier.multi_label().is_some()
    }

    /// The labels of one text, highest score first: every label above its threshold, and at
    /// least the model's least number of labels. A single-label model gives its one class, with
    /// its probability as the score.
    pub fn predict_labels(&self, text: &str) -> Result<Vec<ScoredLabel>> {
        let mut scores = vec![0.0; self.model.labels.len()];
        Ok(self.labels_of(&self.vectorize(text).row, &mut scores))
    }

    /// The labels of one weighted row, as [`TextClassifier::predict_labels`] gives them;
    /// `scores` is scratch space, one slot per label.
    pub fn labels_of(&self, row: &SparseRow, scores: &mut [f64]) -> Vec<ScoredLabel> {
        let classifier = &self.model.classifier;
        let chosen = match classifier.multi_label() {
            Some(multi) => {
                multi.scores(&row.indices, &row.values, scores);
                multi.decision.predict(scores)
            }
            None => {
                classifier.probabilities_of(&row.indices, &row.values, scores);
                vec![crate::model::decision::argmax(scores.iter().copied())]
            }
        };
        chosen
            .into_iter()
            .map(|c| ScoredLabel {
                label: self.model.labels[c].clone(),
                score: scores[c],
            })
            .collect()
    }

    /// Runs the documents of `source` through the pipeline and hands each entry, in input
    /// order, to `each` with its labels and every label's score (a single-label model's
    /// probabilities); `None` for an entry that is not a document.
    fn classify_scored(
        &self,
        source: Source,
        reading: &mut Reading,
        mut each: impl FnMut(&Analyzed, Option<(Vec<ScoredLabel>, &[f64])>) -> Result<()>,
    ) -> Result<Vec<StageStats>> {
        let stages = self.stages(source.max_doc_bytes, reading.pipeline.is_fused());
        let mut scores = vec![0.0; self.model.labels.len()];
        let (pipeline, note) = reading.parts();
        run_stages(source.entries, pipeline, stages, |item| {
            note(&item.entry);
            if !item.entry.is_document() {
                return each(&item, None);
            }
            let labels = self.labels_of(&item.counted.row, &mut scores);
            each(&item, Some((labels, &scores)))
        })
    }

    /// Classifies the labelled documents of `source` and compares each document's labels with
    /// its true label set (see [`crate::eval::MultiLabelCounts`]). A test label the model does
    /// not know counts as a label it never gives.
    pub fn evaluate_labels(
        &self,
        source: Source,
        reading: &mut Reading,
    ) -> Result<MultiLabelMetrics> {
        self.evaluate_labels_into(source, reading, None)
    }

    /// [`evaluate_labels`](TextClassifier::evaluate_labels), keeping every labelled
    /// document's score for every label of the model, for each label's ROC and
    /// precision-recall curves ([`LabelScoreTable::curves`]): documents × labels values of 9
    /// bytes (2.4 MB for Reuters-21578's 3,019 test stories and 90 labels). A multi-label
    /// model's scores are decision values (an SVM margin, naive Bayes' log posterior odds); a
    /// single-label model's are probabilities.
    pub(crate) fn evaluate_labels_with_scores(
        &self,
        source: Source,
        reading: &mut Reading,
    ) -> Result<(MultiLabelMetrics, LabelScoreTable)> {
        let kind = match self.is_multi_label() {
            true => ScoreKind::DecisionValue,
            false => ScoreKind::Probability,
        };
        let mut table = LabelScoreTable::new(self.model.labels.clone(), kind);
        let metrics = self.evaluate_labels_into(source, reading, Some(&mut table))?;
        Ok((metrics, table))
    }

    fn evaluate_labels_into(
        &self,
        source: Source,
        reading: &mut Reading,
        mut table: Option<&mut LabelScoreTable>,
    ) -> Result<MultiLabelMetrics> {
        let name = source.name.clone();
        let mut counts = MultiLabelCounts::new(self.model.labels.clone());
        let mut unlabelled = 0u64;
        // The counts number the model's labels first, and a corpus's other labels after them.
        let known = self.model.labels.len();
        let mut any_known = false;
        self.classify_scored(source, reading, |item, given| {
            let Some((given, scores)) = given else {
                return Ok(());
            };
            let truth = item.entry.doc.label_set();
            if truth.is_empty() {
                unlabelled += 1;
                return Ok(());
            }
            let truth: Vec<usize> = truth.iter().map(|l| counts.label(l)).collect();
            any_known |= truth.iter().any(|&id| id < known);
            let predicted: Vec<usize> = given.iter().map(|l| counts.label(&l.label)).collect();
            counts.add(&truth, &predicted);
            if let Some(table) = table.as_deref_mut() {
                table.push(scores, &truth);
            }
            Ok(())
        })?;
        let metrics = counts.metrics();
        if metrics.documents == 0 {
            let message =
                format!("nothing to evaluate: no labelled document ({unlabelled} without labels)");
            return Err(Error::input(&name, message));
        }
        if !any_known {
            let labels = metrics.per_label.iter().map(|scores| &scores.label);
            let mut unknown: Vec<&str> = (labels.filter(|l| !self.model.labels.contains(l)))
                .map(String::as_str)
                .collect();
            unknown.sort_unstable();
            let message = format!(
                "nothing to evaluate: none of its labels is a label of the model ({})",
                unknown.join(", ")
            );
            return Err(Error::input(&name, message));
        }
        Ok(metrics)
    }
}
