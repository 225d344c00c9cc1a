//! Tuning: the configuration with the best cross-validated accuracy on the training corpus,
//! found by successive halving within a time budget.
//!
//! A configuration is an analysis (stop words, stemming, word or character n-grams), a
//! vectorizer (min-df, tf, idf) and the classifier's parameter (alpha, C or k). Each analysis is
//! counted once over the documents held in memory; each fold of each analysis fits its
//! vocabulary and idf on its training rows alone, as `cv` does. Configurations that differ only in
//! the classifier's parameter share their fold matrices, and configurations run in parallel.
//!
//! Successive halving (Jamieson and Talwalkar 2016; scikit-learn's `HalvingGridSearchCV`) first
//! cross-validates every configuration on a 27th of the documents (a stratified sample: each
//! fold's training and held-out rows alike), keeps the best third, gives those a ninth, keeps
//! the best third again, and so on up to all of the documents.
//! Before each round the time it will take is predicted from the round before (its time per
//! configuration, scaled by the share of rows); when the prediction does not fit in what is left
//! of the budget, the search stops and the best configuration of the last round wins. No test
//! data is read: only the corpus given.

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::{Builder, Labelled, Reading, TextClassifier};
use crate::analyze::{Analyzer, AnalyzerConfig, Language, StopWords};
use crate::corpus::{load_pending, Document, Entry};
use crate::error::{Error, Result};
use crate::eval::{dev_split, evaluate, folds};
use crate::flow::Source;
use crate::model::{Kind, Params, Tuned};
use crate::vectorize::{fit_part, weigh_part, DfBound, Idf, Tf, VectorizerConfig, Weighting};

/// How long and how widely to search.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneOptions {
    /// Cross-validation folds, at least 2.
    pub folds: usize,
    /// Seed of the folds, the subsamples and the sample of the grid.
    pub seed: u64,
    /// Seconds the search may take; it stops at the end of the last round that fits.
    pub budget: f64,
    /// Configurations at most, sampled from the grid with `seed`; `None` for the whole grid.
    pub max_trials: Option<usize>,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            folds: 3,
            seed: 1,
            budget: 60.0,
            max_trials: None,
        }
    }
}

/// One configuration of the grid.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Setting {
    /// Position of its analysis in the grid's list of analyses.
    #[serde(skip)]
    analysis: usize,
    /// The flags of `bowline train` that give it.
    pub flags: String,
    #[serde(skip)]
    vectorizer: VectorizerConfig,
    #[serde(skip)]
    params: Params,
}

/// A configuration's mean accuracy over the folds of a share of the documents.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trial {
    /// The round, from 1.
    pub round: usize,
    /// The share of the documents it was cross-validated on.
    pub share: f64,
    /// The configuration.
    pub setting: Setting,
    /// Mean accuracy on the held-out folds.
    pub accuracy: f64,
}

/// What a search found.
#[derive(Debug)]
pub struct TuneOutcome {
    /// The winning configuration's model, trained on the whole corpus.
    pub model: TextClassifier,
    /// Every trial, round by round, best first within a round.
    pub trials: Vec<Trial>,
    /// Each round's share of the documents, trials and seconds.
    pub rounds: Vec<RoundTime>,
    /// Why the search ended: all rounds done, or the budget.
    pub stopped_by_budget: bool,
}

/// What one round of the search took.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RoundTime {
    /// The share of the documents it cross-validated on.
    pub share: f64,
    /// Its configurations.
    pub trials: usize,
    /// Its wall-clock seconds.
    pub seconds: f64,
}

impl RoundTime {
    fn per_trial(&self) -> f64 {
        self.seconds / self.trials.max(1) as f64
    }
}

/// The predicted seconds of one trial at `share`, from the rounds so far. A trial costs a fixed
/// part (fitting each fold's vocabulary and weighing its rows) and a part that grows faster than
/// the rows (an SVM makes more passes over more rows, and the configurations that survive are
/// the ones that train longest): `a + b * share²`, fitted to the last two rounds. After one
/// round, whose small share is mostly the fixed part, time is taken to grow with the share.
fn per_trial(rounds: &[RoundTime], share: f64) -> f64 {
    match rounds {
        [] => 0.0,
        [only] => only.per_trial() * share / only.share,
        [.., before, last] => {
            let (s1, s2) = (before.share.powi(2), last.share.powi(2));
            let b = ((last.per_trial() - before.per_trial()) / (s2 - s1)).max(0.0);
            let a = (last.per_trial() - b * s2).max(0.0);
            a + b * share.powi(2)
        }
    }
}

/// Keep the best third of each round, and give the survivors three times the rows.
const ETA: usize = 3;
/// Rounds at most: the first runs on a 27th of the documents.
const ROUNDS: usize = 4;
/// The final training on all the documents (reading, counting, training), in trials at share 1.
const FINAL_FIT: f64 = 2.0;

