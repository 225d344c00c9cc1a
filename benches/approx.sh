#!/usr/bin/env bash
# bowline's linear SVM over a kernel approximation (examples/approx_svm.rs) against
# scikit-learn's Nystroem and RBFSampler with LinearSVC (benches/sklearn_approx.py) on SMS Spam,
# side by side in one run: the same matrix and 70/30 split as benches/kernel.sh (bowline's
# vectorizer: words, sublinear tf, smooth idf, l2; numpy's generator, seed 1), gamma = 1 (the
# kernel bench's, and RBFSampler's default), C = 1 (LinearSVC's default), Nyström with M = 2000
# and random Fourier features with M = 4000, as the issue's reference runs. Each side fits and
# predicts three times in its own process and reports the median of each; reading the files and
# starting Python are not timed. The ratio is scikit-learn's fit plus predict over bowline's.
#
#   benches/approx.sh [SMS_TSV]      (default: ../shared/corpora/sms-spam/SMSSpamCollection.tsv)
#
# Threads: bowline maps rows in parallel and solves the classes' problems in parallel (two
# classes are one problem); scikit-learn's matrix products use its BLAS's threads.
set -euo pipefail
sms=${1:-../shared/corpora/sms-spam/SMSSpamCollection.tsv}
source "$(dirname "$0")/setup.sh"
cargo build --release --quiet --example approx_svm
target=${CARGO_TARGET_DIR:-target}
example=$target/release/examples/approx_svm
runs=3
echo "load: $(uptime)"
"$target/release/bowline" vectorize "$sms" -o "$out/all.svm" -q \
    --ngrams 1 --stem none --tf sublinear --idf smooth --norm l2
"$venv/bin/python" benches/sklearn_kernel.py split "$out/all.svm" 1 "$out"
echo "SMS Spam, 70/30 split (seed 1), gamma = 1, C = 1; median of $runs; scikit-learn $sklearn_version"
printf '%-16s %9s %9s %9s %6s | %9s %9s %9s | %6s\n' approximation "bl acc" "bl fit" "bl pred" \
    "bl M'" "sk acc" "sk fit" "sk pred" ratio
for spec in "nystroem 2000" "rff 4000"; do
    read -r approx m <<<"$spec"
    ours=$("$example" "$out/train.svm" "$out/test.svm" "$approx" "$m" 1 1 $runs)
    theirs=$("$venv/bin/python" benches/sklearn_approx.py "$out/train.svm" "$out/test.svm" \
        "$approx" "$m" 1 1 $runs)
    "$venv/bin/python" - "$approx M=$m" "$ours" "$theirs" <<'PY'
import json, sys
name, b, s = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
ratio = (s["fit"] + s["predict"]) / (b["fit"] + b["predict"])
print(f"{name:<16} {b['accuracy']:9.4f} {b['fit']:8.3f}s {b['predict']:8.3f}s "
      f"{b['features']:6d} | {s['accuracy']:9.4f} {s['fit']:8.3f}s {s['predict']:8.3f}s | "
      f"{ratio:5.1f}x")
PY
done
echo "load: $(uptime)"
