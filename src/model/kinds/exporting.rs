//! A classifier as `bowline export` writes it, each kind with its own fields (see the
//! [`export`](crate::model::export) module's schema).

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use super::{Classifier, PerLabel};
use crate::choice::Choice;
use crate::model::{KernelSvm, Knn, LinearSvm, NaiveBayes, Priors, Similarity};
use crate::vectorize::matrix_row;
use crate::vectorize::FittedVectorizer;

impl Classifier {
    /// The classifier's parameters as `export` writes them, tagged by `type`, over `outer`'s
    /// columns.
    pub(crate) fn exported<'a>(&'a self, outer: OuterColumns<'a>) -> impl Serialize + 'a {
        Exported(self, outer)
    }
}

/// The columns `export` writes: the vectorizer's, or for hashed terms all 2^bits hashed
/// columns, of which the model's arrays hold those that occur. An export reads as it did when
/// the arrays had every column.
#[derive(Debug, Clone, Copy)]
pub(crate) struct OuterColumns<'a> {
    /// The hashed column of each column; empty when terms are not hashed.
    hashed: &'a [u32],
    /// The number of columns written.
    space: usize,
}

impl<'a> OuterColumns<'a> {
    /// The columns `vectorizer` is known by outside.
    pub(crate) fn of(vectorizer: &'a FittedVectorizer) -> Self {
        OuterColumns {
            hashed: vectorizer.hashed_columns(),
            space: vectorizer.space(),
        }
    }

    /// Column `j`'s number outside.
    fn column(self, j: u32) -> u32 {
        self.hashed.get(j as usize).copied().unwrap_or(j)
    }

    /// A value for every column outside: `value(j)` for column `j`, `fill` for a hashed column
    /// no column holds.
    pub(crate) fn dense<T: Copy + 'a>(
        self,
        value: impl Fn(usize) -> T + 'a,
        fill: T,
    ) -> impl Iterator<Item = T> + 'a {
        let mut kept = self.hashed.iter().enumerate().peekable();
        let hashed = !self.hashed.is_empty();
        (0..self.space).map(move |outer| {
            if !hashed {
                return value(outer);
            }
            match kept.peek() {
                Some(&(j, &column)) if column as usize == outer => {
                    kept.next();
                    value(j)
                }
                _ => fill,
            }
        })
    }
}

/// A classifier's parameters, tagged by `type`.
struct Exported<'a>(&'a Classifier, OuterColumns<'a>);

impl Serialize for Exported<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let outer = self.1;
        match self.0 {
            Classifier::Svm(svm) => svm_fields(svm, outer, serializer),
            Classifier::NaiveBayes(nb) => naive_bayes_fields(nb, outer, serializer),
            Classifier::Knn(knn) => knn_fields(knn, outer, serializer),
            Classifier::KernelSvm(svm) => kernel_svm_fields(svm, outer, serializer),
            Classifier::Approximated(_) => Err(serde::ser::Error::custom(
                "a linear SVM over a kernel approximation (--approx) cannot be exported: its \
                 feature map has no place in the export's schema",
            )),
            Classifier::MultiLabel(multi) => {
                let mut s = serializer.serialize_struct("MultiLabel", 4)?;
                s.serialize_field("type", "multi_label")?;
                s.serialize_field("thresholds", &multi.decision.thresholds)?;
                s.serialize_field("min_labels", &multi.decision.min_labels)?;
                s.serialize_field("per_label", &PerLabelExported(&multi.scorer, outer))?;
                s.end()
            }
            Classifier::Selected(selected) => {
                let mut s = serializer.serialize_struct("Selected", 3)?;
                s.serialize_field("type", "selected")?;
                let mut columns = vec![0u32; selected.columns.len()];
                let mut kept = 0;
                for (j, &c) in selected.columns.iter().enumerate() {
                    if let Some(slot) = columns.get_mut(c as usize) {
                        *slot = j as u32;
                        kept = kept.max(c as usize + 1);
                    }
                }
                columns.truncate(kept);
                s.serialize_field("columns", &columns)?;
                // A selection's inner classifier is over its own selected columns.
                let inner = OuterColumns {
                    hashed: &[],
                    space: selected.inner.features(),
                };
                s.serialize_field("inner", &Exported(&selected.inner, inner))?;
                s.end()
            }
        }
    }
}

/// A multi-label model's binary problems: an SVM whose classes are the labels, or naive Bayes
/// with each label's counts (`positives`) and the counts over all documents (`all`).
struct PerLabelExported<'a>(&'a PerLabel, OuterColumns<'a>);

impl Serialize for PerLabelExported<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let outer = self.1;
        match self.0 {
            PerLabel::Svm(svm) => svm_fields(svm, outer, serializer),
            PerLabel::NaiveBayes(nb) => {
                let (positives, all) = nb.counts();
                let mut s = serializer.serialize_struct("BinaryNb", 3)?;
                s.serialize_field("type", "binary_naive_bayes")?;
                s.serialize_field("positives", &NaiveBayesExported(positives, outer))?;
                s.serialize_field("all", &NaiveBayesExported(all, outer))?;
                s.end()
            }
        }
    }
}

