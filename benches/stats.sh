#!/usr/bin/env bash
# Times `bowline stats` on 20 Newsgroups train + test (18,846 documents) as tables, as JSON with
# the HTML report, and from a corpus index, beside a scikit-learn/numpy script that computes the
# core of the same report (per-class counts, length quantiles, top terms, Zipf's and Heaps' fits,
# duplicates), side by side in one hyperfine run. Goal: bowline's text report in <= 2 s on 2 cores.
# Both sides are timed as whole processes; the same run times Python's start-up with the script's
# imports, printed beside the ratios.
#
#   benches/stats.sh [TRAIN TEST]     (default: ../shared/corpora/20news-bydate/{train,test})
#
# Needs hyperfine (Debian package) and python3; scikit-learn comes from PyPI into a virtualenv
# this script makes under target/.
set -euo pipefail
root=../shared/corpora/20news-bydate
train=${1:-$root/train}
test=${2:-$root/test}
source "$(dirname "$0")/setup.sh"
target/release/bowline index "$train" --index "$out/index" -q
target/release/bowline index "$test" --index "$out/index" --append -q

echo "setup: whole processes; threads: bowline $cores (all cores), scikit-learn 1 (CountVectorizer" \
    "takes no n_jobs); features: each side's analysis (scikit-learn's does less: no stemming, no" \
    "distinctive terms); scikit-learn $sklearn_version"
hyperfine --warmup 1 --runs "${RUNS:-10}" --export-json "$out/times.json" \
    -n text "target/release/bowline stats $train $test -q" \
    -n json+html "target/release/bowline stats $train $test --json --html $out/r.html -q" \
    -n index "target/release/bowline stats --index $out/index -q" \
    -n scikit-learn "$venv/bin/python benches/sklearn_stats.py $train $test" \
    -n scikit-learn-start-up "$(startup sklearn_stats)"

peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
bowline_kb=$(peak target/release/bowline stats "$train" "$test" -q)
sklearn_kb=$(peak "$venv/bin/python" benches/sklearn_stats.py "$train" "$test")

"$venv/bin/python" - "$out/times.json" "$bowline_kb" "$sklearn_kb" <<'PY'
import json, sys
runs = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
s = runs["scikit-learn"]["mean"]
start = runs["scikit-learn-start-up"]["mean"]
for name in ("text", "json+html", "index"):
    b = runs[name]
    print(f"bowline stats ({name}): {b['mean']:.3f} s (min {b['min']:.3f}, max {b['max']:.3f}); "
          f"scikit-learn {s:.3f} s (of which {start:.3f} s Python start-up and imports) = "
          f"{s / b['mean']:.1f}x, whole processes")
bk, sk = int(sys.argv[2]), int(sys.argv[3])
print(f"peak RSS: bowline {bk / 1024:.0f} MiB, scikit-learn {sk / 1024:.0f} MiB")
PY
