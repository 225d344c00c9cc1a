#!/usr/bin/env bash
# The Python package `bowline` against scikit-learn in one Python process on 20 Newsgroups:
# TextClassifier(kind="svm") against TfidfVectorizer + LinearSVC (fit plus predict, accuracy),
# Vectorizer.fit_transform against TfidfVectorizer.fit_transform, and the matrix-level
# MultinomialNB against scikit-learn's on the same CSR matrix. Median of RUNS (default 3).
#
#   benches/python.sh [CORPUS]      (default: ../shared/corpora/20news-bydate)
#
# Builds the release wheel (as .ci/run does, through pip and maturin) into a virtualenv under the
# cargo target directory, once; PYTHON_VENV=path reuses one that has bowline installed.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpora/20news-bydate}
target=${CARGO_TARGET_DIR:-$PWD/target}
venv=${PYTHON_VENV:-$target/python-bench-venv}
if ! "$venv/bin/python" -c 'import bowline, sklearn' 2>/dev/null; then
    python3 -m venv "$venv"
    MATURIN_PEP517_ARGS="--features python" CARGO_TARGET_DIR="$target" \
        "$venv/bin/pip" install --quiet .
fi
"$venv/bin/python" benches/python.py "$corpus" "${RUNS:-3}"
