//! The checks behind each fuzz target, shared by three callers so that all of them test the same
//! thing: the cargo-fuzz targets in `benches/fuzz/` (which include this folder by path), the
//! replay of every saved input in `tests/fuzz_regressions.rs`, and the proptest smoke in
//! `tests/fuzz_smoke.rs`.
//!
//! Each check takes arbitrary bytes, so that any input libFuzzer finds can be saved as a file
//! and replayed as it is. It panics when bowline breaks its contract on that input: a panic
//! inside bowline, or a result that differs from what the documentation promises.

pub mod analyzer;
pub mod cost_matrix;
pub mod line_readers;
pub mod model_loading;
pub mod serve_requests;
pub mod svmlight;
pub mod write_ahead_log;

/// A target's check: it panics when bowline breaks its contract on the input.
pub type Check = fn(&[u8]);

/// Every target's name (its folder under `tests/fixtures/fuzz/` and its binary in
/// `benches/fuzz/`) with its check.
pub const TARGETS: [(&str, Check); 7] = [
    ("model_loading", model_loading::check),
    ("line_readers", line_readers::check),
    ("analyzer", analyzer::check),
    ("svmlight", svmlight::check),
    ("cost_matrix", cost_matrix::check),
    ("serve_requests", serve_requests::check),
    ("write_ahead_log", write_ahead_log::check),
];

/// Splits the first `N` bytes off `data` as parameters; missing bytes read as 0, so that every
/// input, even an empty one, is a valid case.
pub fn parameters<const N: usize>(data: &[u8]) -> ([u8; N], &[u8]) {
    let mut head = [0u8; N];
    let n = data.len().min(N);
    head[..n].copy_from_slice(&data[..n]);
    (head, &data[n..])
}
