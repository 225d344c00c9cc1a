#!/usr/bin/env bash
# Times train + eval on Reuters-21578 (ModApte, 90 categories, multi-label JSONL) with bowline and
# with scikit-learn (TfidfVectorizer(sublinear_tf=True) + OneVsRestClassifier(LinearSVC())) on
# the same files, side by side in one hyperfine run, and prints both F1 figures and the ratio.
# bowline's settings (unigrams, C 1, thresholds from 5 folds of the training file) were chosen on
# a split of the training file; the test file is only evaluated. Both sides are timed as whole
# processes; the same run times Python's start-up with the script's imports, printed beside the
# ratio. OneVsRestClassifier fits its labels in as many threads as there are cores, as bowline
# uses every core. Needs hyperfine and python3; scikit-learn goes into a virtualenv under target/.
#
#   benches/multilabel.sh [REUTERS_DIR]      (default: ../shared/corpora/reuters21578)
set -euo pipefail
# Resolved before setup.sh moves to the project root, so that a relative path means the caller's.
reuters=$(realpath "${1:-$(dirname "$0")/../../shared/corpora/reuters21578}")
source "$(dirname "$0")/setup.sh"
bowline=target/release/bowline
flags="--ngrams 1 --c 1 --threshold-folds 5"
echo "setup: whole processes; threads: bowline $cores (all cores), scikit-learn $cores" \
    "(OneVsRestClassifier n_jobs=$cores, threading backend); features: words, bowline's stemmed, scikit-learn's" \
    "not; scikit-learn $sklearn_version"
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "$out/times.json" \
    -n bowline "$bowline train $reuters/train.jsonl -o $out/m.model -q $flags 2>/dev/null && $bowline eval $out/m.model $reuters/test.jsonl -q --json > $out/m.json 2>/dev/null" \
    -n sklearn "cd benches && ../$venv/bin/python sklearn_multilabel.py $reuters/train.jsonl $reuters/test.jsonl 2>/dev/null" \
    -n sklearn-start-up "$(startup sklearn_multilabel)"
grep -E '"(micro_f1|macro_f1|samples_f1)"' "$out/m.json" | tr -d ' ,' | sed 's/^/bowline /'
(cd benches && "../$venv/bin/python" sklearn_multilabel.py "$reuters/train.jsonl" "$reuters/test.jsonl")
"$venv/bin/python" - "$out/times.json" <<'PY'
import json, sys
runs = {r["command"]: r["mean"] for r in json.load(open(sys.argv[1]))["results"]}
b, s, start = runs["bowline"], runs["sklearn"], runs["sklearn-start-up"]
print(f"multi-label: bowline {b:.2f} s, scikit-learn {s:.2f} s (of which {start:.2f} s Python "
      f"start-up and imports): {s / b:.2f}x, whole processes")
PY
