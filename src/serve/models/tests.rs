//! The batching of learn requests: requests that wait for the writer together are learned as
//! one update, each answered with its own figures.

use super::*;
use crate::Kind;

/// A small model saved in `dir`, served without leases.
fn served(dir: &Path) -> Served {
    let path = dir.join("m.model");
    let pairs = [
        ("space", "the rocket reached orbit"),
        ("cooking", "bake the bread in a hot oven"),
    ];
    let model = TextClassifier::builder(Kind::Mnb).fit(pairs).unwrap();
    model.save(&path).unwrap();
    Served::load("m".into(), path, false).unwrap()
}

fn one(label: &str) -> Documents {
    vec![(label.to_string(), format!("a document about {label}"))]
}

/// The documents per class of the served model.
fn counts(served: &Served) -> Vec<(String, u64)> {
    let model = served.current().classifier.model().clone();
    model
        .labels
        .into_iter()
        .zip(model.info.docs_per_class)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_that_wait_together_are_learned_as_one_update() {
    let dir = tempfile::tempdir().unwrap();
    let served = std::sync::Arc::new(served(dir.path()));
    let checkpoints = Checkpoints::every(1_000_000);
    // While the writer is busy (held here), eight requests queue; once it is free, the first
    // to take it learns all eight.
    let busy = served.writer.lock().await;
    let requests: Vec<_> = (0..8)
        .map(|i| {
            let (served, checkpoints) = (std::sync::Arc::clone(&served), checkpoints);
            let documents = (0..=i).flat_map(|_| one(&format!("class{i}"))).collect();
            tokio::spawn(async move { served.learn(documents, &checkpoints).await })
        })
        .collect();
    while served.queue.waiting() < 8 {
        tokio::task::yield_now().await;
    }
    drop(busy);
    let mut answers = Vec::new();
    for request in requests {
        answers.push(request.await.unwrap().unwrap());
    }
    // One published version holds them all, and each answer counts its own documents.
    let expected: Vec<(u64, usize, bool)> = (0..8).map(|i| (2, i + 1, false)).collect();
    assert_eq!(answers, expected);
    assert_eq!(served.current().number, 2);
    let learned = counts(&served);
    for i in 0..8u64 {
        let class = format!("class{i}");
        assert!(learned.contains(&(class, i + 1)), "{learned:?}");
    }
    // The log holds them as one record, which a restart (after a crash: nothing was
    // checkpointed) learns again once, into the file.
    drop(served);
    let path = dir.path().join("m.model");
    let restarted = Served::load("m".into(), path.clone(), false).unwrap();
    assert_eq!(counts(&restarted), learned);
    let file = TextClassifier::load(&path).unwrap().into_model();
    let in_file: Vec<_> = file
        .labels
        .into_iter()
        .zip(file.info.docs_per_class)
        .collect();
    assert_eq!(in_file, learned);
}
