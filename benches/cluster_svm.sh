#!/usr/bin/env bash
# The SVM in cluster mode by CoCoA+ (`train --cocoa`): `train` (the default SVM) in one ordinary process, then in
# cluster mode as one process and as two processes on loopback, each for ROUNDS rounds, with the
# time, peak RSS, rounds and bytes exchanged that process 0 reports, and each model's accuracy on
# the test split. Needs python3 (for free ports); builds bowline in release.
#   benches/cluster_svm.sh [NEWS_ROOT]   # default ../shared/corpora/20news-bydate; ROUNDS=20
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
news=${1:-../shared/corpora/20news-bydate}
rounds=${ROUNDS:-20}
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bowline=target/release/bowline
python3 -c 'import socket
for _ in range(2):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); print("127.0.0.1:%d" % s.getsockname()[1]); s.close()' > "$out/hosts"
timed() { /usr/bin/time -f "  %e s, peak RSS %M KB" "$@" 2>&1 | grep -v warning; }
accuracy() { $bowline eval "$1" "$news/test" -q | head -1; }
echo "one process"; uptime
timed $bowline train "$news/train" -o "$out/single.model" -q
accuracy "$out/single.model"
echo "cluster mode, 1 process, $rounds rounds"; uptime
timed $bowline train "$news/train" -o "$out/one.model" --processes 1 --cocoa --max-iterations "$rounds"
accuracy "$out/one.model"
echo "cluster mode, 2 processes, $rounds rounds"; uptime
$bowline train "$news/train" -o "$out/two.model" --hostfile "$out/hosts" --process 1 -q \
    --cocoa --max-iterations "$rounds" &
timed $bowline train "$news/train" -o "$out/two.model" --hostfile "$out/hosts" --process 0 \
    --cocoa --max-iterations "$rounds"
wait
accuracy "$out/two.model"
