//! Runs on the real corpora in `../shared/corpora` (see its README); `.ci/run` includes them.

mod common;

use common::{arg, bowline, outcome};

const NEWS: &str = "../shared/corpora/20news-bydate";
const SMS: &str = "../shared/corpora/sms-spam/SMSSpamCollection.tsv";

/// Vectorizes `corpus` and returns stderr (every warning listed: `-v`) and the svmlight rows'
/// labels.
fn vectorize(corpus: &str) -> (String, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let svm = dir.path().join("out.svm");
    let args = ["vectorize", corpus, "-o", arg(&svm), "-v"];
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    let rows = std::fs::read_to_string(&svm).unwrap();
    let labels = rows
        .lines()
        .map(|l| l.split(' ').next().unwrap().to_string())
        .collect();
    (stderr, labels)
}

fn decoded_warnings(stderr: &str) -> usize {
    stderr
        .lines()
        .filter(|l| l.ends_with("not valid UTF-8, decoded as Windows-1252"))
        .count()
}

#[test]
#[ignore = "needs ../shared/corpora"]
fn news_train_has_every_document_and_decodes_latin1() {
    let (stderr, labels) = vectorize(&format!("{NEWS}/train"));
    assert_eq!(labels.len(), 11_314);
    assert!(stderr.contains("11314 documents"), "{stderr}");
    assert!(stderr.contains("44 decoded as Windows-1252"), "{stderr}");
    assert!(stderr.contains("0 binary skipped, 0 failed"), "{stderr}");
    assert!(stderr.contains("20 classes"), "{stderr}");
    assert_eq!(decoded_warnings(&stderr), 44);
    // Every class folder gives its label to its rows: 20 distinct labels, 0..=19.
    let mut distinct: Vec<u32> = labels.iter().map(|l| l.parse().unwrap()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct, (0..20).collect::<Vec<_>>());
}

#[test]
#[ignore = "needs ../shared/corpora"]
fn news_train_and_test_hold_the_73_latin1_files() {
    let (train, _) = vectorize(&format!("{NEWS}/train"));
    let (test, labels) = vectorize(&format!("{NEWS}/test"));
    assert_eq!(labels.len(), 7_532);
    assert_eq!(decoded_warnings(&train) + decoded_warnings(&test), 73);
}

#[test]
#[ignore = "needs ../shared/corpora"]
fn sms_spam_tsv_skips_its_header() {
    let (stderr, labels) = vectorize(SMS);
    assert_eq!(labels.len(), 5_574);
    assert!(stderr.contains("2 classes"), "{stderr}");
    let spam = labels.iter().filter(|l| *l == "1").count();
    assert_eq!((spam, labels.len() - spam), (747, 4_827));
}
