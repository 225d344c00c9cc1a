//! A labelling session: a pool held in memory, analyzed once, and a naive Bayes model that
//! learns each label the moment it is given, then picks the next document to ask about.
//!
//! The pick scores documents with the model as it stands after the last label. Scoring a large
//! pool whole after every label would take too long for a person waiting on the page, so each
//! pick rescores the best candidates of the picks before ([`CANDIDATES`]) and the next slice of
//! the pool in turn ([`SLICE`]), and asks about the best of those: in a pool of at most
//! `CANDIDATES + SLICE` documents every pick is exact, and in a larger one every document is
//! rescored once per `pool / SLICE` labels. The rescoring takes no term lookup by text: the pool
//! is counted by term once, when the session opens, and each term keeps its id in the model's
//! vocabulary from the label that first brings it in; the documents are rescored on every core.
//! The scores are those of the documents' terms, bit for bit, so the picks are the same as
//! scoring from the terms one at a time. Until every class has a label (and the model knows
//! two classes), the picks are a seeded random sample, since a model without a class's labels
//! cannot say what is uncertain about it.
//!
//! Undoing a label relearns the labels left from a fresh model: naive Bayes counts could be
//! taken back, but relearning is exact for every kind and weighting and takes milliseconds for
//! the hundreds of labels a person gives.

use std::collections::HashMap;

use rayon::prelude::*;
use serde::Serialize;
use unicode_segmentation::UnicodeSegmentation;

use super::counted::{CountedPool, Scratch};
use super::Strategy;
use crate::analyze::{Analyzer, Terms};
use crate::classifier::{OnlineLearner, TextClassifier};
use crate::error::Result;
use crate::eval::seeded_hash;

/// The best candidates of each pick, rescored at the next.
pub const CANDIDATES: usize = 256;
/// Pool documents rescored at each pick besides the candidates, in turn.
pub const SLICE: usize = 2048;
/// Terms of an explanation highlighted in the text.
const EXPLAINED_TERMS: usize = 12;
/// The recent accuracy covers the latest this many labels that had a guess.
const RECENT: usize = 50;

/// The documents to label.
#[derive(Default)]
pub struct Pool {
    /// Each document's id.
    pub ids: Vec<String>,
    /// Each document's text.
    pub texts: Vec<String>,
    /// Each document's analyzed terms.
    pub terms: Vec<Terms>,
}

/// A label given: the document's id, its text and its label, as the labels file holds it.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Record {
    /// The document's id in the pool.
    pub id: String,
    /// Its label.
    pub label: String,
    /// Its text, so that the labels file is a corpus on its own.
    pub text: String,
}

/// What the page shows: the document to label, the model's guess, and the progress.
#[derive(Debug, Clone, Default, Serialize)]
pub struct View {
    /// The document to label, none when the pool is done.
    pub document: Option<Asked>,
    /// The classes, in the order of their keys, each with its labels so far.
    pub classes: Vec<(String, usize)>,
    /// Labels given.
    pub labelled: usize,
    /// Documents skipped.
    pub skipped: usize,
    /// Pool documents neither labelled nor skipped.
    pub remaining: usize,
    /// The share of labels the model guessed before learning them (prequential), of those it
    /// had a guess for; none before the first.
    pub accuracy: Option<f64>,
    /// The same over the latest labels.
    pub recent: Option<f64>,
    /// The recent accuracy after each label that had a guess: the learning curve.
    pub curve: Vec<f64>,
}

/// The document asked about.
#[derive(Debug, Clone, Serialize)]
pub struct Asked {
    /// Its id.
    pub id: String,
    /// Its text in pieces, each with the weight of the term it is when that term drove the
    /// guess (its contribution to the guessed class's score), else 0.
    pub pieces: Vec<(String, f64)>,
    /// The model's guess, none before it knows a class.
    pub guess: Option<String>,
    /// The guess's probability.
    pub probability: f64,
}

/// Why the last action can be undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// A label, the last record.
    Labelled,
    /// A skip of a pool document.
    Skipped(usize),
}

