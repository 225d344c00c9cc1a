#!/usr/bin/env bash
# Times train + eval on 20 Newsgroups with bowline and with scikit-learn (TfidfVectorizer +
# LinearSVC, and + MultinomialNB) on the same files, side by side in one hyperfine run, and prints
# the ratios. Both sides are timed as whole processes (bowline's train and eval, scikit-learn's
# script); the same run times Python's start-up with the script's imports, printed beside each
# ratio. Two more bowline rows give it scikit-learn's features (its token pattern, words, no
# stemming, TF-IDF as TfidfVectorizer(sublinear_tf=True) weighs them; naive Bayes' alpha 0.01), so
# that those ratios compare the same work. Needs hyperfine and python3; scikit-learn goes into a
# virtualenv under target/.
#
#   benches/classify.sh [NEWS_ROOT]      (default: ../shared/corpora/20news-bydate)
set -euo pipefail
news=${1:-../shared/corpora/20news-bydate}
source "$(dirname "$0")/setup.sh"
bowline=target/release/bowline
run_bowline() {  # classifier, name, train flags
    echo "$bowline train $news/train -o $out/$2.model -q --classifier $1 ${3:-} 2>/dev/null && $bowline eval $out/$2.model $news/test -q --json > $out/$2.json 2>/dev/null"
}
equal="--tokenizer word-runs --max-token-len 1000000 --stem none --ngrams 1 --tf sublinear --idf smooth --norm l2"
echo "setup: whole processes; threads: bowline $cores (all cores), scikit-learn 1 (LinearSVC and" \
    "MultinomialNB take no n_jobs); features: each side's defaults (bowline stemmed words and" \
    "word pairs, scikit-learn words), and in the -equal rows scikit-learn's for both;" \
    "scikit-learn $sklearn_version"
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "$out/times.json" \
    -n bowline-svm "$(run_bowline svm svm)" \
    -n bowline-svm-equal "$(run_bowline svm svm-equal "$equal --c 1")" \
    -n sklearn-svm "cd benches && ../$venv/bin/python sklearn_classify.py svm ../$news/train ../$news/test 2>/dev/null" \
    -n bowline-mnb "$(run_bowline mnb mnb)" \
    -n bowline-mnb-equal "$(run_bowline mnb mnb-equal "$equal --alpha 0.01")" \
    -n sklearn-mnb "cd benches && ../$venv/bin/python sklearn_classify.py mnb ../$news/train ../$news/test 2>/dev/null" \
    -n sklearn-start-up "$(startup sklearn_classify)"
for kind in svm mnb; do
    echo "bowline $kind accuracy: $(grep -m1 '"accuracy"' "$out/$kind.json")"
    echo "bowline $kind-equal accuracy: $(grep -m1 '"accuracy"' "$out/$kind-equal.json")"
    (cd benches && "../$venv/bin/python" sklearn_classify.py "$kind" "../$news/train" "../$news/test")
done
"$venv/bin/python" - "$out/times.json" <<'PY'
import json, sys
runs = {r["command"]: r["mean"] for r in json.load(open(sys.argv[1]))["results"]}
start = runs["sklearn-start-up"]
for kind in ("svm", "mnb"):
    s = runs[f"sklearn-{kind}"]
    for name in (kind, f"{kind}-equal"):
        b = runs[f"bowline-{name}"]
        print(f"{name}: bowline {b:.2f} s, scikit-learn {s:.2f} s (of which {start:.2f} s Python "
              f"start-up and imports): {s / b:.2f}x whole processes, {(s - start) / b:.2f}x "
              f"without the start-up")
PY
