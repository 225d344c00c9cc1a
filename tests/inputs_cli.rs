//! One way to resolve inputs, for every command: `.tsv` and `.jsonl` by extension, JSONL streams
//! recognised by their first byte, FIFOs read as streams, devices refused, and a multi-label
//! folder corpus that joins copies of one file, never files that share a name.

mod common;

use std::path::Path;

use common::{arg, bowline, outcome, train_quietly, write_tree};

/// A model trained on the bundled corpus, in `dir`.
fn bundled_model(dir: &Path) -> std::path::PathBuf {
    let model = dir.join("m.model");
    train_quietly("corpora", &model, "mnb");
    model
}

/// Writes `text` into the FIFO at `path` from a thread, once a reader opens it.
fn feed_fifo(path: &Path, text: &'static str) -> std::thread::JoinHandle<()> {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
    let path = path.to_path_buf();
    std::thread::spawn(move || std::fs::write(path, text).unwrap())
}

#[test]
fn classify_reads_a_jsonl_file_by_its_extension() {
    let dir = tempfile::tempdir().unwrap();
    let model = bundled_model(dir.path());
    let input = dir.path().join("x.jsonl");
    let lines = "{\"id\": \"a\", \"text\": \"the rocket reached orbit\"}\n\
                 {\"id\": \"b\", \"text\": \"bake the bread in the oven\"}\n";
    std::fs::write(&input, lines).unwrap();
    let (code, stdout, stderr) = outcome(&bowline(&["classify", arg(&model), arg(&input)], b""));
    assert_eq!(code, 0, "{stderr}");
    let rows: Vec<Vec<&str>> = stdout
        .lines()
        .map(|line| line.split('\t').take(2).collect())
        .collect();
    assert_eq!(rows, [["a", "space"], ["b", "cooking"]], "{stdout}");
    assert!(stderr.contains("2 documents"), "{stderr}");
}

#[test]
fn learn_reads_jsonl_on_stdin_by_its_first_byte() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    let stream = "{\"label\": \"space\", \"text\": \"rocket orbit\"}\n\
                  {\"label\": \"food\", \"text\": \"bread oven\"}\n";
    let (code, _, stderr) = outcome(&bowline(&["learn", arg(&model)], stream.as_bytes()));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("2 documents"), "{stderr}");
    let (code, stdout, stderr) = outcome(&bowline(&["classify", arg(&model), "-q"], b"orbit\n"));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("1\tspace\t"), "{stdout}");
}

#[test]
fn a_tsv_line_that_looks_like_json_names_the_flag() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    let stream = "{\"label\": \"space\", \"text\": \"rocket orbit\"}\n";
    let args = ["learn", arg(&model), "--input", "tsv"];
    let (code, _, stderr) = outcome(&bowline(&args, stream.as_bytes()));
    assert_ne!(code, 0);
    assert!(stderr.contains("-:1"), "{stderr}");
    assert!(stderr.contains("use --input jsonl"), "{stderr}");
}

#[test]
fn a_fifo_is_read_as_a_stream_of_lines() {
    let dir = tempfile::tempdir().unwrap();
    let model = bundled_model(dir.path());
    let fifo = dir.path().join("pipe");
    let writer = feed_fifo(
        &fifo,
        "the rocket reached orbit\nbake the bread in the oven\n",
    );
    let (code, stdout, stderr) = outcome(&bowline(&["classify", arg(&model), arg(&fifo)], b""));
    writer.join().unwrap();
    assert_eq!(code, 0, "{stderr}");
    let labels: Vec<&str> = stdout
        .lines()
        .map(|line| line.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(labels, ["space", "cooking"], "{stdout}");
}

#[test]
fn a_fifo_of_tsv_trains_as_stdin_does() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let writer = feed_fifo(&fifo, "space\trocket orbit\nfood\tbread oven\n");
    let model = dir.path().join("m.model");
    let args = [
        "train",
        arg(&fifo),
        "-o",
        arg(&model),
        "--classifier",
        "mnb",
    ];
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    writer.join().unwrap();
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("2 documents"), "{stderr}");
}

#[test]
fn devices_are_refused_as_corpora() {
    let dir = tempfile::tempdir().unwrap();
    let model = bundled_model(dir.path());
    for device in ["/dev/null", "/dev/zero"] {
        for args in [
            vec!["classify", arg(&model), device],
            vec!["train", device, "-o", "/tmp/never.model"],
            vec!["stats", device],
        ] {
            let (code, stdout, stderr) = outcome(&bowline(&args, b""));
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert!(stdout.is_empty(), "{args:?}: {stdout}");
            assert!(
                stderr.contains(device) && stderr.contains("neither a regular file nor a folder"),
                "{args:?}: {stderr}"
            );
        }
    }
}

#[test]
fn the_bundled_corpus_as_multi_label_keeps_its_61_documents() {
    let dir = tempfile::tempdir().unwrap();
    let model = dir.path().join("m.model");
    let args = ["train", "corpora", "--multi-label", "-o", arg(&model)];
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    // 61 files below the four class folders, counted by hand with `ls corpora/*/ | wc -l`; no
    // two of them hold the same bytes, though every folder has a 01.txt.
    assert!(stderr.contains("61 documents"), "{stderr}");
    assert!(!stderr.contains("joined"), "{stderr}");
}

#[test]
fn the_same_file_in_two_class_folders_is_one_document_with_two_labels() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("c");
    write_tree(
        &corpus,
        &[
            ("space/a.txt", b"a rocket carries the probe"),
            ("science/copy.txt", b"a rocket carries the probe"),
            ("science/b.txt", b"the cell divides"),
            ("science/c.txt", b"the cell divides again"),
            ("space/b.txt", b"the moon in orbit"),
            ("space/c.txt", b"a satellite in orbit"),
            ("space/d.txt", b"the cell divides"),
        ],
    );
    // A link is the same file too; a file of the same bytes in its own folder is another
    // document of that class.
    std::os::unix::fs::symlink(corpus.join("space/b.txt"), corpus.join("science/moon.txt"))
        .unwrap();
    let model = dir.path().join("m.model");
    let args = ["train", arg(&corpus), "--multi-label", "-o", arg(&model)];
    let (code, _, stderr) = outcome(&bowline(&args, b""));
    assert_eq!(code, 0, "{stderr}");
    // 8 files: copy.txt joins a.txt, moon.txt joins b.txt, and d.txt joins science/b.txt.
    assert!(stderr.contains("5 documents"), "{stderr}");
    assert!(
        stderr.contains("3 files joined to a copy in another class folder"),
        "{stderr}"
    );
    let (code, stdout, stderr) = outcome(&bowline(&["export", "--json", arg(&model)], b""));
    assert_eq!(code, 0, "{stderr}");
    let exported: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(exported["documents"], 5, "{}", exported["documents"]);
}

#[test]
fn a_utf16_file_with_a_byte_order_mark_is_read_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let model = bundled_model(dir.path());
    let file = dir.path().join("note.txt");
    let text = "the rocket reached orbit around the moon";
    let bytes: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    std::fs::write(&file, bytes).unwrap();
    let (code, stdout, stderr) = outcome(&bowline(&["classify", arg(&model), arg(&file)], b""));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("0 binary skipped"), "{stderr}");
    assert_eq!(stdout.split('\t').nth(1), Some("space"), "{stdout}");
}
