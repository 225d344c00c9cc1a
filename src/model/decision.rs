//! Turning class probabilities into a decision: the most probable class, a threshold on one
//! class of a two-class model, or the class of least expected cost (decision theory: with costs
//! C(p, t) of predicting p when the truth is t, choose the p minimizing Σ_t C(p, t) · P(t | x)).
//!
//! A cost matrix is a TSV file: a header line of true classes after an ignored first cell, then
//! one line per predicted class with its costs, tab-separated, e.g. for spam filtering where
//! losing a real message costs ten times as much as letting a spam through (cells shown here
//! aligned with spaces):
//!
//! ```text
//! predicted\true  ham  spam
//! ham             0    1
//! spam            10   0
//! ```
//!
//! Every class of the model must appear once as a row and once as a column; lines starting with
//! `#` and blank lines are ignored.

use std::path::Path;

use crate::error::{Error, Result};

/// How a class is chosen from the probabilities.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// The most probable class (the first on ties).
    MostProbable,
    /// Two classes: `positive` when its probability is at least `at`, else the other.
    Threshold {
        /// The class the threshold is on.
        positive: usize,
        /// The probability from which `positive` is chosen, in [0, 1].
        at: f64,
    },
    /// The class of least expected cost.
    Costs(CostMatrix),
}

impl Decision {
    /// The chosen class for one document's class probabilities.
    pub(crate) fn decide(&self, probabilities: &[f64]) -> usize {
        match self {
            Decision::MostProbable => argmax(probabilities.iter().copied()),
            Decision::Threshold { positive, at } => {
                if probabilities[*positive] >= *at {
                    *positive
                } else {
                    1 - positive
                }
            }
            Decision::Costs(costs) => {
                let expected = costs.costs.iter().map(|row| {
                    let cost: f64 = row.iter().zip(probabilities).map(|(c, p)| c * p).sum();
                    -cost
                });
                argmax(expected)
            }
        }
    }

    /// A threshold decision for a model with `labels`, validated: two classes, `at` in [0, 1],
    /// `positive` one of them (default: the second label).
    pub fn threshold(labels: &[String], at: f64, positive: Option<&str>) -> Result<Self> {
        if labels.len() != 2 {
            return Err(Error::Config(format!(
                "--threshold needs a two-class model; this one has {} classes",
                labels.len()
            )));
        }
        if !(0.0..=1.0).contains(&at) {
            return Err(Error::Config(format!(
                "--threshold must be in [0, 1], got {at}"
            )));
        }
        let positive = match positive {
            None => 1,
            Some(name) => labels.iter().position(|l| l == name).ok_or_else(|| {
                Error::Config(format!("--positive: '{name}' is not a class of the model"))
            })?,
        };
        Ok(Decision::Threshold { positive, at })
    }
}

/// The index of the largest value (the first on ties).
pub(crate) fn argmax(values: impl Iterator<Item = f64>) -> usize {
    let (mut best, mut best_value) = (0, f64::NEG_INFINITY);
    for (i, v) in values.enumerate() {
        if v > best_value {
            (best, best_value) = (i, v);
        }
    }
    best
}

/// Costs of each decision, in the model's class order: `costs[predicted][truth]`.
#[derive(Debug, Clone, PartialEq)]
pub struct CostMatrix {
    costs: Vec<Vec<f64>>,
}

impl CostMatrix {
    /// The cost of predicting `predicted` when the truth is `truth`.
    pub fn cost(&self, predicted: usize, truth: usize) -> f64 {
        self.costs[predicted][truth]
    }

