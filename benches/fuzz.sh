#!/usr/bin/env bash
# Fuzzes each cargo-fuzz target in benches/fuzz/ (or the TARGETs named) for SECONDS (default
# 600), one after the other on a single job, and prints each target's run time, executions and
# result.
#
#   benches/fuzz.sh [SECONDS [TARGET...]]
#
# Each target starts from the inputs it has grown before (benches/fuzz/corpus/TARGET, not kept
# in git) and from the seeds and past crashes in tests/fixtures/fuzz/TARGET, which
# tests/fuzz_regressions.rs replays in every `cargo test`. A crash lands in
# benches/fuzz/artifacts/TARGET/; minimize it with `cargo +nightly fuzz tmin -a --fuzz-dir
# benches/fuzz TARGET FILE` and save it beside the seeds once the bug is fixed. The build has
# debug assertions on, so an integer overflow is a crash too, and AddressSanitizer (cargo-fuzz's
# default). libFuzzer reports as a crash any single allocation or a memory peak over 2 GiB, and
# any input taking more than 10 seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-600}
targets=(model_loading line_readers analyzer svmlight cost_matrix serve_requests write_ahead_log)
if [ $# -gt 1 ]; then
    targets=("${@:2}")
fi
fuzz=(cargo +nightly fuzz)
dir=benches/fuzz

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
# One build of every target first, so that no run's time goes to compiling.
"${fuzz[@]}" build --debug-assertions --fuzz-dir "$dir"

logs=$dir/target/logs
mkdir -p "$logs"
results=()
for target in "${targets[@]}"; do
    mkdir -p "$dir/corpus/$target"
    echo "== $target: ${seconds} s" >&2
    start=$(date +%s)
    status=0
    "${fuzz[@]}" run --debug-assertions --fuzz-dir "$dir" "$target" \
        "$dir/corpus/$target" "tests/fixtures/fuzz/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        >"$logs/$target.log" 2>&1 || status=$?
    # libFuzzer's own figures: its run time leaves out the build that `cargo fuzz run` checks
    # first. A run that crashes prints no time, so the wall clock stands in for it.
    elapsed=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$logs/$target.log" | tail -1)
    elapsed=${elapsed:-$(($(date +%s) - start))}
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$target.log" | tail -1)
    if [ "$status" -eq 0 ]; then
        result="no crash"
    else
        found=$(grep -o 'Test unit written to .*' "$logs/$target.log" | tail -1 || true)
        result="CRASH (exit $status) ${found#Test unit written to }"
    fi
    results+=("$(printf '%-14s %6s s %14s executions   %s' "$target" "$elapsed" "${runs:-?}" "$result")")
    echo "${results[-1]}" >&2
done

echo
echo "target         run time        executions   result (logs in $logs/)"
printf '%s\n' "${results[@]}"