impl Builder {
    /// Searches the grid of this builder's kind on the labelled documents of `source` (see the
    /// module's documentation), calling `on_trial` after each trial with the trials done and
    /// planned, then trains the winner on the whole corpus.
    pub fn tune(
        &self,
        source: Source,
        reading: &mut Reading,
        options: &TuneOptions,
        on_trial: impl Fn(usize, usize) + Sync,
    ) -> Result<TuneOutcome> {
        let started = Instant::now();
        if options.folds < 2 || options.budget.is_nan() || options.budget <= 0.0 {
            return Err(Error::Config(
                "--tune-folds must be at least 2 and --tune-budget above 0".into(),
            ));
        }
        let name = source.name.clone();
        let documents = load_all(source, reading)?;
        let kind = self.kind();
        let analyses = analyses(&self.analysis);
        let mut settings = grid(kind, &analyses);
        sample(&mut settings, options.max_trials, options.seed);
        let corpora = analyses
            .iter()
            .map(|analysis| count(&documents, analysis, &name, reading))
            .collect::<Result<Vec<_>>>()?;
        let fold_of = folds(
            &corpora[0].corpus.ids,
            &corpora[0].classes,
            options.folds,
            options.seed,
        )?;
        let planned = planned_trials(settings.len());
        let done = std::sync::atomic::AtomicUsize::new(0);
        let mut trials = Vec::new();
        let (mut survivors, mut stopped_by_budget) = (settings, false);
        let mut rounds: Vec<RoundTime> = Vec::new();
        for round in 0..ROUNDS {
            let share = 1.0 / (ETA.pow((ROUNDS - 1 - round) as u32)) as f64;
            if !rounds.is_empty() {
                // The round, then the final model on all the documents.
                let predicted = per_trial(&rounds, share) * survivors.len() as f64
                    + per_trial(&rounds, 1.0) * FINAL_FIT;
                if started.elapsed().as_secs_f64() + predicted > options.budget {
                    stopped_by_budget = true;
                    break;
                }
            }
            let round_started = Instant::now();
            let context = Round {
                corpora: &corpora,
                fold_of: &fold_of,
                folds: options.folds,
                share,
                seed: options.seed,
                kind,
            };
            let mut scored = context.run(&survivors, &|| {
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                on_trial(n, planned);
            })?;
            scored.sort_by(|a, b| b.accuracy.total_cmp(&a.accuracy));
            rounds.push(RoundTime {
                share,
                trials: survivors.len(),
                seconds: round_started.elapsed().as_secs_f64(),
            });
            let keep = survivors.len().div_ceil(ETA).max(1);
            survivors = scored
                .iter()
                .take(keep)
                .map(|t| t.setting.clone())
                .collect();
            trials.extend(scored.into_iter().map(|mut t| {
                t.round = round + 1;
                t
            }));
        }
        let last = trials.last().map_or(0, |t| t.round);
        let best = trials
            .iter()
            .filter(|t| t.round == last)
            .max_by(|a, b| a.accuracy.total_cmp(&b.accuracy))
            .ok_or_else(|| Error::Config("the tuning budget allowed no trial".into()))?
            .clone();
        let winner = Builder {
            analysis: analyses[best.setting.analysis].clone(),
            vectorizer: best.setting.vectorizer.clone(),
            trainer: kind.trainer(&best.setting.params, best.setting.vectorizer.weighting)?,
        };
        let pairs = Source::labelled(
            documents
                .into_iter()
                .map(|d| (d.label.unwrap_or_default(), d.text)),
        );
        let mut fitted = winner.fit_source(
            Source { name, ..pairs },
            &mut Reading::new(reading.pipeline.clone()),
        )?;
        fitted.classifier.model.info.tuned = Some(Tuned {
            flags: best.setting.flags.clone(),
            accuracy: best.accuracy,
            trials: trials.len() as u32,
            folds: options.folds as u32,
            seconds: started.elapsed().as_secs_f64(),
        });
        Ok(TuneOutcome {
            model: fitted.classifier,
            trials,
            rounds,
            stopped_by_budget,
        })
    }
}

/// Trials planned for `settings` configurations over every round.
fn planned_trials(settings: usize) -> usize {
    let mut n = settings;
    let mut total = 0;
    for _ in 0..ROUNDS {
        total += n;
        n = n.div_ceil(ETA).max(1);
    }
    total
}

