#!/usr/bin/env bash
# Greedy forward selection on 20 Newsgroups train (multinomial NB, 20% dev split): the whole
# `bowline select` command for 2,000 steps over the top 20,000 chi2 candidates; then, on a
# problem scikit-learn can finish, 20 steps over 300 candidates with bowline and with
# SequentialFeatureSelector(MultinomialNB(), cv=PredefinedSplit(...)) (benches/sklearn_select.py),
# side by side in one hyperfine run, with the ratio.
#
#   benches/select.sh [NEWS_ROOT]      (default: ../shared/corpora/20news-bydate)
#
# Both sides of the ratio are timed as whole processes; the same run times Python's start-up with
# the script's imports, printed beside it. bowline uses every core, scikit-learn one: its n_jobs
# would run the folds of each candidate's cross-validation in parallel, and the dev split is one
# fold, so more jobs only add a worker hand-off per candidate (benches/sklearn_select.py says
# more). Needs hyperfine and python3; scikit-learn goes into a virtualenv under target/. The
# scikit-learn run takes minutes, so each command runs once unless RUNS says more.
set -euo pipefail
news=${1:-../shared/corpora/20news-bydate}
source "$(dirname "$0")/setup.sh"
bowline=target/release/bowline
runs=${RUNS:-1}
echo "setup: whole processes; threads: bowline $cores (all cores), scikit-learn 1" \
    "(SequentialFeatureSelector's n_jobs parallelizes folds, and the dev split is one);" \
    "features: each side's own (scikit-learn: sublinear TF-IDF, English stop words removed)," \
    "each side's dev split; scikit-learn $sklearn_version"
hyperfine --runs "$runs" \
    -n "bowline 2000 steps x 20000 candidates" \
    "$bowline select $news/train -o $out/big.model --candidates 20000 --max-features 2000 --patience 2000 -q"
hyperfine --runs "$runs" --export-json "$out/times.json" \
    -n bowline "$bowline select $news/train -o $out/small.model --candidates 300 --max-features 20 --patience 20 -q" \
    -n scikit-learn "cd benches && ../$venv/bin/python sklearn_select.py ../$news/train 300 20" \
    -n scikit-learn-start-up "$(startup sklearn_select)"
"$venv/bin/python" - "$out/times.json" <<'PY'
import json, sys
runs = {r["command"]: r["mean"] for r in json.load(open(sys.argv[1]))["results"]}
b, s, start = runs["bowline"], runs["scikit-learn"], runs["scikit-learn-start-up"]
print(f"20 steps over 300 candidates: bowline {b:.2f} s, scikit-learn {s:.1f} s (of which "
      f"{start:.2f} s Python start-up and imports): {s / b:.0f}x, whole processes")
PY
