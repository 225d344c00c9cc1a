//! Outputs are checked before any work, never land inside an input, and a replaced file keeps
//! its permission bits.

mod common;

use std::os::unix::fs::PermissionsExt;

use common::{arg, bowline, outcome, train_quietly};

#[test]
fn an_output_inside_an_input_folder_is_refused_and_the_document_kept() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c");
    common::write_tree(
        &corpus,
        &[
            ("space/01.txt", b"rocket orbit"),
            ("food/01.txt", b"bread oven"),
        ],
    );
    let document = corpus.join("space/01.txt");
    for output in [document.clone(), corpus.join("new.model")] {
        let args = ["train", arg(&corpus), "-o", arg(&output)];
        let (code, _, stderr) = outcome(&bowline(&args, b""));
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("is inside the input"), "{stderr}");
    }
    assert_eq!(std::fs::read(&document).unwrap(), b"rocket orbit");
    assert!(!corpus.join("new.model").exists());
}

#[test]
fn a_missing_output_folder_is_named_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let output = dir.path().join("nodir/x/m.model");
    let args = ["train", "corpora", "-o", arg(&output)];
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 2, "{stderr}");
    let folder = dir.path().join("nodir/x");
    let expected = format!("its folder {} does not exist", folder.display());
    assert!(stderr.contains(&expected), "{stderr}");
    // Checked first: no training summary was printed.
    assert!(!stderr.contains("trained"), "{stderr}");
}

#[test]
fn a_rewritten_model_keeps_its_permission_bits() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    train_quietly("corpora", &model, "mnb");
    std::fs::set_permissions(&model, std::fs::Permissions::from_mode(0o600)).unwrap();
    let update = dir.path().join("more.tsv");
    std::fs::write(&update, "space\tthe probe reached the comet\n").unwrap();
    let (code, _, stderr) = outcome(&bowline(&["update", arg(&model), arg(&update), "-q"], b""));
    assert_eq!(code, 0, "{stderr}");
    let mode = std::fs::metadata(&model).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
}
