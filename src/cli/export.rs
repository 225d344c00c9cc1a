//! `bowline export`: a model as JSON, for other tools to read.

use std::path::PathBuf;

use clap::Args;

use super::Outcome;
use bowline::jobs::export::Export;
use bowline::Result;

/// The schema, shown by `bowline export --help`; `bowline::model::export` documents it too.
pub(super) const SCHEMA: &str = "\
Write a model as one line of JSON, for other tools to read.

Fields: schema_version; kind (mnb, cnb, bnb, svm, knn); labels (class c is labels[c]); analysis
and vectorizer (the settings that turn text into a row); documents (N, the training documents);
vocabulary (column j is vocabulary[j]); df[j]; idf[j]; classifier; training (corpora, documents
per class, bowline version, what train --tune chose, date).

A model trained with --hash-bits has hashing {bits, signed} instead of vocabulary: term t's
column is |h| mod 2^bits, h being MurmurHash3 (x86, 32 bits, seed 0) of its UTF-8 bytes as a
signed integer; when signed, each occurrence counts -1 if h < 0 (scikit-learn's
HashingVectorizer). count_j is then the column's signed sum, and tf applies to its magnitude.

A document's row: x_j = tf(count_j) * idf[j] for each vocabulary term it contains (tf count:
count; binary: 1; sublinear: 1 + ln count; frequency: count over the document's number of
terms, in the vocabulary or not), scaled to unit length when vectorizer.weighting.norm is l2.

classifier.type, and how it scores class c (the highest wins):
  svm          weights[c][j], intercepts[c]: sum_j weights[c][j] x_j + intercepts[c];
               calibration, if not null, is each class's Platt sigmoid {a, b}:
               1 / (1 + exp(a f + b)) of its decision value f, normalized over the classes.
  naive_bayes  event_model, alpha, priors (learned, uniform or one per class),
               class_documents[c], features (n), sums[c] = {indices, values}: s_cj, the sum of
               term j's values over class c's rows (bernoulli: documents containing it).
               Log prior: learned ln(class_documents[c] / sum of class_documents);
               uniform -ln C (C classes); given ln(p_c / sum p).
               multinomial: log prior + sum_j x_j ln((s_cj + alpha) / (sum_j s_cj + alpha n))
               complement:  sum_j x_j w_cj / sum_j w_cj, where S_j = sum_c s_cj and
                            w_cj = ln((S_j - s_cj + alpha) / (sum_j (S_j - s_cj) + alpha n))
               bernoulli:   log prior + sum_j ln p_cj if x_j > 0, else ln(1 - p_cj),
                            where p_cj = (s_cj + alpha) / (class_documents[c] + 2 alpha)
  knn          k, similarity (cosine; or bm25 with k1, b), weighting, and documents: each
               training document's class and raw indices and counts.
  selected     columns (the vocabulary columns kept) and inner, a classifier whose column i
               is vocabulary column columns[i].";

/// Flags of `bowline export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// A model written by `bowline train` (or `update`, `learn`, `select`).
    pub model: PathBuf,
    /// Write JSON, the one format there is (required, so that the command's meaning stays the
    /// same if others come).
    #[arg(long, required = true)]
    pub json: bool,
    /// Where to write; - for stdout.
    #[arg(short, long, default_value = "-", value_name = "FILE")]
    pub output: PathBuf,
}

/// Runs the command.
pub fn run(args: ExportArgs) -> Result<Outcome> {
    let job = Export {
        model: args.model,
        output: args.output,
    };
    job.run()?;
    Ok(Outcome::Clean)
}
