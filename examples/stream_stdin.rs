//! Classify a stream of documents on stdin, one per line, as they arrive: the pipeline's worker
//! threads analyze each batch while the main thread writes the results in input order.
//!
//! `printf 'a rocket to orbit\nbake the bread\n' | cargo run --example stream_stdin [MODEL]`
//!
//! With no MODEL it trains one on the bundled corpus first.

use std::io::Write;

use bowline::corpus::{InputFormat, ReadOptions};
use bowline::{Kind, Reading, Source, TextClassifier};

fn main() -> bowline::Result<()> {
    let model = match std::env::args().nth(1) {
        Some(path) => TextClassifier::load(path)?,
        None => {
            let corpus = Source::open("corpora".as_ref(), &ReadOptions::default())?;
            let builder = TextClassifier::builder(Kind::Mnb);
            builder
                .fit_source(corpus, &mut Reading::default())?
                .classifier
        }
    };
    let lines = ReadOptions {
        format: Some(InputFormat::Lines),
        ..ReadOptions::default()
    };
    let stdin = Source::open("-".as_ref(), &lines)?;
    let mut out = std::io::stdout().lock();
    let labels = model.labels();
    model.classify(stdin, &mut Reading::default(), |item, probabilities| {
        // Lines that could not be read (not text) have no probabilities; they are skipped.
        let Some(probabilities) = probabilities else {
            return Ok(());
        };
        let best = (0..labels.len())
            .max_by(|&a, &b| probabilities[a].total_cmp(&probabilities[b]))
            .unwrap_or(0);
        writeln!(
            out,
            "{}\t{}\t{:.3}",
            item.entry.doc.id, labels[best], probabilities[best]
        )
        .map_err(|e| bowline::Error::io("-", e))
    })?;
    Ok(())
}