    /// Reads a cost matrix file for a model with `labels`.
    pub fn load(path: &Path, labels: &[String]) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        Self::parse(&text, labels, path)
    }

    /// Parses the TSV form; `path` names the file in errors.
    pub fn parse(text: &str, labels: &[String], path: &Path) -> Result<Self> {
        let problem = |line: usize, message: String| Error::Line {
            path: path.to_path_buf(),
            line: line as u64,
            message,
        };
        let class = |line: usize, name: &str| {
            let name = name.trim();
            labels
                .iter()
                .position(|l| l == name)
                .ok_or_else(|| problem(line, format!("'{name}' is not a class of the model")))
        };
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
        let (header_line, header) = lines
            .next()
            .ok_or_else(|| problem(1, "empty cost matrix".into()))?;
        let columns = header
            .split('\t')
            .skip(1)
            .map(|name| class(header_line, name))
            .collect::<Result<Vec<usize>>>()?;
        let k = labels.len();
        // Each class appears once as a column and once as a row: one given twice would silently
        // take the costs written last (found by the cost-matrix fuzz check).
        let mut seen = vec![false; k];
        if let Some(&c) = columns
            .iter()
            .find(|&&c| std::mem::replace(&mut seen[c], true))
        {
            let message = format!("'{}' appears twice as a column", labels[c]);
            return Err(problem(header_line, message));
        }
        let mut costs = vec![vec![f64::NAN; k]; k];
        let mut seen = vec![false; k];
        for (number, line) in lines {
            let mut cells = line.split('\t');
            let predicted = class(number, cells.next().unwrap_or_default())?;
            if std::mem::replace(&mut seen[predicted], true) {
                let message = format!("'{}' appears twice as a row", labels[predicted]);
                return Err(problem(number, message));
            }
            let values: Vec<&str> = cells.collect();
            if values.len() != columns.len() {
                let message = format!("{} costs, expected {}", values.len(), columns.len());
                return Err(problem(number, message));
            }
            for (&truth, value) in columns.iter().zip(values) {
                let cost: f64 = value
                    .trim()
                    .parse()
                    .map_err(|_| problem(number, format!("'{value}' is not a number")))?;
                if !cost.is_finite() {
                    return Err(problem(number, format!("cost {cost} is not finite")));
                }
                costs[predicted][truth] = cost;
            }
        }
        if let Some(p) = (0..k).find(|&p| costs[p].iter().any(|c| c.is_nan())) {
            let message = format!("no complete row and column for class '{}'", labels[p]);
            return Err(problem(header_line, message));
        }
        Ok(CostMatrix { costs })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels() -> Vec<String> {
        vec!["ham".into(), "spam".into()]
    }

    fn spam_costs() -> CostMatrix {
        let text =
            "# false spam is ten times worse\npredicted\\true\tham\tspam\nham\t0\t1\nspam\t10\t0\n";
        CostMatrix::parse(text, &labels(), Path::new("costs.tsv")).unwrap()
    }

    #[test]
    fn costs_move_the_decision_to_the_cheaper_mistake() {
        let costs = Decision::Costs(spam_costs());
        // P(spam) = 0.8: most probable is spam, but expected costs are ham 0.8, spam 2.0.
        assert_eq!(Decision::MostProbable.decide(&[0.2, 0.8]), 1);
        assert_eq!(costs.decide(&[0.2, 0.8]), 0);
        // Only above 10/11 is spam the cheaper call.
        assert_eq!(costs.decide(&[0.05, 0.95]), 1);
        assert_eq!(spam_costs().cost(1, 0), 10.0);
    }

    #[test]
    fn a_threshold_applies_to_the_second_class_unless_told() {
        let at_09 = Decision::threshold(&labels(), 0.9, None).unwrap();
        assert_eq!(at_09.decide(&[0.2, 0.8]), 0);
        assert_eq!(at_09.decide(&[0.05, 0.95]), 1);
        let on_ham = Decision::threshold(&labels(), 0.1, Some("ham")).unwrap();
        assert_eq!(on_ham.decide(&[0.2, 0.8]), 0);
        assert!(Decision::threshold(&labels(), 1.5, None).is_err());
        assert!(Decision::threshold(&labels(), 0.5, Some("eggs")).is_err());
    }

    #[test]
    fn bad_cost_files_name_the_line() {
        let cases = [
            ("\tham\tspam\nham\t0\t1\n", "no complete row"),
            (
                "\tham\tspam\nham\t0\tx\nspam\t1\t0\n",
                "c.tsv:2: 'x' is not a number",
            ),
            ("\tham\teggs\n", "c.tsv:1: 'eggs' is not a class"),
            ("\tham\tspam\nham\t0\n", "c.tsv:2: 1 costs, expected 2"),
            ("\tham\tham\n", "c.tsv:1: 'ham' appears twice as a column"),
            (
                "\tham\tspam\nham\t0\t1\nspam\t1\t0\n\nham\t0\t2\n",
                "c.tsv:5: 'ham' appears twice as a row",
            ),
        ];
        for (text, expected) in cases {
            let err = CostMatrix::parse(text, &labels(), Path::new("c.tsv")).unwrap_err();
            assert!(err.to_string().contains(expected), "{err}");
        }
    }
}
