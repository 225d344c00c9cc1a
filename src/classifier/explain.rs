//! Explaining a prediction: the terms that contributed most to a class's score.

use serde::Serialize;

use super::TextClassifier;
use crate::analyze::Terms;
use crate::error::Result;
use crate::model::decision::argmax;
use crate::vectorize::{Counted, DocumentCounter, FittedVectorizer};

/// One term's part of a class's score.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TermContribution {
    /// The term, as the vocabulary spells it (a word pair with a space). For a model whose
    /// terms are hashed it is the column: `#COLUMN=TERMS`, the document's own terms that fell
    /// in it joined by `|`, when they are known ([`TextClassifier::explain`]), else `#COLUMN`.
    pub term: String,
    /// What it adds to the score (negative: what it takes away).
    pub contribution: f64,
}

/// Why a document got a class: the class's score taken apart. `bias`, the contributions of
/// `terms` and `other_terms` add up to `score`, up to rounding. What the score is depends on
/// the kind of classifier (see [`crate::model::explain`]): the SVM's decision value, naive
/// Bayes' score (the log joint likelihood; complement NB's normalized score) less its mean over
/// the classes, or k-NN's summed similarity of the class's neighbours.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// The class explained.
    pub label: String,
    /// Its score.
    pub score: f64,
    /// The part of the score that no term carries: the SVM's intercept, naive Bayes' log prior
    /// (and for Bernoulli NB every term's absence), centered like the score; 0 for k-NN unless
    /// the document has no neighbour.
    pub bias: f64,
    /// The terms of largest contribution, largest first.
    pub terms: Vec<TermContribution>,
    /// The summed contribution of the document's other terms.
    pub other_terms: f64,
}

impl TextClassifier {
    /// Explains the prediction of one text: the predicted class (the one
    /// [`predict`](TextClassifier::predict) gives) with the `k` terms that contributed most to
    /// its score. A kernel SVM, whose score is not a sum over terms, is refused.
    pub fn explain(&self, text: &str, k: usize) -> Result<Explanation> {
        self.model.classifier.check_explainable()?;
        Ok(self.explain_counted(&self.vectorize(text), text, k))
    }

    /// [`TextClassifier::explain`] for a document already counted and weighed from `text`,
    /// whose terms name the columns of a model whose terms are hashed.
    pub(crate) fn explain_counted(&self, counted: &Counted, text: &str, k: usize) -> Explanation {
        let mut probabilities = vec![0.0; self.model.labels.len()];
        self.probabilities(counted, &mut probabilities);
        let best = argmax(probabilities.iter().copied());
        let mut terms = Terms::new();
        if self.model.vectorizer.hashing().is_some() {
            self.analyzer.worker().analyze(text, &mut terms);
        }
        self.explanation_in(counted, &terms, best, k)
    }

    /// One text analyzed, counted and weighed as the model's vectorizer does it: the row its
    /// classifier scores, as classifying makes it.
    pub fn vectorize(&self, text: &str) -> Counted {
        let mut counter = DocumentCounter::new(&self.analyzer);
        let mut counted = Counted::default();
        let vectorizer = &self.model.vectorizer;
        counter.count(vectorizer, text, &mut counted);
        vectorizer.weigh(&mut counted.row, counted.length);
        counted
    }

    /// Explains class `class`'s score of a document counted and weighed as
    /// [`vectorize`](TextClassifier::vectorize) does, with its `k` terms of largest
    /// contribution: what `classify --explain` prints for the class it decided. `class` indexes
    /// [`labels`](TextClassifier::labels) (it panics beyond them, as indexing does).
    pub fn explanation(&self, counted: &Counted, class: usize, k: usize) -> Explanation {
        self.explanation_in(counted, &Terms::new(), class, k)
    }

    /// [`TextClassifier::explanation`] of a document whose analyzed `terms` are at hand: a
    /// model whose terms are hashed names each column by the terms of `terms` that fall in it.
    pub(crate) fn explanation_in(
        &self,
        counted: &Counted,
        terms: &Terms,
        class: usize,
        k: usize,
    ) -> Explanation {
        let row = &counted.row;
        let parts = self
            .model
            .classifier
            .attribute(&row.indices, &row.values, class);
        let (top, other_terms) = parts.top(k);
        let vectorizer = &self.model.vectorizer;
        Explanation {
            label: self.model.labels[class].clone(),
            score: parts.score,
            bias: parts.bias,
            terms: top
                .into_iter()
                .map(|(j, contribution)| TermContribution {
                    term: term_name(vectorizer, j, terms),
                    contribution,
                })
                .collect(),
            other_terms,
        }
    }
}

/// How an explanation names column `column`: its term, or for hashed terms `#COLUMN=TERMS`
/// with those of the document's `terms` that fall in it, `#COLUMN` when `terms` is empty (see
/// [`TermContribution::term`]).
fn term_name(vectorizer: &FittedVectorizer, column: u32, terms: &Terms) -> String {
    let Some(hashing) = vectorizer.hashing() else {
        return vectorizer.terms()[column as usize].to_string();
    };
    let column = vectorizer.outer_column(column);
    let mut names: Vec<&str> = (terms.iter())
        .filter(|term| hashing.place(term).0 == column)
        .collect();
    names.sort_unstable();
    names.dedup();
    match names.is_empty() {
        true => format!("#{column}"),
        false => format!("#{column}={}", names.join("|")),
    }
}
