#!/usr/bin/env bash
# Peak memory of `bowline classify` on stdin when one line is 1 GB long (a line of "word "
# repeated, then one short line): readers keep at most --max-doc-bytes (plus 64 KiB) of a line
# and read past the rest, so memory follows the size limit, not the line.
#
#   benches/long_line.sh        (prints peak RSS at the default limit, 16 MiB, and at 100 kB)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
target/release/bowline train corpora --classifier mnb -o "$out/m" -q 2>/dev/null
for limit in 16777216 100000; do
    kb=$( (yes 'word ' | tr -d '\n' | head -c 1000000000; printf '\nthe rocket reached orbit\n') |
        /usr/bin/time -f %M target/release/bowline classify "$out/m" --max-doc-bytes "$limit" -q 2>&1 >/dev/null | tail -n 1)
    echo "1 GB line, --max-doc-bytes $limit: peak RSS $((kb / 1024)) MiB"
done
