use super::*;
use crate::analyze::{AnalyzerConfig, Terms, Tokenizer};
use crate::model::{utc_now, NaiveBayes, NbKind, Priors};
use crate::vectorize::{Fitter, VectorizerConfig};

fn model() -> Model {
    let config = VectorizerConfig {
        ngram_weight: 0.7,
        ..VectorizerConfig::default()
    };
    let mut fitter = Fitter::new(config).unwrap();
    for doc in ["a b", "b c"] {
        fitter.add(&doc.split(' ').collect::<Terms>());
    }
    let (vectorizer, x) = fitter.finish(AnalyzerConfig::default()).unwrap();
    let mut nb = NaiveBayes::new(NbKind::Multinomial, 0.5, Priors::Learned, 2, 3).unwrap();
    nb.add(&x, &[0, 1]);
    Model {
        vectorizer,
        labels: vec!["x".into(), "y".into()],
        classifier: Classifier::NaiveBayes(nb),
        info: TrainingInfo {
            corpora: vec!["here".into()],
            docs_per_class: vec![1, 1],
            bowline_version: "0.1.0".into(),
            tuned: None,
            written: utc_now(),
        },
    }
}

fn error_of(bytes: &[u8]) -> String {
    Model::from_bytes(bytes, Path::new("m.bin"))
        .unwrap_err()
        .to_string()
}

#[test]
fn round_trips_through_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.bin");
    let original = model();
    original.save(&path).unwrap();
    assert_eq!(Model::load(&path).unwrap(), original);
}

#[test]
fn every_kind_of_bad_file_has_its_own_message() {
    let bytes = model().to_bytes().unwrap();
    assert!(error_of(b"{\"json\": true}").contains("m.bin: not a bowline model file"));
    for short in [&b""[..], b"BOW", &bytes[..MAGIC.len() - 1]] {
        assert!(error_of(short).contains("not a bowline model file"));
    }
    assert!(error_of(MAGIC).contains("header is incomplete"));
    // A header of format 4 is complete at 24 bytes; what it counts after them is missing.
    let old = std::fs::read("tests/fixtures/model-v4-svm.bowline").unwrap();
    let cut = format!("truncated model file: {HEADER} of {} bytes", old.len());
    assert!(error_of(&old[..HEADER]).contains(&cut));
    assert!(error_of(&bytes[..10]).contains("header is incomplete"));
    assert!(error_of(&bytes[..HEADER_6 - 1]).contains("header is incomplete"));
    let cut = format!("truncated model file: {HEADER_6} of {} bytes", bytes.len());
    assert!(error_of(&bytes[..HEADER_6]).contains(&cut));
    assert!(error_of(&bytes[..bytes.len() - 5]).contains("truncated model file"));
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0xFF;
    assert!(error_of(&flipped).contains("checksum mismatch"));
    let mut future = bytes.clone();
    future[8..12].copy_from_slice(&(versions::NEWEST + 1).to_le_bytes());
    let newer = format!("format version {}", versions::NEWEST + 1);
    assert!(error_of(&future).contains(&newer));
    assert!(Model::load(Path::new("/no/such/model"))
        .unwrap_err()
        .to_string()
        .contains("/no/such/model"));
}

#[test]
fn dates_are_iso_8601() {
    let now = utc_now();
    assert_eq!(now.len(), 20);
    assert!(now.starts_with("20") && now.ends_with('Z'), "{now}");
}

#[test]
fn a_well_formed_file_with_inconsistent_parts_is_refused() {
    let mut broken = model();
    if let Classifier::NaiveBayes(nb) = &mut broken.classifier {
        // Features 1 and 2 now lie beyond the model's single feature.
        nb.remap(&[0, 1, 2], 1, 2);
    }
    let bytes = broken.to_bytes().unwrap();
    let error = error_of(&bytes);
    assert!(
        error.contains("corrupted model file: naive Bayes sums"),
        "{error}"
    );
}

#[cfg(unix)]
#[test]
fn the_lock_removes_what_killed_writers_left_and_every_name_shares_it() {
    let dir = tempfile::tempdir().unwrap();
    let (model_path, link) = (dir.path().join("m.model"), dir.path().join("link.model"));
    model().save(&model_path).unwrap();
    std::os::unix::fs::symlink("m.model", &link).unwrap();
    let left = dir.path().join(".m.model.4242.tmp");
    std::fs::write(&left, b"half a model").unwrap();
    let _lock = ModelLock::acquire(&link).unwrap();
    assert!(!left.exists());
    assert!(dir.path().join(".m.model.lock").exists());
    assert!(!dir.path().join(".link.model.lock").exists());
}