/// A pool, a model learning from labels, and the next document to ask about.
pub struct Session {
    pool: Pool,
    index: HashMap<String, usize>,
    fresh: Box<dyn Fn() -> Result<OnlineLearner> + Send>,
    learner: OnlineLearner,
    analyzer: Analyzer,
    records: Vec<(Record, Terms)>,
    /// Per pool document: labelled or skipped.
    done: Vec<bool>,
    skipped: usize,
    actions: Vec<Action>,
    classes: Vec<String>,
    /// Per label: whether the model guessed it before learning it, none without a guess.
    hits: Vec<Option<bool>>,
    /// The pool counted by term, none when the model hashes its terms (its documents are then
    /// scored from their terms).
    counted: Option<CountedPool>,
    candidates: Vec<usize>,
    cursor: usize,
    random: Vec<usize>,
    current: Option<usize>,
}

impl Session {
    /// A session over `pool` with classes `classes` (more come as labels name them), whose
    /// model starts as `fresh` makes it, and again at each undo.
    pub fn new(
        pool: Pool,
        classes: Vec<String>,
        fresh: Box<dyn Fn() -> Result<OnlineLearner> + Send>,
    ) -> Result<Session> {
        let learner = fresh()?;
        let analyzer = Analyzer::new(learner.analysis().clone())?;
        let index = (pool.ids.iter().enumerate())
            .map(|(i, id)| (id.clone(), i))
            .collect();
        let mut random: Vec<usize> = (0..pool.ids.len()).collect();
        random.sort_by_key(|&i| (std::cmp::Reverse(seeded_hash(&pool.ids[i], 1)), i));
        let mut classes = classes;
        for label in learner.labels() {
            push_new(&mut classes, label);
        }
        let counted = (!learner.hashes_terms()).then(|| {
            let mut counted = CountedPool::new(&pool.terms);
            // A model given to start from knows terms already.
            counted.refresh(&learner);
            counted
        });
        Ok(Session {
            done: vec![false; pool.ids.len()],
            skipped: 0,
            pool,
            index,
            fresh,
            learner,
            analyzer,
            records: Vec::new(),
            actions: Vec::new(),
            classes,
            hits: Vec::new(),
            counted,
            candidates: Vec::new(),
            cursor: 0,
            random,
            current: None,
        })
    }

    /// The analysis every text goes through.
    pub fn analyzer(&self) -> &Analyzer {
        &self.analyzer
    }

