//! Hashed models keep arrays for the columns that occur, not for all 2^bits: `--hash-bits 28`
//! trains a small model, which classifies, explains, updates, learns, merges and inspects; and
//! hashed models of every kind predict, explain, export, update, learn and vectorize exactly as
//! when their arrays had every column (outputs recorded then, see
//! `fixtures/make_hashed_outputs.sh`).

mod common;

use std::path::Path;

use common::{arg, bowline, outcome};

/// Runs `bowline args`, failing the test with its stderr unless it succeeds; gives stdout.
fn run(args: &[&str], stdin: &[u8]) -> String {
    let (code, stdout, stderr) = outcome(&bowline(args, stdin));
    assert_eq!(code, 0, "bowline {}: {stderr}", args.join(" "));
    stdout
}

/// `bytes` with the time an export was written masked, as the recording masked it.
fn masked(bytes: &[u8]) -> Vec<u8> {
    const FIELD: &[u8] = b"\"written\":\"";
    let Some(start) = bytes.windows(FIELD.len()).position(|w| w == FIELD) else {
        return bytes.to_vec();
    };
    let value = start + FIELD.len();
    let end = value + bytes[value..].iter().position(|&b| b == b'"').unwrap();
    [&bytes[..value], &bytes[end..]].concat()
}

#[test]
fn hashed_models_give_the_outputs_recorded_when_arrays_had_every_column() {
    let dir = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("bash")
        .args([
            "tests/fixtures/make_hashed_outputs.sh",
            env!("CARGO_BIN_EXE_bowline"),
        ])
        .arg(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    let text = std::fs::read_to_string("tests/fixtures/hashed_outputs.json").unwrap();
    let recorded: serde_json::Value = serde_json::from_str(&text).unwrap();
    let recorded = recorded.as_object().unwrap();
    assert_eq!(recorded.len(), 26);
    for (name, expected) in recorded {
        let bytes = masked(&std::fs::read(dir.path().join(name)).unwrap());
        if let Some(kept) = kept_copy(name) {
            assert_close(&std::fs::read(kept).unwrap(), &bytes, name);
            continue;
        }
        let ours = serde_json::json!({
            "bytes": bytes.len(),
            "crc32": crc32fast::hash(&bytes),
        });
        assert_eq!(&ours, expected, "{name} differs from the recorded output");
    }
}

/// The copy, kept from the recording's binary, of an output whose numbers now differ in their
/// last bits, to compare number by number: labels and text agree, numbers to 1e-12.
/// - Complement NB sums log(α + S_j) over every column: the columns no document reached are
///   added as one product now, not one at a time.
/// - The linear SVM's solver folds the columns that one row alone holds into one column of
///   that row's own, which sums each margin in another order.
fn kept_copy(name: &str) -> Option<std::path::PathBuf> {
    let folder = if name.contains("cnb") && name.ends_with(".jsonl") {
        "hashed_cnb"
    } else if name.contains("svm-") {
        "hashed_svm"
    } else {
        return None;
    };
    Some(Path::new("tests/fixtures").join(folder).join(name))
}

/// Asserts that two JSON Lines texts are equal but for numbers, which agree to 1e-12.
fn assert_close(expected: &[u8], ours: &[u8], name: &str) {
    let lines = |bytes: &[u8]| -> Vec<serde_json::Value> {
        let text = std::str::from_utf8(bytes).unwrap();
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let (expected, ours) = (lines(expected), lines(ours));
    assert_eq!(expected.len(), ours.len(), "{name}");
    for (a, b) in expected.iter().zip(&ours) {
        assert!(close(a, b), "{name}: {a} against {b}");
    }
}

fn close(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            (x.as_f64().unwrap() - y.as_f64().unwrap()).abs() <= 1e-12
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| close(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| close(v, w)))
        }
        _ => a == b,
    }
}

/// The size of the file at `path` in bytes.
fn size(path: &Path) -> u64 {
    std::fs::metadata(path).unwrap().len()
}

#[test]
fn a_model_of_28_hash_bits_is_small_and_does_everything_a_model_does() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name);
    let (mnb, svm) = (path("mnb.model"), path("svm.model"));
    let train = |kind: &str, model: &Path, corpus: &str| {
        let args = [
            "train",
            corpus,
            "--classifier",
            kind,
            "--hash-bits",
            "28",
            "-o",
        ];
        run(&[&args[..], &[arg(model)]].concat(), b"");
        // Before, the arrays had 2^28 columns: 4.3 GB for naive Bayes, 7.5 GB for the SVM.
        assert!(size(model) < 20_000_000, "{kind}: {} bytes", size(model));
    };
    for kind in ["mnb", "cnb", "bnb", "knn"] {
        train(kind, &path(&format!("{kind}.model")), "corpora");
    }
    train("svm", &svm, "corpora");
    let classified = run(
        &["classify", arg(&mnb), "--explain", "2"],
        b"the rocket reached orbit\n",
    );
    assert!(classified.starts_with("1\tspace\t"), "{classified}");
    assert!(classified.contains("=the rocket"), "{classified}");
    let inspected = run(&["inspect", arg(&svm), "--top", "2"], b"");
    assert!(inspected.contains("2^28 columns, signed"), "{inspected}");
    // Updating and learning bring in columns the model never had.
    let more = dir.path().join("more");
    common::write_tree(&more, &[("space/9.txt", b"zyzzyva quasar telescope")]);
    run(&["update", arg(&svm), arg(&more)], b"");
    run(&["update", arg(&mnb), arg(&more)], b"");
    let learned = b"space\tzyzzyva quasar nebula\nsports\tthe team won the match\n";
    run(&["learn", arg(&mnb), "--hash-bits", "28"], learned);
    assert!(size(&mnb) < 20_000_000);
    let classified = run(&["classify", arg(&mnb)], b"zyzzyva nebula\n");
    assert!(classified.starts_with("1\tspace\t"), "{classified}");
    // Two hashed models over different columns (shards of other classes) merge into the union
    // of their columns.
    let shards = [("a", ["cooking", "space"]), ("b", ["computing", "sports"])];
    let mut parts = Vec::new();
    for (name, classes) in shards {
        let shard = dir.path().join(name);
        for class in classes {
            std::fs::create_dir_all(shard.join(class)).unwrap();
            for file in std::fs::read_dir(Path::new("corpora").join(class)).unwrap() {
                let file = file.unwrap().path();
                std::fs::copy(&file, shard.join(class).join(file.file_name().unwrap())).unwrap();
            }
        }
        let model = path(&format!("{name}.model"));
        let counts = [
            "--tf",
            "count",
            "--idf",
            "none",
            "--norm",
            "none",
            "-o",
            arg(&model),
        ];
        let args = [
            "train",
            arg(&shard),
            "--classifier",
            "mnb",
            "--hash-bits",
            "28",
        ];
        run(&[&args[..], &counts[..]].concat(), b"");
        parts.push(model);
    }
    let merged = path("merged.model");
    run(
        &["merge", arg(&parts[0]), arg(&parts[1]), "-o", arg(&merged)],
        b"",
    );
    assert!(size(&merged) < 20_000_000);
    let classified = run(&["classify", arg(&merged)], b"the team won the match\n");
    assert!(classified.starts_with("1\tsports\t"), "{classified}");
    let multi = path("multi.model");
    let args = [
        "train",
        "corpora",
        "--multi-label",
        "--hash-bits",
        "28",
        "-o",
        arg(&multi),
    ];
    run(&args, b"");
    assert!(size(&multi) < 20_000_000);
    run(&["classify", arg(&multi)], b"the rocket reached orbit\n");
}
