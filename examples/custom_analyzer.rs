//! A custom analysis: no stemming, a stop list of one's own, words and word pairs (bigrams), and
//! shorter tokens kept. The same configuration is saved in the model, so the documents it
//! classifies later are analyzed the same way.
//!
//! Run: `cargo run --example custom_analyzer`.

use bowline::analyze::{Analyzer, AnalyzerConfig, StopWords, Terms};
use bowline::vectorize::{DfBound, VectorizerConfig};
use bowline::{Kind, TextClassifier};

fn main() -> bowline::Result<()> {
    let analysis = AnalyzerConfig {
        min_token_len: 1,
        stop_words: StopWords::Custom(vec!["the".into(), "a".into(), "to".into()]),
        stemmer: None,
        ngram_min: 1,
        ngram_max: 2,
        ..AnalyzerConfig::default()
    };
    let analyzer = Analyzer::new(analysis.clone())?;
    let mut terms = Terms::new();
    analyzer
        .worker()
        .analyze("Reset the VPN token, then log in to the portal", &mut terms);
    println!("terms: {}", terms.iter().collect::<Vec<_>>().join(" | "));

    let tickets = [
        ("access", "reset my vpn token please"),
        ("access", "cannot log in to the portal"),
        ("access", "log in fails after password reset"),
        ("hardware", "laptop screen is cracked"),
        ("hardware", "the printer is out of toner"),
        ("hardware", "replace the cracked laptop battery"),
    ];
    // Every term counts: with six tickets, none can be pruned for being rare.
    let vectorizer = VectorizerConfig {
        min_df: DfBound::Count(1),
        ..VectorizerConfig::default()
    };
    let model = TextClassifier::builder(Kind::Cnb)
        .analysis(analysis)
        .vectorizer(vectorizer)
        .fit(tickets)?;
    for text in ["vpn log in broken", "toner for the printer"] {
        println!("{text:<24} -> {}", model.predict(text)?.label);
    }
    assert_eq!(model.predict("vpn log in broken")?.label, "access");
    assert_eq!(model.model().vectorizer.analyzer().ngram_max, 2);
    Ok(())
}