/// Reads every document of `source` into memory, telling `reading` of each entry once; every
/// document needs a label.
fn load_all(source: Source, reading: &mut Reading) -> Result<Vec<Document>> {
    let (name, limit) = (source.name.clone(), source.max_doc_bytes);
    let mut documents = Vec::new();
    for mut entry in source.entries {
        load_pending(&mut entry, limit);
        reading.note(&entry);
        if entry.is_document() {
            if entry.doc.label.is_none() {
                return Err(Error::input(
                    &name,
                    "tuning needs a label on every document",
                ));
            }
            documents.push(entry.doc);
        }
    }
    Ok(documents)
}

/// The documents counted over every term of `analysis`.
fn count(
    documents: &[Document],
    analysis: &AnalyzerConfig,
    name: &std::path::Path,
    reading: &Reading,
) -> Result<Labelled> {
    let entries: Vec<Entry> = documents
        .iter()
        .map(|d| Entry::loaded(d.clone(), d.text.len() as u64))
        .collect();
    let source = Source {
        name: name.to_path_buf(),
        entries: Box::new(entries.into_iter()),
        classes: Vec::new(),
        max_doc_bytes: u64::MAX,
    };
    let analyzer = Analyzer::new(analysis.clone())?;
    let mut quiet = Reading::new(reading.pipeline.clone());
    Labelled::read(source, "tuning", &analyzer, &mut quiet)
}

/// The analyses searched: stop words or not, stemming or not, words or word pairs, and
/// character n-grams of 2 to 5 characters, each on top of `base` (token lengths, case).
fn analyses(base: &AnalyzerConfig) -> Vec<AnalyzerConfig> {
    let mut out = Vec::new();
    for stop in [StopWords::None, StopWords::Builtin(Language::English)] {
        for stemmer in [None, Some(Language::English)] {
            for ngram_max in [1, 2] {
                out.push(AnalyzerConfig {
                    stop_words: stop.clone(),
                    stemmer,
                    ngram_min: 1,
                    ngram_max,
                    char_ngrams: None,
                    words: true,
                    ..base.clone()
                });
            }
        }
    }
    out.push(AnalyzerConfig {
        char_ngrams: Some((2, 5)),
        words: false,
        ngram_min: 1,
        ngram_max: 1,
        ..base.clone()
    });
    out
}

/// Every configuration of `kind` over `analyses`.
fn grid(kind: Kind, analyses: &[AnalyzerConfig]) -> Vec<Setting> {
    let weightings = [
        (Tf::Sublinear, Idf::Smooth),
        (Tf::Count, Idf::Smooth),
        (Tf::Sublinear, Idf::None),
    ];
    let mut out = Vec::new();
    for (a, analysis) in analyses.iter().enumerate() {
        for min_df in [1, 2] {
            for (tf, idf) in weightings {
                let vectorizer = VectorizerConfig {
                    min_df: DfBound::Count(min_df),
                    weighting: Weighting {
                        tf,
                        idf,
                        ..Weighting::default()
                    },
                    ..kind.default_vectorizer()
                };
                for (params, flag) in parameters(kind) {
                    let flags = flags(analysis, &vectorizer, &flag);
                    out.push(Setting {
                        analysis: a,
                        flags,
                        vectorizer: vectorizer.clone(),
                        params,
                    });
                }
            }
        }
    }
    out
}

/// The classifier parameter's values for `kind`, with the flag that sets each.
fn parameters(kind: Kind) -> Vec<(Params, String)> {
    let defaults = Params::default();
    match kind {
        Kind::Svm => [0.1, 0.3, 1.0, 3.0, 10.0]
            .map(|c| {
                let svm = crate::model::SvmParams { c, ..defaults.svm };
                (
                    Params {
                        svm,
                        ..defaults.clone()
                    },
                    format!("--c {c}"),
                )
            })
            .to_vec(),
        Kind::Knn => [5, 10, 30, 50]
            .map(|k| {
                let knn = crate::model::KnnParams { k, ..defaults.knn };
                (
                    Params {
                        knn,
                        ..defaults.clone()
                    },
                    format!("--k {k}"),
                )
            })
            .to_vec(),
        _ => [0.01, 0.03, 0.1, 0.3, 1.0]
            .map(|alpha| {
                let params = Params {
                    alpha: Some(alpha),
                    ..defaults.clone()
                };
                (params, format!("--alpha {alpha}"))
            })
            .to_vec(),
    }
}

/// The flags of `bowline train` for an analysis, a vectorizer and a parameter's flag.
fn flags(analysis: &AnalyzerConfig, vectorizer: &VectorizerConfig, parameter: &str) -> String {
    let language =
        |l: Option<Language>| l.map_or("none".to_string(), |l| format!("{l:?}").to_lowercase());
    let stop = match &analysis.stop_words {
        StopWords::Builtin(l) => language(Some(*l)),
        _ => "none".into(),
    };
    let words = match analysis.char_ngrams {
        Some((min, max)) => format!("--char-ngrams {min}..{max}"),
        None => format!(
            "--stop-words {stop} --stem {} --ngrams {}..{}",
            language(analysis.stemmer),
            analysis.ngram_min,
            analysis.ngram_max
        ),
    };
    let DfBound::Count(min_df) = vectorizer.min_df else {
        return String::new();
    };
    let w = vectorizer.weighting;
    format!(
        "{words} --min-df {min_df} --tf {} --idf {} {parameter}",
        flag_value(&w.tf),
        flag_value(&w.idf)
    )
}