#[test]
fn a_model_with_a_class_name_missing_or_too_many_is_refused() {
    for labels in [
        vec!["x".to_string()],
        vec![],
        vec!["x".into(), "y".into(), "z".into()],
    ] {
        let mut broken = model();
        let count = labels.len();
        broken.labels = labels;
        let error = error_of(&broken.to_bytes().unwrap());
        let expected = format!("{count} class names for a classifier of 2 classes");
        assert!(error.contains(&expected), "{error}");
    }
}

#[test]
fn a_model_whose_classifier_has_other_features_than_its_terms_is_refused() {
    let mut broken = model();
    if let Classifier::NaiveBayes(nb) = &mut broken.classifier {
        // Naive Bayes keeps its three features and claims a fourth.
        nb.remap(&[0, 1, 2], 4, 2);
    }
    let error = error_of(&broken.to_bytes().unwrap());
    assert!(
        error.contains("3 terms for a classifier of 4 features"),
        "{error}"
    );
}

#[test]
fn a_file_of_todays_format_holds_its_arrays_in_sections_that_load_in_place() {
    let original = model();
    let bytes = original.to_bytes().unwrap();
    assert_eq!(bytes[8..12], FORMAT_VERSION.to_le_bytes());
    assert_eq!(FORMAT_VERSION, 9);
    let sections = u64_at(&bytes, 24) as usize;
    assert!(sections > 0 && sections.is_multiple_of(sections::ALIGN));
    let read = Model::from_bytes(&bytes, Path::new("m.bin")).unwrap();
    assert_eq!(read, original);
    assert_eq!(read.vectorizer.config().ngram_weight, 0.7);
    assert_eq!(
        read.to_bytes().unwrap(),
        bytes,
        "a model read back writes the same"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.model");
    original.save(&path).unwrap();
    let mapped = Model::load(&path).unwrap();
    assert_eq!(mapped, original);
    let (row, mut mapped_scores, mut scores) = (([0u32, 2], [1.0, 2.0]), [0.0; 2], [0.0; 2]);
    mapped.classifier.scores(&row.0, &row.1, &mut mapped_scores);
    original.classifier.scores(&row.0, &row.1, &mut scores);
    assert_eq!(mapped_scores, scores);
}

#[test]
fn a_model_with_another_tokenizer_is_written_in_its_own_format_and_read_back_whole() {
    let mut fitter = Fitter::new(VectorizerConfig::default()).unwrap();
    fitter.add(&["a", "b", "c"].into_iter().collect::<Terms>());
    let analysis = AnalyzerConfig {
        tokenizer: Tokenizer::WordRuns,
        ..AnalyzerConfig::default()
    };
    let (vectorizer, _) = fitter.finish(analysis).unwrap();
    let original = Model {
        vectorizer,
        ..model()
    };
    let bytes = original.to_bytes().unwrap();
    assert_eq!(bytes[8..12], TOKENIZER_FORMAT_VERSION.to_le_bytes());
    assert_eq!(TOKENIZER_FORMAT_VERSION, 14);
    let read = Model::from_bytes(&bytes, Path::new("m.bin")).unwrap();
    assert_eq!(read.vectorizer.analyzer().tokenizer, Tokenizer::WordRuns);
    assert_eq!(read, original);
    assert_eq!(
        read.to_bytes().unwrap(),
        bytes,
        "read back, it writes the same"
    );
}

#[test]
fn a_damaged_file_of_format_6_is_refused_naming_the_part() {
    let bytes = model().to_bytes().unwrap();
    assert!(error_of(&bytes[..bytes.len() - 1]).contains("truncated model file"));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(error_of(&longer).contains("corrupted model file"));
    let mut sections_too_long = bytes.clone();
    sections_too_long[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(error_of(&sections_too_long).contains("corrupted model file"));
    let mut flipped = bytes.clone();
    flipped[HEADER_6] ^= 0x01;
    let error = error_of(&flipped);
    assert!(
        error.contains("checksum mismatch in the sections"),
        "{error}"
    );
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x01;
    let error = error_of(&flipped);
    assert!(
        error.contains("checksum mismatch in the postcard part"),
        "{error}"
    );
    let mut unaligned = bytes.clone();
    unaligned[HEADER_6 - 1] = 1;
    assert!(error_of(&unaligned).contains("alignment bytes"));
}

/// A model of [`model`]'s vectorizer with a kernel SVM trained on its rows, calibrated or not.
fn kernel_model(calibrated: bool) -> Model {
    use crate::model::kernel_svm::{Kernel, KernelKind};
    use crate::model::{KernelSvm, KernelSvmParams};
    let mut fitter = Fitter::new(VectorizerConfig::default()).unwrap();
    let docs = ["a b", "b c", "a a d", "c d d", "a b d", "c c b"];
    docs.iter()
        .for_each(|doc| fitter.add(&doc.split(' ').collect::<Terms>()));
    let (vectorizer, x) = fitter.finish(AnalyzerConfig::default()).unwrap();
    let params = KernelSvmParams {
        kernel: Kernel {
            degree: 2,
            coef0: 1.0,
            ..Kernel::new(KernelKind::Poly)
        },
        c: 10.0,
        ..KernelSvmParams::default()
    };
    let labels = [0, 1, 0, 1, 0, 1];
    let train = match calibrated {
        true => KernelSvm::train_calibrated,
        false => KernelSvm::train,
    };
    Model {
        vectorizer,
        labels: vec!["x".into(), "y".into()],
        classifier: Classifier::KernelSvm(Box::new(train(&x, &labels, 2, &params).unwrap())),
        ..model()
    }
}

#[test]
fn a_kernel_svm_round_trips_in_its_own_format_and_scores_the_same() {
    for calibrated in [false, true] {
        let original = kernel_model(calibrated);
        let svm = original.classifier.kernel_svm().unwrap();
        assert!(svm.support_vectors() > 0);
        assert_eq!(svm.is_calibrated(), calibrated);
        let bytes = original.to_bytes().unwrap();
        assert_eq!(bytes[8..12], KERNEL_FORMAT_VERSION.to_le_bytes());
        assert_eq!(KERNEL_FORMAT_VERSION, 13);
        let read = Model::from_bytes(&bytes, Path::new("m.bin")).unwrap();
        assert_eq!(read, original);
        assert_eq!(
            read.to_bytes().unwrap(),
            bytes,
            "read back, it writes the same"
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.model");
        original.save(&path).unwrap();
        let mapped = Model::load(&path).unwrap();
        for row in [
            (vec![0u32, 2], vec![0.6, 0.8]),
            (vec![1, 3], vec![1.0, 0.0]),
        ] {
            let (mut before, mut after) = ([0.0; 2], [0.0; 2]);
            original.classifier.scores(&row.0, &row.1, &mut before);
            mapped.classifier.scores(&row.0, &row.1, &mut after);
            assert_eq!(before, after);
            assert_eq!(before[0], -before[1], "two classes are one problem");
        }
    }
    // A model of another kind is written in its format, as before.
    assert_eq!(
        model().to_bytes().unwrap()[8..12],
        FORMAT_VERSION.to_le_bytes()
    );
}

/// `to_bytes` fills a buffer of the size the header computed, so the buffer never grows: a
/// wrong length would leave spare capacity or reallocate.
#[test]
fn a_model_is_encoded_into_a_buffer_of_its_exact_size() {
    for model in [model(), kernel_model(false)] {
        let bytes = model.to_bytes().unwrap();
        assert_eq!(bytes.capacity(), bytes.len());
    }
}

/// `Model::read` (serve's copy of the file) takes the sections' path for format 6 and later and
/// the whole-payload one before it, and gives what the mapped `Model::load` gives either way.
#[test]
fn a_model_read_into_memory_equals_the_mapped_one_in_old_and_new_formats() {
    for (fixture, format) in [("model-v4-svm", 4), ("model-v9-svm-tuned", 9)] {
        let path = Path::new("tests/fixtures").join(format!("{fixture}.bowline"));
        assert_eq!(std::fs::read(&path).unwrap()[8..12], [format, 0, 0, 0]);
        assert_eq!(Model::read(&path).unwrap(), Model::load(&path).unwrap());
    }
}

/// A checkpoint in the write-ahead log names the model file it wrote by this fingerprint, so
/// two different files must differ in it, and the one read from a file must be the one computed
/// from its bytes when it was written: the header, in hex.
#[test]
fn a_fingerprint_is_the_files_header_in_hex_and_tells_two_files_apart() {
    let dir = tempfile::tempdir().unwrap();
    let mut prints = Vec::new();
    for (name, model) in [("a", model()), ("b", kernel_model(false))] {
        let path = dir.path().join(name);
        model.save(&path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let hex: String = bytes[..HEADER_6]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(Model::fingerprint_of(&bytes), hex);
        assert_eq!(Model::fingerprint(&path).unwrap(), hex);
        prints.push(hex);
    }
    assert_ne!(prints[0], prints[1]);
}
