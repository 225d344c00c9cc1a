//! Tuning: the configuration with the best cross-validated accuracy on the training corpus,
//! found by successive halving within a time budget.
//!
//! A configuration is an analysis (stop words, stemming, word or character n-grams), a
//! vectorizer (min-df, tf, idf) and the classifier's parameter (alpha, C or k; for an exact
//! kernel SVM, the kernel, γ and C). The documents are held in memory; each round counts the
//! ones it samples once for each analysis it tries, and each fold of each analysis fits its
//! vocabulary and idf on its training rows alone, as `cv` does. Configurations that differ only
//! in the classifier's parameter share their fold matrices, and configurations run in parallel.
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
use crate::eval::{correct, dev_split, enough_documents, folds};
use crate::flow::{distinct_labels, Source};
use crate::model::{Trainer, Tuned};
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
    trainer: Trainer,
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
    /// Whether each held-out row, fold after fold, was classified right: the rows are the same
    /// for every trial of a round, so two configurations can be compared row by row.
    #[serde(skip)]
    correct: Vec<bool>,
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
    /// The configuration the search started from, that of the builder (the defaults, or the
    /// flags given), with its accuracy in the last round.
    pub incumbent: Trial,
}

impl TuneOutcome {
    /// Whether the best trial of the last round was another configuration, not better than the
    /// incumbent by [`SIGNIFICANT`] standard errors, so the incumbent was kept: what the model's
    /// tuning record says.
    pub(crate) fn kept_incumbent(&self) -> bool {
        let tuned = self.model.model().info.tuned.as_ref();
        tuned.is_some_and(|t| t.best_not_taken.is_some())
    }
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
/// How many standard errors of the paired difference in held-out correctness the best
/// configuration must gain over the incumbent to replace it: McNemar's test at the 5% level
/// (Dietterich 1998). The best of hundreds of configurations beats the incumbent on the folds by
/// chance alone, most of all on small corpora; the defaults were chosen to hold across corpora
/// and stay unless the evidence against them is clear. In nested cross-validation of the five
/// corpora's training data (`benches/tune_rule.py`), the SVM this rule chose held out 0.9076 on
/// average, the best trial 0.9049: taking the best lost 1.1 points on imdb's short sentences.
pub(crate) const SIGNIFICANT: f64 = 1.96;

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
        self.check_tunable(options)?;
        let held = Held::load(source, reading, options)?;
        let mut analyses = analyses(&self.analysis);
        let mut settings = grid(&self.trainer, &analyses)?;
        let incumbent = self.incumbent(&mut analyses, &mut settings);
        sample(&mut settings, options.max_trials, options.seed, &incumbent);
        let search = Search {
            held: &held,
            analyses: &analyses,
            incumbent: &incumbent,
            budget: options.budget,
            started,
        };
        let (trials, rounds, stopped_by_budget) = search.rounds(settings, reading, &on_trial)?;
        let (best, incumbent, best_not_taken) = choose(&trials, &incumbent)?;
        let winner = Builder {
            analysis: analyses[best.setting.analysis].clone(),
            vectorizer: best.setting.vectorizer.clone(),
            trainer: best.setting.trainer.clone(),
        };
        let mut model = winner.fit_held(held, reading)?;
        model.model.info.tuned = Some(Tuned {
            flags: best.setting.flags.clone(),
            accuracy: best.accuracy,
            trials: trials.len() as u32,
            folds: options.folds as u32,
            seconds: started.elapsed().as_secs_f64(),
            best_not_taken,
        });
        Ok(TuneOutcome {
            model,
            trials,
            rounds,
            stopped_by_budget,
            incumbent,
        })
    }

    /// Refuses a search this builder or these options cannot make.
    fn check_tunable(&self, options: &TuneOptions) -> Result<()> {
        if self.vectorizer.hashing.is_some() {
            // Its trials vary the analysis and min-df over one vocabulary counted once.
            return Err(Error::Config(
                "--tune cannot be used with --hash-bits: tuning searches settings over a \
                 vocabulary; tune without hashing, then train with --hash-bits"
                    .into(),
            ));
        }
        if self.trainer.approximated().is_some() {
            return Err(Error::Config(
                "--tune cannot be used with --approx: tuning does not choose an approximation, \
                 gamma or C yet; train with --approx, --components, --c and --gamma"
                    .into(),
            ));
        }
        if options.folds < 2 || options.budget.is_nan() || options.budget <= 0.0 {
            return Err(Error::Config(
                "--tune-folds must be at least 2 and --tune-budget above 0".into(),
            ));
        }
        Ok(())
    }

    /// The chosen configuration trained on every document the search held.
    fn fit_held(self, held: Held, reading: &Reading) -> Result<TextClassifier> {
        let pairs = Source::labelled(
            held.documents
                .into_iter()
                .map(|d| (d.label.unwrap_or_default(), d.text)),
        );
        let source = Source {
            name: held.name,
            ..pairs
        };
        let fitted = self.fit_source(source, &mut Reading::new(reading.pipeline.clone()))?;
        Ok(fitted.classifier)
    }

    /// This builder's own configuration as a setting of the search, added to `settings` (and
    /// its analysis to `analyses`) unless the grid already holds it.
    fn incumbent(
        &self,
        analyses: &mut Vec<AnalyzerConfig>,
        settings: &mut Vec<Setting>,
    ) -> Setting {
        let analysis = match analyses.iter().position(|a| *a == self.analysis) {
            Some(a) => a,
            None => {
                analyses.push(self.analysis.clone());
                analyses.len() - 1
            }
        };
        let setting = Setting {
            analysis,
            flags: flags(
                &self.analysis,
                &self.vectorizer,
                &self.trainer.parameter_flag(),
            ),
            vectorizer: self.vectorizer.clone(),
            trainer: self.trainer.clone(),
        };
        if !settings.contains(&setting) {
            settings.push(setting.clone());
        }
        setting
    }
}

