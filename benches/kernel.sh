#!/usr/bin/env bash
# bowline's kernel SVM (examples/kernel_svm.rs) against scikit-learn's SVC
# (benches/sklearn_kernel.py) on SMS Spam, side by side in one run: the same matrix on both sides
# (bowline's vectorizer: words, sublinear tf, smooth idf, l2, as TfidfVectorizer(sublinear_tf=True)
# weighs), the same 70/30 split (numpy's generator, seed 1), C = 10, gamma = 1, for the linear, rbf
# and degree-2 polynomial kernels. Each side fits and predicts three times in its own process
# and reports the median of each; reading the files and starting Python are not timed. The ratio
# is scikit-learn's fit plus predict over bowline's.
#
#   benches/kernel.sh [SMS_TSV]      (default: ../shared/corpora/sms-spam/SMSSpamCollection.tsv)
#
# Threads: bowline solves the classes' problems in parallel (two classes are one problem, so one
# thread) and predicts rows in parallel; LIBSVM uses one thread.
set -euo pipefail
sms=${1:-../shared/corpora/sms-spam/SMSSpamCollection.tsv}
source "$(dirname "$0")/setup.sh"
cargo build --release --quiet --example kernel_svm
example=target/release/examples/kernel_svm
runs=3
target/release/bowline vectorize "$sms" -o "$out/all.svm" -q \
    --ngrams 1 --stem none --tf sublinear --idf smooth --norm l2
"$venv/bin/python" benches/sklearn_kernel.py split "$out/all.svm" 1 "$out"
echo "SMS Spam, 70/30 split (seed 1), C = 10; median of $runs; scikit-learn $sklearn_version"
printf '%-28s %9s %9s %9s %6s | %9s %9s %9s %6s | %6s\n' kernel "bl acc" "bl fit" "bl pred" \
    "bl sv" "sk acc" "sk fit" "sk pred" "sk sv" ratio
for spec in "linear 1 3 0" "rbf 1 3 0" "poly 1 2 1"; do
    read -r kernel gamma degree coef0 <<<"$spec"
    ours=$("$example" "$out/train.svm" "$out/test.svm" "$kernel" 10 "$gamma" "$degree" "$coef0" $runs)
    theirs=$("$venv/bin/python" benches/sklearn_kernel.py fit "$out/train.svm" "$out/test.svm" \
        "$kernel" 10 "$gamma" "$degree" "$coef0" $runs)
    "$venv/bin/python" - "$kernel gamma=$gamma degree=$degree coef0=$coef0" "$ours" "$theirs" <<'PY'
import json, sys
name, b, s = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
ratio = (s["fit"] + s["predict"]) / (b["fit"] + b["predict"])
print(f"{name:<28} {b['accuracy']:9.4f} {b['fit']:8.3f}s {b['predict']:8.3f}s "
      f"{b['support_vectors']:6d} | {s['accuracy']:9.4f} {s['fit']:8.3f}s {s['predict']:8.3f}s "
      f"{s['support_vectors']:6d} | {ratio:5.1f}x")
PY
done
