#!/usr/bin/env bash
# Times bowline's `train --tune` (linear SVM) beside scikit-learn's HalvingGridSearchCV over the
# same grid, the same rounds and the same number of folds (benches/sklearn_tune.py), on the same
# training file, side by side in one hyperfine run, and prints the ratio and each one's choice.
# Both use two cores. The default corpus is the SMS training part of benches/corpora.py, where
# scikit-learn's search ends in minutes; on 20 Newsgroups it takes far longer than bowline's
# 60-second budget.
#
#   benches/tune.sh [TRAIN]      (default: target/bench-corpora/sms-train.tsv)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
"$venv/bin/pip" install --quiet nltk
"$venv/bin/python" benches/corpora.py target/bench-corpora
train=${1:-target/bench-corpora/sms-train.tsv}
bowline=target/release/bowline
hyperfine --runs "${RUNS:-1}" --export-json "$out/times.json" \
    -n bowline "$bowline train $train --tune -o $out/tuned.model -q" \
    -n scikit-learn "cd benches && ../$venv/bin/python sklearn_tune.py ../$train 2>/dev/null"
$bowline eval "$out/tuned.model" "$train" -q | grep '^tuned:'
(cd benches && "../$venv/bin/python" sklearn_tune.py "../$train")
"$venv/bin/python" - "$out/times.json" <<'PY'
import json, sys
runs = {r["command"]: r["mean"] for r in json.load(open(sys.argv[1]))["results"]}
b, s = runs["bowline"], runs["scikit-learn"]
print(f"tune: bowline {b:.1f} s, scikit-learn {s:.1f} s: {s / b:.1f}x")
PY