/// The winner of the last round of `trials`: its best trial, unless that is not significantly
/// better than the incumbent's (see [`SIGNIFICANT`]), then the incumbent's. Returns the winner,
/// the incumbent's trial and, when the incumbent was kept over a better trial, that trial's
/// accuracy.
fn choose(trials: &[Trial], incumbent: &Setting) -> Result<(Trial, Trial, Option<f64>)> {
    let last = trials.last().map_or(0, |t| t.round);
    let round = || trials.iter().filter(|t| t.round == last);
    let best = round()
        .max_by(|a, b| a.accuracy.total_cmp(&b.accuracy))
        .ok_or_else(|| Error::Config("the tuning budget allowed no trial".into()))?;
    let held = round()
        .find(|t| t.setting == *incumbent)
        .ok_or_else(|| Error::Config("the starting configuration was not tried".into()))?;
    if gain_in_standard_errors(&best.correct, &held.correct) > SIGNIFICANT {
        Ok((best.clone(), held.clone(), None))
    } else {
        let not_taken = (best.setting != *incumbent).then_some(best.accuracy);
        Ok((held.clone(), held.clone(), not_taken))
    }
}

/// The mean gain in correctness of `a` over `b` on the same rows, in standard errors of the
/// paired differences (0 when they never differ).
fn gain_in_standard_errors(a: &[bool], b: &[bool]) -> f64 {
    let n = a.len().min(b.len()) as f64;
    let differences = a.iter().zip(b).map(|(&x, &y)| f64::from(x) - f64::from(y));
    let (sum, squares) = differences.fold((0.0, 0.0), |(s, q), d| (s + d, q + d * d));
    if n < 2.0 {
        return 0.0;
    }
    let mean = sum / n;
    let variance = (squares - n * mean * mean) / (n - 1.0);
    if variance <= 0.0 {
        return if mean > 0.0 { f64::INFINITY } else { 0.0 };
    }
    mean / (variance / n).sqrt()
}

/// Trials planned for `settings` configurations over every round, at most: a round after the
/// first has one more when the incumbent is not among the best.
fn planned_trials(settings: usize) -> usize {
    let mut n = settings;
    let mut total = 0;
    for _ in 0..ROUNDS {
        total += n;
        n = (n.div_ceil(ETA) + 1).min(n);
    }
    total
}

/// The labelled documents of a search, held in memory, with the folds every round cuts them by.
struct Held {
    name: std::path::PathBuf,
    documents: Vec<Document>,
    /// The class names: the distinct labels in byte order, as counting a corpus gives them.
    class_names: Vec<String>,
    /// Each document's position in `class_names`.
    classes: Vec<u32>,
    /// Each document's fold, in `0..folds`.
    fold_of: Vec<usize>,
    folds: usize,
    seed: u64,
}

