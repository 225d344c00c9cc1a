#!/usr/bin/env bash
# Where the default `train` (linear SVM) spends its time on 20 Newsgroups, per stage: perf samples
# each run at 499 Hz and benches/stages.py charges each sample to a stage (read and analyze, count
# terms, vocabulary and weights and rows, solver, model write). With BEFORE set to another build
# of bowline, the two binaries run alternately, each RUNS times, and both are printed; then each
# run again under /usr/bin/time for the whole wall time and peak RSS. Needs `perf`.
#
#   benches/stages.sh [TRAIN]      (default ../shared/corpora/20news-bydate/train; RUNS=3)
#   BEFORE=target/old/release/bowline benches/stages.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
train=${1:-../shared/corpora/20news-bydate/train}
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
declare -A bins=([after]=target/release/bowline)
[ -n "${BEFORE:-}" ] && bins[before]=$BEFORE
for i in $(seq "${RUNS:-3}"); do
    for side in "${!bins[@]}"; do
        perf record -q -F 499 -g -o "$out/$side$i.data" "${bins[$side]}" train "$train" \
            -o "$out/$side.model" -q 2> /dev/null
        perf script -i "$out/$side$i.data" -F tid,time,ip,sym 2> /dev/null > "$out/$side$i.txt"
        /usr/bin/time -f "$side: %e s wall, %U s user, %S s system, peak RSS %M KB" \
            "${bins[$side]}" train "$train" -o "$out/$side.model" -q 2>&1 | grep -v warning
    done
done
uptime
for side in "${!bins[@]}"; do
    echo "$side (${bins[$side]}), median of ${RUNS:-3}:"
    python3 benches/stages.py 499 "$out/$side"*.txt
done
