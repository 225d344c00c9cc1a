#!/usr/bin/env bash
# Peak memory and throughput of `bowline train --classifier mnb` on a corpus larger than memory
# should need: 20 Newsgroups train repeated with distinct ids into one JSONL file of SIZE bytes
# (default 5 GB; written to a temporary folder and removed afterwards, never committed), trained
# with the default `--passes auto` (two passes from 256 MiB). A second, smaller corpus (a tenth
# of SIZE, at most 250 MB) is trained with one pass and with two, to show what each holds.
#
#   benches/large_corpus.sh [SIZE]      (default 5e9; needs ../shared/corpora)
set -euo pipefail
size=${1:-5e9}
cd "$(dirname "$0")/.."
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bowline=target/release/bowline
generate() {
    python3 benches/repeat_corpus.py ../shared/corpora/20news-bydate/train "$1" "$2"
}
# Peak RSS (MiB) and seconds of training on $1 with the flags after it.
train() {
    local corpus=$1
    shift
    /usr/bin/time -f '%M %e' "$bowline" train "$corpus" --classifier mnb -o "$out/m" -q "$@" 2>&1 |
        tail -n 1 | awk -v bytes="$(stat -c %s "$corpus")" -v flags="$*" \
            '{ printf "%-12s peak RSS %5d MiB, %6.1f s, %5.1f MB/s\n", flags, $1 / 1024, $2, bytes / $2 / 1e6 }'
}
small=$(python3 -c "print(min(float('$size') / 10, 2.5e8))")
generate "$out/small.jsonl" "$small"
train "$out/small.jsonl" --passes 1
train "$out/small.jsonl" --passes 2
rm "$out/small.jsonl"
generate "$out/large.jsonl" "$size"
train "$out/large.jsonl"
