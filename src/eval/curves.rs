//! ROC and precision-recall curves, ROC AUC and average precision, as scikit-learn computes
//! them: pure functions over (score, is positive) pairs, one class against the rest.
//!
//! Both curves step through the *distinct* scores from the highest down: at each, every
//! document scoring at least that much is called positive. Documents of equal score therefore
//! enter together, which is how scikit-learn handles ties: the ROC curve moves diagonally
//! across a tie of positives and negatives, and the area is the trapezoid rule over those
//! points (`roc_auc_score`). Average precision is the step-wise sum
//! Σ (Rₖ − Rₖ₋₁) · Pₖ over the same thresholds, without interpolation
//! (`average_precision_score`).
//!
//! A class with no positive document has neither figure (scikit-learn's `roc_auc_score`
//! refuses it, and its `average_precision_score` answers 0 with a warning); a class with no
//! negative document has no ROC curve (its false-positive rate would divide by zero) but has an
//! average precision of 1. Macro averages are over the classes that have the figure, so a
//! class absent from the evaluation does not pull them down.

use serde::Serialize;

/// A ROC curve: false- and true-positive rates at decreasing thresholds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Roc {
    /// False-positive rate of each point, from 0 to 1.
    pub fpr: Vec<f64>,
    /// True-positive rate of each point, from 0 to 1.
    pub tpr: Vec<f64>,
    /// The score at or above which documents are called positive at each point; the first
    /// point, where none is, has +∞ (written `null` in JSON).
    pub thresholds: Vec<f64>,
}

/// A precision-recall curve, one point where recall grows (points where only precision changes
/// add nothing to the average precision and are left out).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrecisionRecall {
    /// Recall of each point, from 0 up to 1.
    pub recall: Vec<f64>,
    /// Precision of each point; the first point (recall 0) has precision 1.
    pub precision: Vec<f64>,
    /// The score at or above which documents are called positive at each point; the first has
    /// +∞ (written `null` in JSON).
    pub thresholds: Vec<f64>,
}

/// One class's curves and figures, one against the rest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassCurves {
    /// The class.
    pub label: String,
    /// Documents of the class.
    pub positives: u64,
    /// Documents of other classes.
    pub negatives: u64,
    /// Area under the ROC curve; none without positives or without negatives.
    pub roc_auc: Option<f64>,
    /// Average precision; none without positives.
    pub average_precision: Option<f64>,
    /// The ROC curve, when the area is defined.
    pub roc: Option<Roc>,
    /// The precision-recall curve, when average precision is defined.
    pub precision_recall: Option<PrecisionRecall>,
}

/// Counts at each distinct threshold, from the highest score down.
struct Steps {
    /// (threshold, true positives, false positives) with documents scoring ≥ threshold called
    /// positive; cumulative, so both counts only grow.
    points: Vec<(f64, u64, u64)>,
}

impl Steps {
    /// Sorts `pairs` by decreasing score and counts at each change of score.
    fn of(pairs: &mut [(f64, bool)]) -> Steps {
        pairs.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut points: Vec<(f64, u64, u64)> = Vec::new();
        let (mut tp, mut fp) = (0, 0);
        for (i, &(score, positive)) in pairs.iter().enumerate() {
            if positive {
                tp += 1;
            } else {
                fp += 1;
            }
            // A threshold's point is complete once the next score differs.
            let last_of_tie = pairs.get(i + 1).is_none_or(|next| next.0 != score);
            if last_of_tie {
                points.push((score, tp, fp));
            }
        }
        Steps { points }
    }

    /// (positives, negatives) in all.
    fn totals(&self) -> (u64, u64) {
        self.points.last().map_or((0, 0), |&(_, tp, fp)| (tp, fp))
    }
}

/// One class's curves and figures from its documents' `(score, is positive)` pairs, which are
/// reordered.
pub fn class_curves(label: &str, pairs: &mut [(f64, bool)]) -> ClassCurves {
    let steps = Steps::of(pairs);
    let (positives, negatives) = steps.totals();
    let roc = (positives > 0 && negatives > 0).then(|| roc(&steps));
    let precision_recall = (positives > 0).then(|| precision_recall(&steps));
    ClassCurves {
        label: label.to_string(),
        positives,
        negatives,
        roc_auc: roc.as_ref().map(|_| roc_auc(&steps)),
        average_precision: precision_recall.as_ref().map(average_precision),
        roc,
        precision_recall,
    }
}

/// The area under the ROC curve by the trapezoid rule over the distinct thresholds, summed in
/// whole numbers (twice the area times positives times negatives) and divided once.
fn roc_auc(steps: &Steps) -> f64 {
    let (positives, negatives) = steps.totals();
    let (mut twice_area, mut last) = (0u128, (0u64, 0u64));
    for &(_, tp, fp) in &steps.points {
        twice_area += u128::from(fp - last.1) * u128::from(tp + last.0);
        last = (tp, fp);
    }
    twice_area as f64 / (2.0 * positives as f64 * negatives as f64)
}

