//! A short smoke of each fuzz target, as property tests: proptest builds inputs shaped like the
//! interesting ones (damaged models, lines with tabs, carriage returns and Latin-1 bytes, JSON
//! records, mixed-script text, extreme floats, near-valid cost matrices) and runs them through
//! the same checks as cargo-fuzz (`tests/fuzz_checks/`). The long runs are `benches/fuzz.sh`.

mod fuzz_checks;

use std::sync::OnceLock;

use bowline::{Kind, TextClassifier};
use fuzz_checks::svmlight::Row;
use fuzz_checks::{analyzer, cost_matrix, line_readers, model_loading, svmlight};
use proptest::prelude::*;

/// Cases per target: enough to meet each check's main paths in a few seconds of a debug build.
const CASES: u32 = 256;

/// The payloads (the model file after its 24-byte header) of small models of every kind.
fn payloads() -> &'static [Vec<u8>] {
    static PAYLOADS: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    PAYLOADS.get_or_init(|| {
        models()
            .iter()
            .map(|model| postcard::to_stdvec(model.model()).expect("a payload"))
            .collect()
    })
}

/// One of each kind of model as a file of format 6, cut into its arrays and its postcard part.
fn sections_and_meta() -> &'static [(Vec<u8>, Vec<u8>)] {
    static PARTS: OnceLock<Vec<(Vec<u8>, Vec<u8>)>> = OnceLock::new();
    PARTS.get_or_init(|| {
        models()
            .iter()
            .map(|model| {
                let file = model.model().to_bytes().expect("bytes");
                let sections = u64::from_le_bytes(file[24..32].try_into().unwrap()) as usize;
                let (sections, meta) = file[40..].split_at(sections);
                (sections.to_vec(), meta.to_vec())
            })
            .collect()
    })
}

/// One model of each kind. A payload of format 4 is the model in postcard outside a file of
/// format 6, whose arrays are then packed byte strings.
fn models() -> Vec<TextClassifier> {
    let pairs = [
        ("space", "the rocket reached orbit"),
        ("space", "a rocket launch to the moon"),
        ("food", "bake the bread in the oven"),
        ("food", "roast onions in a hot oven"),
    ];
    [Kind::Mnb, Kind::Cnb, Kind::Bnb, Kind::Svm, Kind::Knn]
        .into_iter()
        .map(|kind| TextClassifier::builder(kind).fit(pairs).expect("a model"))
        .collect()
}

/// An edit of a payload: replace, insert or remove the byte at a position (modulo the length).
#[derive(Debug, Clone)]
enum Edit {
    Replace(usize, u8),
    Insert(usize, u8),
    Remove(usize),
}

fn apply(bytes: &mut Vec<u8>, edit: &Edit) {
    let at = |i: &usize, len: usize| if len == 0 { 0 } else { i % len };
    match edit {
        Edit::Replace(i, b) if !bytes.is_empty() => {
            let i = at(i, bytes.len());
            bytes[i] = *b;
        }
        Edit::Insert(i, b) => bytes.insert(at(i, bytes.len() + 1), *b),
        Edit::Remove(i) if !bytes.is_empty() => {
            bytes.remove(at(i, bytes.len()));
        }
        _ => {}
    }
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Replace(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Insert(i, b)),
        any::<usize>().prop_map(Edit::Remove),
    ];
    prop::collection::vec(edit, 0..4)
}

/// A line of bytes that the line readers find interesting.
fn line() -> impl Strategy<Value = Vec<u8>> {
    let raw = prop::collection::vec(
        prop::sample::select(b"ab \t\r{}\":,[]\xE9\xC3\xA9\xEF\xBB\xBFlid".to_vec()),
        0..40,
    );
    let tsv =
        ("[a-z ]{0,6}", "[a-zé\t ]{0,20}").prop_map(|(l, t)| format!("{l}\t{t}").into_bytes());
    let record = (
        prop::option::of("[a-z]{1,5}"),
        "[a-zé\"\\\\ ]{0,20}",
        any::<bool>(),
    )
        .prop_map(|(label, text, id)| {
            let mut record = serde_json::json!({ "text": text });
            if let Some(label) = label {
                record["label"] = label.into();
            }
            if id {
                record["id"] = 7.into();
            }
            record.to_string().into_bytes()
        });
    let crlf = prop_oneof![Just(b"\n".to_vec()), Just(b"\r\n".to_vec())];
    (prop_oneof![raw, tsv, record], crlf).prop_map(|(mut line, end)| {
        line.extend(end);
        line
    })
}

