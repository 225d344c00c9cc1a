//! Train a classifier on the bundled corpus, classify a few sentences, save the model and load it
//! back.
//!
//! Run from the repository's root: `cargo run --example train_and_classify`.

use bowline::corpus::ReadOptions;
use bowline::{Kind, Reading, Source, TextClassifier};

fn main() -> bowline::Result<()> {
    // Class folders: corpora/computing, corpora/cooking, corpora/space, corpora/sports.
    let source = Source::open("corpora".as_ref(), &ReadOptions::default())?;
    let mut reading = Reading::default().on_entry(|entry| {
        if entry.decoded_windows_1252 {
            eprintln!("note: {} is not UTF-8; read as Windows-1252", entry.doc.id);
        }
    });
    let fitted = TextClassifier::builder(Kind::Svm).fit_source(source, &mut reading)?;
    let model = fitted.classifier;
    println!(
        "trained on {} documents, {} classes: {}",
        fitted.documents,
        model.labels().len(),
        model.labels().join(", ")
    );

    for text in [
        "The telescope found a new planet beyond the rocket's reach",
        "Simmer the sauce and season the soup with salt",
    ] {
        let prediction = model.predict(text)?;
        let runner_up = &prediction.top(2)[1];
        println!(
            "{:<60} {} ({:.2}; then {} {:.2})",
            text, prediction.label, prediction.probability, runner_up.0, runner_up.1
        );
    }

    // The model file is the one the `bowline` program reads and writes.
    let path = std::env::temp_dir().join("bowline-example.model");
    model.save(&path)?;
    let loaded = TextClassifier::load(&path)?;
    let again = loaded.predict("Simmer the sauce and season the soup with salt")?;
    assert_eq!(again.label, "cooking");
    println!("saved to and loaded from {}", path.display());
    std::fs::remove_file(&path).map_err(|e| bowline::Error::io(&path, e))?;
    Ok(())
}