/// Naive Bayes counts as `naive_bayes_fields` writes them.
struct NaiveBayesExported<'a>(&'a NaiveBayes, OuterColumns<'a>);

impl Serialize for NaiveBayesExported<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        naive_bayes_fields(self.0, self.1, serializer)
    }
}

fn svm_fields<S: Serializer>(
    svm: &LinearSvm,
    outer: OuterColumns,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let classes = svm.intercepts().len();
    let weights: Vec<ClassWeights> = (0..classes)
        .map(|class| ClassWeights { svm, class, outer })
        .collect();
    let mut s = serializer.serialize_struct("Svm", 4)?;
    s.serialize_field("type", "svm")?;
    s.serialize_field("weights", &weights)?;
    s.serialize_field("intercepts", svm.intercepts())?;
    s.serialize_field("calibration", &svm.sigmoids())?;
    s.end()
}

/// One class's SVM weights, written without copying them.
struct ClassWeights<'a> {
    svm: &'a LinearSvm,
    class: usize,
    outer: OuterColumns<'a>,
}

impl Serialize for ClassWeights<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (svm, class) = (self.svm, self.class);
        let weight = move |j: usize| svm.weight(j, class);
        serializer.collect_seq(self.outer.dense(weight, Some(0.0)).flatten())
    }
}

/// A kernel SVM: its kernel, its support vectors (sparse, in the outer columns) with each one's
/// coefficient y·α per class, the intercepts −ρ and the sigmoids; a class's decision value is
/// Σ_s coefficients[s][class]·K(support[s], x) + intercepts[class].
fn kernel_svm_fields<S: Serializer>(
    svm: &KernelSvm,
    outer: OuterColumns,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Support<'a> {
        indices: Vec<u32>,
        values: &'a [f64],
        coefficients: &'a [f64],
    }
    let support: Vec<Support> = (0..svm.support_vectors())
        .map(|s| {
            let (indices, values) = matrix_row(svm.support(), s);
            Support {
                indices: indices.iter().map(|&j| outer.column(j)).collect(),
                values,
                coefficients: svm.coefficients_of(s),
            }
        })
        .collect();
    let kernel = svm.kernel();
    let mut s = serializer.serialize_struct("KernelSvm", 8)?;
    s.serialize_field("type", "kernel_svm")?;
    s.serialize_field("kernel", kernel.kind.name())?;
    s.serialize_field("gamma", &kernel.gamma)?;
    s.serialize_field("degree", &kernel.degree)?;
    s.serialize_field("coef0", &kernel.coef0)?;
    s.serialize_field("support_vectors", &support)?;
    s.serialize_field("intercepts", &svm.intercepts())?;
    s.serialize_field("calibration", &svm.sigmoids())?;
    s.end()
}

fn naive_bayes_fields<S: Serializer>(
    nb: &NaiveBayes,
    outer: OuterColumns,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Sums<'a> {
        indices: Vec<u32>,
        values: &'a [f64],
    }
    #[derive(Serialize)]
    #[serde(untagged)]
    enum PriorsOut<'a> {
        Named(&'static str),
        Given(&'a [f64]),
    }
    let priors = match nb.priors() {
        Priors::Learned => PriorsOut::Named("learned"),
        Priors::Uniform => PriorsOut::Named("uniform"),
        Priors::Given(p) => PriorsOut::Given(p),
    };
    let sums: Vec<Sums> = nb
        .class_sums()
        .map(|(indices, values)| Sums {
            indices: indices.iter().map(|&j| outer.column(j)).collect(),
            values,
        })
        .collect();
    let mut s = serializer.serialize_struct("NaiveBayes", 7)?;
    s.serialize_field("type", "naive_bayes")?;
    s.serialize_field("event_model", nb.kind().name())?;
    s.serialize_field("alpha", &nb.alpha())?;
    s.serialize_field("priors", &priors)?;
    s.serialize_field("class_documents", nb.class_docs())?;
    s.serialize_field("features", &nb.space())?;
    s.serialize_field("sums", &sums)?;
    s.end()
}

fn knn_fields<S: Serializer>(
    knn: &Knn,
    outer: OuterColumns,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Document {
        class: u32,
        indices: Vec<u32>,
        counts: Vec<f32>,
    }
    let documents: Vec<Document> = knn
        .documents()
        .into_iter()
        .map(|(class, terms)| {
            let (indices, counts) = (terms.into_iter())
                .map(|(j, count)| (outer.column(j), count))
                .unzip();
            Document {
                class,
                indices,
                counts,
            }
        })
        .collect();
    let params = knn.params();
    let mut s = serializer.serialize_struct("Knn", 7)?;
    s.serialize_field("type", "knn")?;
    s.serialize_field("k", &params.k)?;
    match params.similarity {
        Similarity::Cosine => s.serialize_field("similarity", "cosine")?,
        Similarity::Bm25 { k1, b } => {
            s.serialize_field("similarity", "bm25")?;
            s.serialize_field("k1", &k1)?;
            s.serialize_field("b", &b)?;
        }
    }
    s.serialize_field("weighting", &knn.weighting())?;
    s.serialize_field("documents", &documents)?;
    s.end()
}
