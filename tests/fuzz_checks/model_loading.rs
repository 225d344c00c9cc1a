//! Target `model_loading`: [`Model::from_bytes`] on any bytes returns `Ok` or `Err` and never
//! panics, and a model it accepts is one bowline can use: it writes back to bytes that read as
//! the same model, and it classifies text.

use std::path::Path;

use bowline::model::Model;
use bowline::TextClassifier;

use super::parameters;

const MAGIC: &[u8; 8] = b"BOWLINE\x01";

/// The check on [`file_of`] `data`.
pub fn check(data: &[u8]) {
    let bytes = file_of(data);
    let path = Path::new("fuzz.bowline");
    let Ok(model) = Model::from_bytes(&bytes, path) else {
        return;
    };
    let written = model.to_bytes().expect("an accepted model can be written");
    let reread = Model::from_bytes(&written, path).expect("a written model reads back");
    let rewritten = reread.to_bytes().expect("a model read back can be written");
    assert!(written == rewritten, "writing a model read back changed it");
    classify(reread);
}

/// The model file an input stands for. Byte 0 says how to read the rest: 0, as a whole file; 1
/// or 2, as the payload of a file of format 4 or 3, which is framed here with a correct header;
/// 3, as the arrays and postcard part of a file of format 6, the next two bytes counting the
/// arrays' 8-byte words, framed with a correct header. Random bytes almost never pass the
/// header's CRC-32, so without framing the decoder behind it would go untested.
pub fn file_of(data: &[u8]) -> Vec<u8> {
    let ([mode], rest) = parameters::<1>(data);
    match mode % 4 {
        0 => rest.to_vec(),
        1 => framed(4, rest),
        2 => framed(3, rest),
        _ => {
            let (words, rest) = parameters::<2>(rest);
            let split = (usize::from(u16::from_le_bytes(words)) * 8).min(rest.len());
            framed_6(&rest[..split], &rest[split..])
        }
    }
}

/// The file bowline would write around `payload` in format `version` (3 to 5).
pub fn framed(version: u32, payload: &[u8]) -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&version.to_le_bytes());
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    bytes.extend_from_slice(payload);
    bytes
}

/// The file of format 6 bowline would write around `sections` and the postcard part `meta`.
pub fn framed_6(sections: &[u8], meta: &[u8]) -> Vec<u8> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&6u32.to_le_bytes());
    bytes.extend_from_slice(&(meta.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&crc32fast::hash(meta).to_le_bytes());
    bytes.extend_from_slice(&(sections.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&crc32fast::hash(sections).to_le_bytes());
    bytes.extend_from_slice(&[0; 4]);
    bytes.extend_from_slice(sections);
    bytes.extend_from_slice(meta);
    bytes
}

/// Classifies an empty text, text of unknown words and text of the model's own terms: each
/// gives one probability per class.
fn classify(model: Model) {
    let terms: Vec<String> = model
        .vectorizer
        .terms()
        .iter()
        .take(32)
        .map(String::from)
        .collect();
    let labels = model.labels.len();
    let Ok(classifier) = TextClassifier::from_model(model) else {
        return;
    };
    for text in ["", "zzqx unknown words", &terms.join(" ")] {
        if let Ok(prediction) = classifier.predict(text) {
            assert_eq!(prediction.ranked.len(), labels, "one probability per class");
        }
    }
}
