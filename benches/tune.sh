#!/usr/bin/env bash
# Times bowline's `train --tune` (linear SVM) beside scikit-learn's HalvingGridSearchCV over the
# same grid, the same rounds and the same number of folds (benches/sklearn_tune.py), on the same
# training file, side by side in one hyperfine run, and prints the ratio and each one's choice.
# Both use every core (scikit-learn as n_jobs), and scikit-learn's pipeline caches its vectorizer
# (memory=), as bowline reuses its counts. Both sides are timed as whole processes; the same run
# times Python's start-up with the script's imports, printed beside the ratio. A first, untimed
# `train --tune --json` tells which rounds bowline's budget allowed (on SMS all four, from a 27th
# of the rows to all of them; on 20 Newsgroups three, up to a third), and scikit-learn is given
# the same ones. The default corpus is the SMS training part of benches/corpora.py; a folder of
# class folders such as 20 Newsgroups' train works too.
#
#   benches/tune.sh [TRAIN]      (default: target/bench-corpora/sms-train.tsv)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
"$venv/bin/pip" install --quiet nltk
"$venv/bin/python" benches/corpora.py target/bench-corpora
train=$(realpath "${1:-target/bench-corpora/sms-train.tsv}")
bowline=target/release/bowline
$bowline train "$train" --tune -o "$out/tuned.model" --json > "$out/tuned.json"
read -r first last < <("$venv/bin/python" -c '
import json, sys
shares = [r["share"] for r in json.load(open(sys.argv[1]))["rounds"]]
print(round(1 / shares[0]), round(1 / shares[-1]))' "$out/tuned.json")
echo "setup: whole processes; threads: bowline $cores (all cores), scikit-learn $cores" \
    "(HalvingGridSearchCV n_jobs=$cores, Pipeline memory= on a temporary folder); features: the" \
    "same grid, bowline weighing word pairs 0.7, scikit-learn 1; scikit-learn $sklearn_version"
hyperfine --runs "${RUNS:-1}" --export-json "$out/times.json" \
    -n bowline "$bowline train $train --tune -o $out/timed.model -q" \
    -n scikit-learn "cd benches && ../$venv/bin/python sklearn_tune.py $train $first $last 2> $out/sklearn.txt" \
    -n scikit-learn-start-up "$(startup sklearn_tune)"
$bowline eval "$out/tuned.model" "$train" -q | grep '^tuned:'
cat "$out/sklearn.txt"
"$venv/bin/python" - "$out/times.json" <<'PY'
import json, sys
runs = {r["command"]: r["mean"] for r in json.load(open(sys.argv[1]))["results"]}
b, s, start = runs["bowline"], runs["scikit-learn"], runs["scikit-learn-start-up"]
print(f"tune: bowline {b:.1f} s, scikit-learn {s:.1f} s (of which {start:.2f} s Python start-up "
      f"and imports): {s / b:.1f}x, whole processes")
PY