/// Text for the tokenizer: mostly ASCII with the characters UAX #29 treats specially, or
/// mixed scripts.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 .,:;'_@\\-\t\n]{0,120}",
        "[a-zA-Z0-9 .,'_éÉ東京はİΣς👍\u{300}\u{2019}]{0,60}",
    ]
}

fn rows() -> impl Strategy<Value = Vec<Row>> {
    let value = prop_oneof![
        any::<f64>(),
        (-1e16..1e16f64).prop_map(f64::round),
        Just(0.5)
    ];
    let row = (
        any::<i64>(),
        prop::collection::vec((any::<u32>(), value), 0..6),
    )
        .prop_map(|(label, entries)| Row {
            label,
            indices: entries.iter().map(|e| e.0).collect(),
            values: entries.iter().map(|e| e.1).collect(),
        });
    prop::collection::vec(row, 0..8)
}

/// A cost matrix for the first `count` classes, valid until `damage` changes one thing: a cell
/// that is no number, a row or column twice or missing, a cost too few.
fn cost_text(count: usize, costs: &[f64], damage: u8) -> String {
    let labels = &cost_matrix::LABELS[..count];
    let mut lines = vec![
        "# costs".to_string(),
        format!("predicted\\true\t{}", labels.join("\t")),
    ];
    for (p, label) in labels.iter().enumerate() {
        let cells: Vec<String> = (0..count)
            .map(|t| costs[(p * 4 + t) % costs.len()].to_string())
            .collect();
        lines.push(format!("{label}\t{}", cells.join("\t")));
    }
    match damage % 8 {
        0 if count > 0 => lines[2] = format!("{}\tnan", labels[0]),
        1 if count > 0 => lines.push(lines[2].clone()),
        2 if count > 0 => {
            lines.pop();
        }
        3 => lines[1].push_str("\tham"),
        4 => lines.insert(1, String::new()),
        _ => {}
    }
    lines.join(if damage.is_multiple_of(2) {
        "\n"
    } else {
        "\r\n"
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn model_loading_smoke(kind in 0..5usize, whole_file in any::<bool>(), edits in edits()) {
        // Edits to the whole file mostly meet the header's checks; edits to the payload, framed
        // again by the check, reach the decoder.
        let (mode, mut bytes) = if whole_file {
            (0, model_loading::framed(4, &payloads()[kind]))
        } else {
            (1, payloads()[kind].clone())
        };
        edits.iter().for_each(|edit| apply(&mut bytes, edit));
        model_loading::check(&[&[mode][..], &bytes].concat());
    }

    #[test]
    fn model_loading_smoke_format_6(kind in 0..5usize, in_meta in any::<bool>(), edits in edits()) {
        // Edits to the arrays reach the checks of what scoring reads in place; edits to the
        // postcard part reach its decoder and the arrays' bounds.
        let (mut sections, mut meta) = sections_and_meta()[kind].clone();
        let part = if in_meta { &mut meta } else { &mut sections };
        edits.iter().for_each(|edit| apply(part, edit));
        let words = u16::try_from(sections.len().div_ceil(8)).expect("a small model");
        sections.resize(usize::from(words) * 8, 0);
        let data = [&[3][..], &words.to_le_bytes(), &sections, &meta].concat();
        model_loading::check(&data);
    }

    #[test]
    fn line_readers_smoke(
        flags in any::<u8>(),
        limit in prop_oneof![0..40u8, Just(255u8)],
        at in any::<u8>(),
        run in any::<u8>(),
        lines in prop::collection::vec(line(), 0..6),
    ) {
        let data = [vec![flags, limit, at, run], lines.concat()].concat();
        line_readers::check(&data);
    }

    #[test]
    fn analyzer_smoke(min in any::<u8>(), max in any::<u8>(), flags in any::<u8>(), text in text()) {
        analyzer::check(&[&[min, max, flags][..], text.as_bytes()].concat());
    }

    #[test]
    fn svmlight_smoke(rows in rows()) {
        svmlight::round_trip(&rows);
    }

    #[test]
    fn cost_matrix_smoke(
        count in 0..5usize,
        costs in prop::collection::vec(-1e3..1e3f64, 1..16),
        damage in any::<u8>(),
    ) {
        let text = cost_text(count, &costs, damage);
        cost_matrix::check(&[&[count as u8][..], text.as_bytes()].concat());
    }

    #[test]
    fn every_target_on_raw_bytes(target in 0..fuzz_checks::TARGETS.len(), data in prop::collection::vec(any::<u8>(), 0..300)) {
        (fuzz_checks::TARGETS[target].1)(&data);
    }
}