/// The ROC points, without those in the middle of a straight run (which change neither the
/// curve's shape nor its area), much as scikit-learn's `drop_intermediate` leaves them out.
fn roc(steps: &Steps) -> Roc {
    let (positives, negatives) = steps.totals();
    let mut all = vec![(f64::INFINITY, 0, 0)];
    all.extend(&steps.points);
    let kept: Vec<&(f64, u64, u64)> = all
        .iter()
        .enumerate()
        .filter(|&(i, &(_, tp, fp))| {
            let (Some(before), Some(after)) = (i.checked_sub(1).map(|b| all[b]), all.get(i + 1))
            else {
                return true;
            };
            // Collinear when the cross product of the two segments is zero.
            let (dx1, dy1) = (fp as i128 - before.2 as i128, tp as i128 - before.1 as i128);
            let (dx2, dy2) = (after.2 as i128 - fp as i128, after.1 as i128 - tp as i128);
            dx1 * dy2 != dy1 * dx2
        })
        .map(|(_, point)| point)
        .collect();
    Roc {
        fpr: kept.iter().map(|p| p.2 as f64 / negatives as f64).collect(),
        tpr: kept.iter().map(|p| p.1 as f64 / positives as f64).collect(),
        thresholds: kept.iter().map(|p| p.0).collect(),
    }
}

/// The precision-recall points where recall grows, after the point (recall 0, precision 1).
fn precision_recall(steps: &Steps) -> PrecisionRecall {
    let (positives, _) = steps.totals();
    let mut curve = PrecisionRecall {
        recall: vec![0.0],
        precision: vec![1.0],
        thresholds: vec![f64::INFINITY],
    };
    let mut last_tp = 0;
    for &(threshold, tp, fp) in &steps.points {
        if tp > last_tp {
            curve.recall.push(tp as f64 / positives as f64);
            curve.precision.push(tp as f64 / (tp + fp) as f64);
            curve.thresholds.push(threshold);
            last_tp = tp;
        }
    }
    curve
}

/// Σ (Rₖ − Rₖ₋₁) · Pₖ over the curve's points.
fn average_precision(curve: &PrecisionRecall) -> f64 {
    curve
        .recall
        .windows(2)
        .zip(&curve.precision[1..])
        .map(|(r, p)| (r[1] - r[0]) * p)
        .sum()
}

/// The mean of the values that are there; none when none is.
pub(crate) fn macro_mean(values: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let present: Vec<f64> = values.flatten().collect();
    (!present.is_empty()).then(|| present.iter().sum::<f64>() / present.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(scores: &[f64], positive: &[bool]) -> Vec<(f64, bool)> {
        scores
            .iter()
            .copied()
            .zip(positive.iter().copied())
            .collect()
    }

    #[test]
    fn a_perfect_ranking_has_area_one_and_precision_one() {
        let mut p = pairs(&[0.9, 0.8, 0.3, 0.1], &[true, true, false, false]);
        let c = class_curves("a", &mut p);
        assert_eq!((c.roc_auc, c.average_precision), (Some(1.0), Some(1.0)));
        let roc = c.roc.unwrap();
        // (0,0), (0,1) after both positives, (1,1) after both negatives.
        assert_eq!(
            (roc.fpr, roc.tpr),
            (vec![0.0, 0.0, 1.0], vec![0.0, 1.0, 1.0])
        );
    }

    #[test]
    fn hand_computed_figures_with_a_tie() {
        // Scores 0.8 (pos), 0.5 (pos), 0.5 (neg), 0.2 (neg), 0.1 (pos).
        let mut p = pairs(
            &[0.8, 0.5, 0.5, 0.2, 0.1],
            &[true, true, false, false, true],
        );
        let c = class_curves("a", &mut p);
        // Points (fp, tp): (0,0) (0,1) (1,2) (2,2) (2,3), of 2 negatives and 3 positives.
        // Trapezoids: 0 + 1·(1+2)/2 + 1·(2+2)/2 + 0 = 3.5 of 6.
        assert!((c.roc_auc.unwrap() - 3.5 / 6.0).abs() < 1e-15);
        // Recall steps 1/3, 2/3, 1 at precision 1, 2/3, 3/5.
        let ap = (1.0 + 2.0 / 3.0 + 3.0 / 5.0) / 3.0;
        assert!((c.average_precision.unwrap() - ap).abs() < 1e-15);
        assert_eq!(c.precision_recall.unwrap().recall.len(), 4);
    }

    #[test]
    fn a_class_without_positives_or_negatives_has_no_area() {
        let mut none = pairs(&[0.3, 0.2], &[false, false]);
        let c = class_curves("a", &mut none);
        assert_eq!((c.roc_auc, c.average_precision), (None, None));
        let mut all = pairs(&[0.3, 0.2], &[true, true]);
        let c = class_curves("a", &mut all);
        assert_eq!((c.roc_auc, c.average_precision), (None, Some(1.0)));
        assert_eq!(
            macro_mean([None, Some(0.5), Some(1.0)].into_iter()),
            Some(0.75)
        );
        assert_eq!(macro_mean([None].into_iter()), None);
    }
}
