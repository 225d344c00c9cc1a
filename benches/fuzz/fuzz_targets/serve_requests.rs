//! cargo-fuzz target `serve_requests`: the check in `tests/fuzz_checks/serve_requests.rs`, on libFuzzer's inputs.
#![no_main]

// The checks are shared with the tests, which replay saved inputs through them; each target
// uses one of them.
#[allow(dead_code)]
#[path = "../../../tests/fuzz_checks/mod.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::serve_requests::check(data));
