//! Every input saved under `tests/fixtures/fuzz/TARGET/`, replayed through the check its fuzz
//! target runs (`tests/fuzz_checks/`): the crashes fuzzing found, minimized, stay fixed, and the
//! seed inputs keep each check exercised in a plain `cargo test`.

mod fuzz_checks;

use std::path::{Path, PathBuf};

use bowline::model::Model;

/// Runs every file in the target's folder through its check, naming the file that fails.
fn replay(target: &str) {
    let (_, check) = fuzz_checks::TARGETS
        .into_iter()
        .find(|(name, _)| *name == target)
        .expect("a known target");
    let folder = fixtures(target);
    let files = inputs(&folder);
    assert!(!files.is_empty(), "{} holds no input", folder.display());
    for file in files {
        let data = std::fs::read(&file).expect("a readable input");
        let outcome = std::panic::catch_unwind(|| check(&data));
        assert!(outcome.is_ok(), "{} fails (see above)", file.display());
    }
}

fn fixtures(target: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/fuzz")
        .join(target)
}

/// The files in `folder`, sorted.
fn inputs(folder: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .map(|entry| entry.expect("a readable folder").path())
        .collect();
    files.sort();
    files
}

#[test]
fn model_loading() {
    replay("model_loading");
}

/// The seeds of `model_loading` are models bowline wrote (one of each kind, a calibrated SVM, a
/// selection, a format 3 file): the checks on loading must accept every one of them.
#[test]
fn the_seed_models_load() {
    let folder = fixtures("model_loading");
    for file in inputs(&folder) {
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        if name.starts_with("seed-") {
            let data = std::fs::read(&file).expect("a readable input");
            let file = fuzz_checks::model_loading::file_of(&data);
            if let Err(e) = Model::from_bytes(&file, Path::new(name.as_ref())) {
                panic!("{e}");
            }
        }
    }
}

#[test]
fn line_readers() {
    replay("line_readers");
}

#[test]
fn analyzer() {
    replay("analyzer");
}

#[test]
fn svmlight() {
    replay("svmlight");
}

#[test]
fn cost_matrix() {
    replay("cost_matrix");
}

#[test]
fn serve_requests() {
    replay("serve_requests");
}

#[test]
fn write_ahead_log() {
    replay("write_ahead_log");
}

#[test]
fn every_target_has_a_test_here() {
    let names: Vec<&str> = fuzz_checks::TARGETS.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        names,
        [
            "model_loading",
            "line_readers",
            "analyzer",
            "svmlight",
            "cost_matrix",
            "serve_requests",
            "write_ahead_log"
        ]
    );
}