impl Held {
    /// Reads every document of `source` into memory, telling `reading` of each entry once; every
    /// document needs a label, and there must be a document for each fold.
    fn load(source: Source, reading: &mut Reading, options: &TuneOptions) -> Result<Self> {
        let (name, limit) = (source.name.clone(), source.max_doc_bytes);
        let mut documents = Vec::new();
        for mut entry in source.entries {
            load_pending(&mut entry, limit);
            reading.note(&entry);
            if entry.is_document() {
                if entry.doc.label.is_none() {
                    let message = "tuning needs a label on every document";
                    return Err(Error::input(&name, message));
                }
                documents.push(entry.doc);
            }
        }
        enough_documents(&name, "tuning", options.folds, documents.len())?;
        let class_names = distinct_labels(documents.iter().filter_map(|d| d.label.as_ref()));
        let position = |d: &Document| {
            let label = d.label.as_deref().unwrap_or_default();
            class_names.binary_search_by(|c| c.as_str().cmp(label))
        };
        let classes: Vec<u32> = documents
            .iter()
            .map(|d| position(d).unwrap_or_default() as u32)
            .collect();
        let ids: Vec<String> = documents.iter().map(|d| d.id.clone()).collect();
        let fold_of = folds(&ids, &classes, options.folds, options.seed)?;
        Ok(Held {
            name,
            documents,
            class_names,
            classes,
            fold_of,
            folds: options.folds,
            seed: options.seed,
        })
    }

    /// `share` of `rows`, stratified by class (all of them at share 1).
    fn subsample(&self, rows: Vec<usize>, share: f64) -> Result<Vec<usize>> {
        if share >= 1.0 {
            return Ok(rows);
        }
        let ids: Vec<String> = rows.iter().map(|&i| self.documents[i].id.clone()).collect();
        let classes: Vec<u32> = rows.iter().map(|&i| self.classes[i]).collect();
        let dropped = dev_split(&ids, &classes, 1.0 - share, self.seed)?;
        Ok(rows
            .into_iter()
            .zip(dropped)
            .filter_map(|(row, drop)| (!drop).then_some(row))
            .collect())
    }

