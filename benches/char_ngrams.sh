#!/usr/bin/env bash
# Times training with character n-grams: `bowline train --char-ngrams 2..5` (the SVM, which
# writes its model) against scikit-learn's TfidfVectorizer(analyzer='char_wb', ngram_range=(2, 5),
# sublinear_tf=True) + LinearSVC fit on the same file, side by side in one hyperfine run. Both
# sides are timed as whole processes; the same run times Python's start-up with the script's
# imports, printed beside the ratio.
#
#   benches/char_ngrams.sh [TRAIN]      (default: target/bench-corpora/sms-train.tsv)
set -euo pipefail
source "$(dirname "$0")/setup.sh"
"$venv/bin/python" benches/corpora.py target/bench-corpora
train=${1:-target/bench-corpora/sms-train.tsv}
echo "setup: whole processes; threads: bowline $cores (all cores), scikit-learn 1 (LinearSVC" \
    "takes no n_jobs); features: the same analysis (character 2..5-grams within words, sublinear" \
    "TF-IDF), each side's other defaults; scikit-learn $sklearn_version"
hyperfine --warmup 1 --runs "${RUNS:-10}" --export-json "$out/times.json" \
    -n bowline "target/release/bowline train $train --char-ngrams 2..5 -o $out/m -q" \
    -n scikit-learn "cd benches && ../$venv/bin/python sklearn_char.py ../$train" \
    -n scikit-learn-start-up "$(startup sklearn_char)"
"$venv/bin/python" - "$out/times.json" <<'PY'
import json, sys
runs = {r["command"]: r["mean"] for r in json.load(open(sys.argv[1]))["results"]}
b, s, start = runs["bowline"], runs["scikit-learn"], runs["scikit-learn-start-up"]
print(f"char n-grams: bowline {b:.3f} s, scikit-learn {s:.3f} s (of which {start:.3f} s Python "
      f"start-up and imports): {s / b:.1f}x, whole processes")
PY
