use super::*;
use crate::vectorize::SparseRow;

fn labels() -> Vec<String> {
    ["a", "b", "c"].map(String::from).to_vec()
}

fn row(pairs: &[(u32, f64)]) -> SparseRow {
    SparseRow {
        indices: pairs.iter().map(|p| p.0).collect(),
        values: pairs.iter().map(|p| p.1).collect(),
    }
}

#[test]
fn each_strategy_scores_by_its_formula() {
    let p = [0.2, 0.7, 0.1];
    assert!((Strategy::Uncertainty.score(&p) - 0.3).abs() < 1e-12);
    assert!((Strategy::Margin.score(&p) - 0.5).abs() < 1e-12);
    let entropy = -(0.2f64 * 0.2f64.ln() + 0.7 * 0.7f64.ln() + 0.1 * 0.1f64.ln());
    assert!((Strategy::Entropy.score(&p) - entropy).abs() < 1e-12);
    // A certain prediction tells nothing; an even one the most.
    assert_eq!(Strategy::Margin.score(&[1.0, 0.0, 0.0]), 0.0);
    assert_eq!(Strategy::Margin.score(&[0.5, 0.5, 0.0]), 1.0);
}

#[test]
fn the_picker_keeps_the_highest_scores_and_the_earlier_of_a_tie() {
    let mut picker = Picker::new(Strategy::Uncertainty, 2, 1);
    let pool = [
        ("sure", [0.9, 0.05, 0.05]),
        ("unsure", [0.4, 0.35, 0.25]),
        ("tie-1", [0.6, 0.3, 0.1]),
        ("tie-2", [0.6, 0.2, 0.2]),
    ];
    for (id, p) in &pool {
        picker.offer(id, (&labels(), p), &SparseRow::default());
    }
    let picked = picker.finish();
    let ids: Vec<&str> = picked.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["unsure", "tie-1"]);
    assert_eq!(picked[0].guess, "a");
    assert!((picked[0].probability - 0.4).abs() < 1e-12);
    assert_eq!(excerpt("some  text\n here"), "some text here");
}

#[test]
fn a_random_sample_depends_on_the_seed_and_not_on_the_order() {
    let ids: Vec<String> = (0..50).map(|i| format!("doc{i}")).collect();
    let sample = |seed: u64, reversed: bool| {
        let mut picker = Picker::new(Strategy::Random, 5, seed);
        let mut order: Vec<&String> = ids.iter().collect();
        if reversed {
            order.reverse();
        }
        for id in order {
            picker.offer(id, (&labels(), &[0.5, 0.3, 0.2]), &SparseRow::default());
        }
        let mut picked: Vec<String> = picker.finish().into_iter().map(|s| s.id).collect();
        picked.sort();
        picked
    };
    assert_eq!(sample(1, false), sample(1, true));
    assert_ne!(sample(1, false), sample(2, false));
}

#[test]
fn a_diverse_batch_skips_a_near_copy_for_a_different_close_call() {
    let mut picker = Picker::new(Strategy::Diverse, 2, 1);
    let copy = row(&[(1, 1.0), (2, 1.0)]);
    picker.offer("first", (&labels(), &[0.5, 0.5, 0.0]), &copy);
    picker.offer("copy", (&labels(), &[0.5, 0.5, 0.0]), &copy);
    let other = row(&[(7, 1.0)]);
    picker.offer("other", (&labels(), &[0.6, 0.4, 0.0]), &other);
    let ids: Vec<String> = picker.finish().into_iter().map(|s| s.id).collect();
    assert_eq!(ids, ["first", "other"]);
    // By margin alone the copy comes second.
    let mut picker = Picker::new(Strategy::Margin, 2, 1);
    picker.offer("first", (&labels(), &[0.5, 0.5, 0.0]), &copy);
    picker.offer("copy", (&labels(), &[0.5, 0.5, 0.0]), &copy);
    picker.offer("other", (&labels(), &[0.6, 0.4, 0.0]), &other);
    let ids: Vec<String> = picker.finish().into_iter().map(|s| s.id).collect();
    assert_eq!(ids, ["first", "copy"]);
}

/// A pool counted once scores every document exactly as its terms do, as labels bring new
/// terms in and after the model starts over.
#[test]
fn a_counted_pool_scores_exactly_as_the_terms_do() {
    use super::counted::{CountedPool, Scratch};
    use crate::analyze::{Analyzer, Terms};
    use crate::classifier::OnlineLearner;
    use crate::model::Kind;
    use crate::vectorize::{DfBound, VectorizerConfig};

    let kind = Kind::Mnb;
    let vectorizer = VectorizerConfig {
        min_df: DfBound::Count(1),
        ..kind.default_vectorizer()
    };
    let learner = || {
        let alpha = kind.default_alpha().value();
        OnlineLearner::new(kind, kind.default_analysis(), vectorizer.clone(), alpha).unwrap()
    };
    let mut model = learner();
    let analyzer = Analyzer::new(model.analysis().clone()).unwrap();
    let texts = [
        "the ball and the goal, the goal again",
        "bread in the oven with salt",
        "a rocket to the moon and a star",
        "the coach bakes bread after the match",
        "words nobody labelled: comet, garlic",
    ];
    let pool: Vec<Terms> = (texts.iter())
        .map(|text| {
            let mut terms = Terms::new();
            analyzer.worker().analyze(text, &mut terms);
            terms
        })
        .collect();
    let mut counted = CountedPool::new(&pool);
    let same = |model: &mut OnlineLearner, counted: &CountedPool| {
        for (i, terms) in pool.iter().enumerate() {
            let mut by_terms = Vec::new();
            model.probabilities_terms(terms, &mut by_terms);
            let mut scratch = Scratch::default();
            counted.count(i, &mut scratch);
            let (row, out) = (&mut scratch.counted, &mut scratch.probabilities);
            model.probabilities_counted(&model.weigh_table(), row, out);
            assert_eq!(by_terms, scratch.probabilities, "document {i}");
        }
    };
    for (label, i) in [("sport", 0), ("food", 1), ("space", 2), ("sport", 3)] {
        let class = model.class_of(label);
        model.learn_terms(&pool[i], class).unwrap();
        counted.learned(&pool[i], &model);
        same(&mut model, &counted);
    }
    model = learner();
    counted.refresh(&model);
    let class = model.class_of("food");
    model.learn_terms(&pool[1], class).unwrap();
    counted.learned(&pool[1], &model);
    same(&mut model, &counted);
}