    /// The documents `rows` counted over every term of `analysis`, in that order.
    fn count(
        &self,
        rows: &[usize],
        analysis: &AnalyzerConfig,
        reading: &Reading,
    ) -> Result<Labelled> {
        let entries: Vec<Entry> = rows
            .iter()
            .map(|&i| &self.documents[i])
            .map(|d| Entry::loaded(d.clone(), d.text.len() as u64))
            .collect();
        let source = Source {
            name: self.name.clone(),
            entries: Box::new(entries.into_iter()),
            classes: self.class_names.clone(),
            max_doc_bytes: u64::MAX,
        };
        let analyzer = Analyzer::new(analysis.clone())?;
        let mut quiet = Reading::new(reading.pipeline.clone());
        Labelled::read(source, "tuning", &analyzer, None, &mut quiet)
    }
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

/// Every configuration of `trainer`'s kind over `analyses`, with the parameters tuning tries for
/// it (for an exact kernel SVM, the kernel, γ and C).
fn grid(trainer: &Trainer, analyses: &[AnalyzerConfig]) -> Result<Vec<Setting>> {
    let kind = trainer.kind();
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
                for params in trainer.tuning_grid() {
                    let trainer = kind.trainer(&params, vectorizer.weighting)?;
                    out.push(Setting {
                        analysis: a,
                        flags: flags(analysis, &vectorizer, &trainer.parameter_flag()),
                        vectorizer: vectorizer.clone(),
                        trainer,
                    });
                }
            }
        }
    }
    Ok(out)
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
    // The weight touches only word n-grams; settings without them do not need it.
    let grams = analysis.words && analysis.ngram_max > 1;
    let pairs = if grams && vectorizer.ngram_weight != 1.0 {
        format!(" --ngram-weight {}", vectorizer.ngram_weight)
    } else {
        String::new()
    };
    format!(
        "{words} --min-df {min_df} --tf {} --idf {}{pairs} {parameter}",
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

/// Keeps `max` configurations at most, `incumbent` and a sample of the others chosen with `seed`.
fn sample(settings: &mut Vec<Setting>, max: Option<usize>, seed: u64, incumbent: &Setting) {
    let Some(max) = max.filter(|&m| m < settings.len()) else {
        return;
    };
    let first = settings.iter().position(|s| s == incumbent);
    let mut order: Vec<usize> = (0..settings.len()).filter(|&i| Some(i) != first).collect();
    crate::model::random::SplitMix(seed).shuffle(&mut order);
    let others = order
        .into_iter()
        .take(max.max(1) - usize::from(first.is_some()));
    let mut keep: Vec<usize> = others.chain(first).collect();
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

/// What one round of the search shares between its configurations: the documents of its share,
/// counted once for each analysis its configurations use. Counting only those, round by round,
/// means that in the first round, where every analysis is tried, at most a ninth of the corpus
/// is counted for each of them instead of all of it.
struct Round {
    /// Each analysis's counts over the round's documents; `None` where no configuration of the
    /// round uses it.
    corpora: Vec<Option<Labelled>>,
    /// Each fold's held-out and training rows, as rows of the counts.
    parts: Vec<(Vec<usize>, Vec<usize>)>,
    share: f64,
}

impl Round {
    /// The round at `share` for `settings`: each fold's held-out and training documents are
    /// sampled apart, stratified by class, and the union of them all is counted.
    fn new(
        held: &Held,
        share: f64,
        analyses: &[AnalyzerConfig],
        settings: &[Setting],
        reading: &Reading,
    ) -> Result<Self> {
        let n = held.documents.len();
        let mut parts = Vec::with_capacity(held.folds);
        for fold in 0..held.folds {
            let (out, kept): (Vec<usize>, Vec<usize>) =
                (0..n).partition(|&i| held.fold_of[i] == fold);
            parts.push((held.subsample(out, share)?, held.subsample(kept, share)?));
        }
        let mut used = vec![false; n];
        for &i in parts.iter().flat_map(|(out, kept)| out.iter().chain(kept)) {
            used[i] = true;
        }
        let sample: Vec<usize> = (0..n).filter(|&i| used[i]).collect();
        let mut row = vec![0; n];
        for (r, &i) in sample.iter().enumerate() {
            row[i] = r;
        }
        let rows = |documents: Vec<usize>| documents.iter().map(|&i| row[i]).collect();
        let parts = parts
            .into_iter()
            .map(|(out, kept)| (rows(out), rows(kept)))
            .collect();
        let corpora = (0..analyses.len())
            .map(|a| match settings.iter().any(|s| s.analysis == a) {
                true => held.count(&sample, &analyses[a], reading).map(Some),
                false => Ok(None),
            })
            .collect::<Result<_>>()?;
        Ok(Round {
            corpora,
            parts,
            share,
        })
    }

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
        let Some(labelled) = &self.corpora[group[0].analysis] else {
            return Err(Error::Config(
                "an analysis of the round was not counted".into(),
            ));
        };
        let corpus = &labelled.corpus;
        let vectorizer = &group[0].vectorizer;
        let mut totals = vec![0.0; group.len()];
        let mut rows_right = vec![Vec::new(); group.len()];
        for (held, kept) in &self.parts {
            let part = fit_part(corpus, kept, vectorizer)?;
            let test = weigh_part(corpus, &part, held)?;
            let (truth, train_truth) = (labelled.classes_of(held), labelled.classes_of(kept));
            let mut train = None;
            for (i, setting) in group.iter().enumerate() {
                let trainer = &setting.trainer;
                let x = match &train {
                    Some(x) => x,
                    None => train.insert(trainer.rows(corpus, &part, kept)?),
                };
                let classifier = trainer.fit(x, &train_truth, corpus.classes.len())?;
                let right = correct(&classifier, &test, &truth);
                let hits = right.iter().filter(|&&r| r).count();
                totals[i] += hits as f64 / right.len().max(1) as f64;
                rows_right[i].extend(right);
            }
        }
        Ok(group
            .iter()
            .zip(totals)
            .zip(rows_right)
            .map(|((setting, total), correct)| {
                done();
                Trial {
                    round: 0,
                    share: self.share,
                    setting: (*setting).clone(),
                    accuracy: total / self.parts.len() as f64,
                    correct,
                }
            })
            .collect())
    }
}

/// A search under way: the documents it holds, the analyses its settings index, the starting
/// configuration that always survives a round, and the time it may take.
struct Search<'a> {
    held: &'a Held,
    analyses: &'a [AnalyzerConfig],
    incumbent: &'a Setting,
    budget: f64,
    started: Instant,
}

