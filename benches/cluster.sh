#!/usr/bin/env bash
# Cluster-mode throughput: `train --classifier mnb` (integer weights, the settings cluster mode
# trains exactly) in one ordinary process, in cluster mode as 1 process, and as 2 processes on
# loopback (each with all threads, and each with -j 1), and the bytes of partial models gathered
# at process 0. Needs hyperfine and python3 (for free ports); builds bowline in release.
#   benches/cluster.sh [CORPUS]     # default ../shared/corpora/20news-bydate/train; RUNS=5
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
corpus=${1:-../shared/corpora/20news-bydate/train}
runs=${RUNS:-5}
command -v hyperfine >/dev/null || { echo "install hyperfine (apt-get install hyperfine)" >&2; exit 1; }
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bowline=target/release/bowline
exact="--classifier mnb --tf count --idf none --norm none --min-df 1 --alpha 0.01 -q"
# A host file of two free loopback ports.
python3 -c 'import socket
for _ in range(2):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); print("127.0.0.1:%d" % s.getsockname()[1]); s.close()' > "$out/hosts"
# Both processes of a two-process run, started together; the run ends when both have.
cat > "$out/two.sh" <<SCRIPT
#!/usr/bin/env bash
$bowline train $corpus -o $out/two.model $exact --hostfile $out/hosts --process 1 "\$@" &
$bowline train $corpus -o $out/two.model $exact --hostfile $out/hosts --process 0 "\$@"
wait
SCRIPT
chmod +x "$out/two.sh"
hyperfine --runs "$runs" --warmup 1 \
    -n "one process" "$bowline train $corpus -o $out/one.model $exact" \
    -n "cluster, 1 process" "$bowline train $corpus -o $out/c1.model $exact --processes 1" \
    -n "cluster, 2 processes" "$out/two.sh" \
    -n "cluster, 2 processes, -j 1 each" "$out/two.sh -j 1"
# Once more without -q: process 0 reports the bytes of partial models it gathered.
$bowline train "$corpus" -o "$out/two.model" --classifier mnb --tf count --idf none --norm none \
    --min-df 1 --alpha 0.01 --hostfile "$out/hosts" --process 1 -q &
$bowline train "$corpus" -o "$out/two.model" --classifier mnb --tf count --idf none --norm none \
    --min-df 1 --alpha 0.01 --hostfile "$out/hosts" --process 0
wait
ls -l "$out/one.model" "$out/two.model"