/// A value's name as a flag takes it: its serde name.
fn flag_value(value: &impl Serialize) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// Keeps `max` configurations at most, a sample chosen with `seed`.
fn sample(settings: &mut Vec<Setting>, max: Option<usize>, seed: u64) {
    let Some(max) = max.filter(|&m| m < settings.len()) else {
        return;
    };
    let mut order: Vec<usize> = (0..settings.len()).collect();
    crate::model::random::SplitMix(seed).shuffle(&mut order);
    let mut keep: Vec<usize> = order.into_iter().take(max.max(1)).collect();
    keep.sort_unstable();
    let all = std::mem::take(settings);
    let mut keep = keep.into_iter().peekable();
    for (i, setting) in all.into_iter().enumerate() {
        if keep.peek() == Some(&i) {
            keep.next();
            settings.push(setting);
        }
    }
}

/// What one round of the search shares between its configurations.
struct Round<'a> {
    corpora: &'a [Labelled],
    fold_of: &'a [usize],
    folds: usize,
    share: f64,
    seed: u64,
    kind: Kind,
}

impl Round<'_> {
    /// Every configuration's trial, in parallel: configurations with the same analysis and
    /// vectorizer share their fold matrices.
    fn run(&self, settings: &[Setting], done: &(dyn Fn() + Sync)) -> Result<Vec<Trial>> {
        let mut groups: Vec<Vec<&Setting>> = Vec::new();
        for setting in settings {
            let same = |g: &Vec<&Setting>| {
                g[0].analysis == setting.analysis && g[0].vectorizer == setting.vectorizer
            };
            match groups.iter_mut().find(|g| same(g)) {
                Some(group) => group.push(setting),
                None => groups.push(vec![setting]),
            }
        }
        let scored: Vec<Vec<Trial>> = groups
            .par_iter()
            .map(|group| self.group(group, done))
            .collect::<Result<_>>()?;
        Ok(scored.into_iter().flatten().collect())
    }

    /// The trials of configurations that differ only in the classifier's parameter.
    fn group(&self, group: &[&Setting], done: &(dyn Fn() + Sync)) -> Result<Vec<Trial>> {
        let labelled = &self.corpora[group[0].analysis];
        let corpus = &labelled.corpus;
        let vectorizer = &group[0].vectorizer;
        let mut totals = vec![0.0; group.len()];
        for fold in 0..self.folds {
            let (held, kept): (Vec<usize>, Vec<usize>) =
                (0..self.fold_of.len()).partition(|&i| self.fold_of[i] == fold);
            let (held, kept) = (
                self.subsample(labelled, held)?,
                self.subsample(labelled, kept)?,
            );
            let part = fit_part(corpus, &kept, vectorizer)?;
            let test = weigh_part(corpus, &part, &held)?;
            let (truth, train_truth) = (labelled.classes_of(&held), labelled.classes_of(&kept));
            let mut train = None;
            for (setting, total) in group.iter().zip(&mut totals) {
                let trainer = self.kind.trainer(&setting.params, vectorizer.weighting)?;
                let x = match &train {
                    Some(x) => x,
                    None => train.insert(trainer.rows(corpus, &part, &kept)?),
                };
                let classifier = trainer.fit(x, &train_truth, corpus.classes.len())?;
                *total += evaluate(&classifier, &corpus.classes, &test, &truth).accuracy;
            }
        }
        Ok(group
            .iter()
            .zip(totals)
            .map(|(setting, total)| {
                done();
                Trial {
                    round: 0,
                    share: self.share,
                    setting: (*setting).clone(),
                    accuracy: total / self.folds as f64,
                }
            })
            .collect())
    }

    /// `self.share` of `rows`, stratified by class (all of them at share 1).
    fn subsample(&self, labelled: &Labelled, rows: Vec<usize>) -> Result<Vec<usize>> {
        if self.share >= 1.0 {
            return Ok(rows);
        }
        let ids: Vec<String> = rows
            .iter()
            .map(|&i| labelled.corpus.ids[i].clone())
            .collect();
        let dropped = dev_split(
            &ids,
            &labelled.classes_of(&rows),
            1.0 - self.share,
            self.seed,
        )?;
        Ok(rows
            .into_iter()
            .zip(dropped)
            .filter_map(|(row, drop)| (!drop).then_some(row))
            .collect())
    }
}