    /// The pool document of id `id`.
    pub fn find(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    /// Whether pool document `i` was labelled or skipped.
    pub fn is_done(&self, i: usize) -> bool {
        self.done[i]
    }

    /// The record of a label `label` of pool document `i`.
    pub fn record(&self, i: usize, label: &str) -> Record {
        Record {
            id: self.pool.ids[i].clone(),
            label: label.to_string(),
            text: self.pool.texts[i].clone(),
        }
    }

    /// The document asked about now.
    pub fn current(&self) -> Option<usize> {
        self.current
    }

    /// The last action, which [`undo`](Session::undo) takes back.
    pub fn last_action(&self) -> Option<Action> {
        self.actions.last().copied()
    }

    /// Learns a label (after the model guessed it, for the prequential record), marks its
    /// document done when it is in the pool, and adds its class.
    pub fn learn(&mut self, record: Record) -> Result<()> {
        let mut terms = Terms::new();
        self.analyzer.worker().analyze(&record.text, &mut terms);
        self.learn_terms(record, terms)?;
        self.actions.push(Action::Labelled);
        Ok(())
    }

    fn learn_terms(&mut self, record: Record, terms: Terms) -> Result<()> {
        let guess = self.learner.predict_terms(&terms);
        let labels = self.learner.labels();
        let hit = guess.map(|g| labels[g as usize] == record.label);
        let class = self.learner.class_of(&record.label);
        self.learner.learn_terms(&terms, class)?;
        if let Some(counted) = &mut self.counted {
            counted.learned(&terms, &self.learner);
        }
        self.hits.push(hit);
        push_new(&mut self.classes, &record.label);
        if let Some(i) = self.find(&record.id) {
            self.done[i] = true;
        }
        self.records.push((record, terms));
        Ok(())
    }

    /// Skips pool document `i`.
    pub fn skip(&mut self, i: usize) {
        self.skipped_before(i);
        self.actions.push(Action::Skipped(i));
    }

    /// Marks pool document `i` as skipped before this run, which cannot be undone.
    pub fn skipped_before(&mut self, i: usize) {
        self.done[i] = true;
        self.skipped += 1;
    }

    /// Takes the last action back: a skip's document is asked again, a label's is forgotten
    /// by relearning every other label from a fresh model.
    pub fn undo(&mut self) -> Result<Option<Action>> {
        let Some(action) = self.actions.pop() else {
            return Ok(None);
        };
        match action {
            Action::Skipped(i) => {
                self.done[i] = false;
                self.skipped -= 1;
            }
            Action::Labelled => {
                if let Some((record, _)) = self.records.pop() {
                    if let Some(i) = self.find(&record.id) {
                        self.done[i] = false;
                    }
                }
                self.learner = (self.fresh)()?;
                if let Some(counted) = &mut self.counted {
                    counted.refresh(&self.learner);
                }
                self.hits.clear();
                for (record, terms) in std::mem::take(&mut self.records) {
                    self.learn_terms(record, terms)?;
                }
            }
        }
        self.candidates.clear();
        Ok(Some(action))
    }

    /// Chooses the document to ask about next, as the module documentation says.
    pub fn pick(&mut self) {
        self.current = match self.exploring() {
            true => {
                let done = &self.done;
                self.random.iter().copied().find(|&i| !done[i])
            }
            false => self.most_informative(),
        };
    }

    /// Whether a class has no label yet, or the model knows fewer than two.
    fn exploring(&self) -> bool {
        let known = self.learner.labels();
        known.len() < 2 || self.classes.iter().any(|c| !known.contains(c))
    }

    fn most_informative(&mut self) -> Option<usize> {
        let mut refresh: Vec<usize> = std::mem::take(&mut self.candidates);
        let n = self.pool.ids.len();
        let mut looked = 0;
        while looked < n && refresh.len() < CANDIDATES + SLICE {
            let i = self.cursor;
            self.cursor = (self.cursor + 1) % n;
            looked += 1;
            refresh.push(i);
        }
        refresh.sort_unstable();
        refresh.dedup();
        refresh.retain(|&i| !self.done[i]);
        let mut scored = self.uncertainties(refresh);
        scored.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.truncate(CANDIDATES);
        self.candidates = scored.iter().map(|&(_, i)| i).collect();
        self.candidates.first().copied()
    }

    /// Each of pool documents `documents` with its uncertainty, in the same order.
    fn uncertainties(&mut self, documents: Vec<usize>) -> Vec<(f64, usize)> {
        match &self.counted {
            // Counted documents are scored on every core: the model is only read.
            Some(counted) => {
                let table = self.learner.weigh_table();
                (documents.par_iter())
                    .map_init(Scratch::default, |scratch, &i| {
                        counted.count(i, scratch);
                        let (row, out) = (&mut scratch.counted, &mut scratch.probabilities);
                        self.learner.probabilities_counted(&table, row, out);
                        (Strategy::Uncertainty.score(out), i)
                    })
                    .collect()
            }
            None => {
                let mut probabilities = Vec::new();
                let mut scored = Vec::with_capacity(documents.len());
                for i in documents {
                    let terms = &self.pool.terms[i];
                    self.learner.probabilities_terms(terms, &mut probabilities);
                    scored.push((Strategy::Uncertainty.score(&probabilities), i));
                }
                scored
            }
        }
    }

    /// The model's class probabilities of pool document `i`.
    fn probabilities(&mut self, i: usize) -> Vec<f64> {
        let mut scratch = Scratch::default();
        match &self.counted {
            Some(counted) => {
                counted.count(i, &mut scratch);
                let (row, out) = (&mut scratch.counted, &mut scratch.probabilities);
                let table = self.learner.weigh_table();
                self.learner.probabilities_counted(&table, row, out);
            }
            None => {
                (self.learner).probabilities_terms(&self.pool.terms[i], &mut scratch.probabilities)
            }
        }
        scratch.probabilities
    }

    /// What the page shows now.
    pub fn view(&mut self) -> Result<View> {
        let document = match self.current {
            Some(i) => Some(self.asked(i)?),
            None => None,
        };
        let mut counts: Vec<(String, usize)> =
            self.classes.iter().map(|c| (c.clone(), 0)).collect();
        for (record, _) in &self.records {
            if let Some(slot) = counts.iter_mut().find(|(c, _)| *c == record.label) {
                slot.1 += 1;
            }
        }
        let guessed: Vec<bool> = self.hits.iter().filter_map(|&h| h).collect();
        let curve = (1..=guessed.len())
            .map(|end| share(&guessed[end.saturating_sub(RECENT)..end]))
            .collect::<Vec<f64>>();
        Ok(View {
            document,
            classes: counts,
            labelled: self.records.len(),
            skipped: self.skipped,
            remaining: self.done.iter().filter(|&&d| !d).count(),
            accuracy: (!guessed.is_empty()).then(|| share(&guessed)),
            recent: curve.last().copied(),
            curve,
        })
    }

    /// Pool document `i` with the model's guess and the terms that drove it.
    fn asked(&mut self, i: usize) -> Result<Asked> {
        let probabilities = self.probabilities(i);
        let text = &self.pool.texts[i];
        let best = (0..probabilities.len()).max_by(|&a, &b| {
            probabilities[a]
                .total_cmp(&probabilities[b])
                .then(b.cmp(&a))
        });
        let Some(best) = best else {
            return Ok(Asked {
                id: self.pool.ids[i].clone(),
                pieces: vec![(text.clone(), 0.0)],
                guess: None,
                probability: 0.0,
            });
        };
        let classifier = TextClassifier::from_model(self.learner.to_model()?)?;
        let explanation =
            classifier.explanation(&classifier.vectorize(text), best, EXPLAINED_TERMS);
        let drivers: HashMap<String, f64> = (explanation.terms.into_iter())
            .filter(|t| t.contribution > 0.0)
            .map(|t| (t.term, t.contribution))
            .collect();
        Ok(Asked {
            id: self.pool.ids[i].clone(),
            pieces: highlighted(&self.analyzer, text, &drivers),
            guess: Some(self.learner.labels()[best].clone()),
            probability: probabilities[best],
        })
    }
}

/// `text` cut into pieces, each word that analyzes to one of `drivers` a piece of its own with
/// that term's weight; the text between them in pieces of weight 0.
fn highlighted(
    analyzer: &Analyzer,
    text: &str,
    drivers: &HashMap<String, f64>,
) -> Vec<(String, f64)> {
    let mut pieces: Vec<(String, f64)> = Vec::new();
    let mut worker = analyzer.worker();
    let mut terms = Terms::new();
    for word in text.split_word_bounds() {
        terms.clear();
        worker.analyze(word, &mut terms);
        let weight = terms.iter().find_map(|t| drivers.get(t).copied());
        match (weight, pieces.last_mut()) {
            (None, Some((plain, w))) if *w == 0.0 => plain.push_str(word),
            (weight, _) => pieces.push((word.to_string(), weight.unwrap_or(0.0))),
        }
    }
    pieces
}

/// The share of true values.
fn share(hits: &[bool]) -> f64 {
    hits.iter().filter(|&&h| h).count() as f64 / hits.len().max(1) as f64
}

/// Adds `class` to `classes` unless it is there.
fn push_new(classes: &mut Vec<String>, class: &str) {
    if !classes.iter().any(|c| c == class) {
        classes.push(class.to_string());
    }
}