impl Search<'_> {
    /// Runs the rounds of successive halving over `settings`, each on a larger share of the
    /// documents, until the last round or until the budget would be overrun: the trials scored,
    /// each round's time, and whether the budget stopped the search.
    fn rounds(
        &self,
        settings: Vec<Setting>,
        reading: &Reading,
        on_trial: &(impl Fn(usize, usize) + Sync),
    ) -> Result<(Vec<Trial>, Vec<RoundTime>, bool)> {
        let planned = planned_trials(settings.len());
        let done = std::sync::atomic::AtomicUsize::new(0);
        let (mut trials, mut rounds) = (Vec::new(), Vec::<RoundTime>::new());
        let mut survivors = settings;
        for round in 0..ROUNDS {
            let share = 1.0 / (ETA.pow((ROUNDS - 1 - round) as u32)) as f64;
            if self.over_budget(&rounds, share, survivors.len()) {
                return Ok((trials, rounds, true));
            }
            let round_started = Instant::now();
            let context = Round::new(self.held, share, self.analyses, &survivors, reading)?;
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
            survivors = self.survivors(&scored, survivors.len());
            trials.extend(scored.into_iter().map(|mut t| {
                t.round = round + 1;
                t
            }));
        }
        Ok((trials, rounds, false))
    }

    /// Whether a round of `trials` trials on `share` of the documents, then the final model on
    /// all of them, would end past the budget, as the rounds done so far predict.
    fn over_budget(&self, rounds: &[RoundTime], share: f64, trials: usize) -> bool {
        if rounds.is_empty() {
            return false;
        }
        let predicted =
            per_trial(rounds, share) * trials as f64 + per_trial(rounds, 1.0) * FINAL_FIT;
        self.started.elapsed().as_secs_f64() + predicted > self.budget
    }

    /// The best of a round's `scored` trials (sorted best first) that go on to the next round,
    /// of `entered` that entered it, with the starting configuration among them.
    fn survivors(&self, scored: &[Trial], entered: usize) -> Vec<Setting> {
        let keep = entered.div_ceil(ETA).max(1);
        let mut survivors: Vec<Setting> = scored
            .iter()
            .take(keep)
            .map(|t| t.setting.clone())
            .collect();
        if !survivors.contains(self.incumbent) {
            survivors.push(self.incumbent.clone());
        }
        survivors
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Kind;

    fn mnb() -> Trainer {
        Kind::Mnb.default_trainer(Weighting::default())
    }

    fn trial(setting: &Setting, correct: &[bool]) -> Trial {
        let right = correct.iter().filter(|&&r| r).count();
        Trial {
            round: 2,
            share: 1.0,
            setting: setting.clone(),
            accuracy: right as f64 / correct.len() as f64,
            correct: correct.to_vec(),
        }
    }

    #[test]
    fn a_round_counts_only_its_share_of_the_documents_for_the_analyses_it_tries() {
        let pairs = (0..54).map(|i| {
            let label = if i % 2 == 0 { "even" } else { "odd" };
            (label, format!("word{} common text {label}", i % 5))
        });
        let pipeline = crate::pipeline::PipelineConfig::default();
        let mut reading = Reading::new(pipeline);
        let options = TuneOptions::default();
        let held = Held::load(Source::labelled(pairs), &mut reading, &options).unwrap();
        let analyses = analyses(&AnalyzerConfig::default());
        let settings = grid(&mnb(), &analyses[..1]).unwrap();
        let round = Round::new(&held, 1.0 / 9.0, &analyses, &settings, &reading).unwrap();
        // Each fold holds out 2 of its 18 documents and trains on 4 of the other 36.
        let sizes: Vec<(usize, usize)> = round
            .parts
            .iter()
            .map(|(h, k)| (h.len(), k.len()))
            .collect();
        assert_eq!(sizes, vec![(2, 4); 3]);
        let counted = round.corpora[0].as_ref().unwrap();
        let used: std::collections::BTreeSet<usize> = round
            .parts
            .iter()
            .flat_map(|(h, k)| h.iter().chain(k))
            .copied()
            .collect();
        assert_eq!(used.len(), counted.classes.len());
        assert!(used.len() < 54 / 3);
        assert!(round.corpora[1..].iter().all(Option::is_none));
    }

    #[test]
    fn a_kernel_svm_is_tuned_over_kernels_gamma_and_c_with_its_solver_settings() {
        let base = crate::model::KernelSvmParams {
            tolerance: 1e-2,
            cache_bytes: 7 << 20,
            ..Default::default()
        };
        let params = crate::model::Params {
            kernel: Some(base),
            ..Default::default()
        };
        let trainer = Kind::Svm.trainer(&params, Weighting::default()).unwrap();
        let settings = grid(&trainer, &[AnalyzerConfig::default()]).unwrap();
        // Two min-dfs and three weightings, each with 15 kernel settings.
        assert_eq!(settings.len(), 6 * 15);
        let first = &settings[0].vectorizer;
        let kernels: Vec<String> = (settings.iter().filter(|s| s.vectorizer == *first))
            .map(|s| s.trainer.parameter_flag())
            .collect();
        let mut expected = vec![
            "--kernel linear --c 0.1".to_string(),
            "--kernel linear --c 1".into(),
            "--kernel linear --c 10".into(),
        ];
        for gamma in ["0.1", "0.3", "1", "3"] {
            for c in [1, 10] {
                expected.push(format!("--kernel rbf --gamma {gamma} --c {c}"));
            }
        }
        for gamma in ["0.3", "1"] {
            for c in [1, 10] {
                let poly = format!("--kernel poly --gamma {gamma} --degree 2 --coef0 1");
                expected.push(format!("{poly} --c {c}"));
            }
        }
        assert_eq!(kernels, expected);
        for setting in &settings {
            let kernel = setting.trainer.kernel_svm().unwrap();
            assert_eq!((kernel.tolerance, kernel.cache_bytes), (1e-2, 7 << 20));
        }
    }

    #[test]
    fn the_gain_is_the_mean_paired_difference_over_its_standard_error() {
        // Differences: three +1, one -1, six 0: mean 0.2, sample variance 3.6 / 9 = 0.4,
        // standard error sqrt(0.4 / 10) = 0.2.
        let a = [
            true, true, true, false, true, true, false, false, true, true,
        ];
        let b = [
            false, false, false, true, true, true, false, false, true, true,
        ];
        assert!((gain_in_standard_errors(&a, &b) - 1.0).abs() < 1e-12);
        assert!((gain_in_standard_errors(&b, &a) + 1.0).abs() < 1e-12);
        assert_eq!(gain_in_standard_errors(&a, &a), 0.0);
        assert_eq!(
            gain_in_standard_errors(&[true; 4], &[false; 4]),
            f64::INFINITY
        );
    }

    #[test]
    fn the_incumbent_stays_unless_the_best_is_significantly_better() {
        let settings = grid(&mnb(), &[AnalyzerConfig::default()]).unwrap();
        let (incumbent, other) = (&settings[0], &settings[1]);
        let base = [[true; 30], [false; 30]].concat();
        // Two rows more right out of 60: more accurate, but 1.42 standard errors.
        let mut slightly = base.clone();
        slightly[30..32].fill(true);
        let trials = [trial(incumbent, &base), trial(other, &slightly)];
        let (winner, held, not_taken) = choose(&trials, incumbent).unwrap();
        assert_eq!(
            (&winner.setting, &held.setting, not_taken),
            (incumbent, incumbent, Some(32.0 / 60.0))
        );
        // Ten rows more right: 3.4 standard errors.
        let mut clearly = base.clone();
        clearly[30..40].fill(true);
        let trials = [trial(incumbent, &base), trial(other, &clearly)];
        let (winner, _, not_taken) = choose(&trials, incumbent).unwrap();
        assert_eq!((&winner.setting, not_taken), (other, None));
        // The incumbent best of all: chosen, and no better trial was left out.
        let trials = [trial(incumbent, &clearly), trial(other, &base)];
        let (winner, _, not_taken) = choose(&trials, incumbent).unwrap();
        assert_eq!((&winner.setting, not_taken), (incumbent, None));
    }
}
