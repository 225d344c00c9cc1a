#!/usr/bin/env bash
# Times `bowline vectorize` against scikit-learn's TfidfVectorizer(sublinear_tf=True) fit+transform
# on the same corpus, side by side in one hyperfine run, and prints the speed and memory ratios.
# Both sides are timed as whole processes; the same run times Python's start-up with the peer
# script's imports, which is printed beside the ratio.
#
#   benches/vectorize.sh [CORPUS]      (default: ../shared/corpora/20news-bydate/train)
#
# bowline runs with its defaults but for word pairs, which scikit-learn's default leaves out
# (`--ngrams 1`): every word kept, Snowball stemming on (scikit-learn does not stem), sublinear
# TF-IDF, L2 rows, and it writes the svmlight matrix. The scikit-learn script reads the same
# files and fits and transforms, writing nothing, so the comparison leans in scikit-learn's
# favour.
# Needs hyperfine (Debian package) and python3; scikit-learn comes from PyPI into a virtualenv
# this script makes under target/.
set -euo pipefail
corpus=${1:-../shared/corpora/20news-bydate/train}
source "$(dirname "$0")/setup.sh"
bowline="target/release/bowline vectorize $corpus --ngrams 1 -o $out/m.svm -q"
sklearn="$venv/bin/python benches/sklearn_vectorize.py $corpus"
echo "setup: whole processes; threads: bowline $cores (all cores), scikit-learn 1" \
    "(TfidfVectorizer takes no n_jobs); features: each side's defaults but bowline's --ngrams 1" \
    "(bowline stems, scikit-learn does not); scikit-learn $sklearn_version"

hyperfine --warmup 1 --runs "${RUNS:-10}" --export-json "$out/times.json" \
    -n bowline "$bowline" -n scikit-learn "$sklearn" \
    -n "scikit-learn start-up" "$(startup sklearn_vectorize)"

peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
bowline_kb=$(peak $bowline)
sklearn_kb=$(peak $sklearn)
# scikit-learn's own read and fit+transform times, for where its time goes; no ratio uses them.
$sklearn

"$venv/bin/python" - "$out/times.json" "$bowline_kb" "$sklearn_kb" <<'PY'
import json, sys
runs = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
b, s = runs["bowline"]["mean"], runs["scikit-learn"]["mean"]
start = runs["scikit-learn start-up"]["mean"]
bk, sk = int(sys.argv[2]), int(sys.argv[3])
print(f"bowline {b:.3f} s, scikit-learn {s:.3f} s (of which {start:.3f} s Python start-up and "
      f"imports): bowline is {s / b:.1f}x faster (whole processes)")
print(f"peak RSS: bowline {bk / 1024:.0f} MiB, scikit-learn {sk / 1024:.0f} MiB ({bk / sk:.2f}x)")
PY
