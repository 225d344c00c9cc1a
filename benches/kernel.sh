#!/usr/bin/env bash
# bowline's kernel SVM (examples/kernel_svm.rs) against scikit-learn's SVC
# (benches/sklearn_kernel.py), side by side in one run, on the same matrices on both sides
# (bowline's vectorizer: words, sublinear tf, smooth idf, l2, as TfidfVectorizer(sublinear_tf=True)
# weighs), C = 10, gamma = 1, and the same kernel cache on both sides:
#
# - sms: SMS Spam, a 70/30 split (numpy's generator, seed 1), the linear, rbf and degree-2
#   polynomial kernels, cache 200 MB (the default of both); each side fits and predicts three
#   times in its own process and reports the median of each.
# - 20ng: 20 Newsgroups bydate, its train/ (11,314 posts, the vocabulary fitted on it) and test/
#   (7,532 posts), the linear and rbf kernels, cache 600 MB on both sides, which holds bowline's
#   whole kernel matrix (11,314² f32 values, 512 MB). SVC takes about 4 to 5 minutes per kernel
#   here, so it runs ONCE per kernel; bowline runs three times and reports the median.
#
#   benches/kernel.sh [sms] [20ng]      (default: both; corpora from ../shared/corpora)
#
# Reading the files and starting Python are not timed. The ratio is scikit-learn's fit plus
# predict over bowline's. "rss" is each process's peak resident memory (/usr/bin/time -f %M), for
# all its runs, data included. Threads: bowline computes the kernel matrix, solves the classes'
# one-vs-rest problems and predicts rows in parallel (two classes are one problem); LIBSVM uses
# one thread. The machine's load average is printed before each corpus.
set -euo pipefail
corpora=../shared/corpora
which=("$@")
[ ${#which[@]} -gt 0 ] || which=(sms 20ng)
source "$(dirname "$0")/setup.sh"
cargo build --release --quiet --example kernel_svm
example=target/release/examples/kernel_svm

# compare NAME TRAIN TEST KERNEL GAMMA DEGREE COEF0 CACHE_MB OUR_RUNS THEIR_RUNS
compare() {
    local name=$1 train=$2 test=$3 kernel=$4 gamma=$5 degree=$6 coef0=$7 cache=$8
    local ours theirs
    ours=$(/usr/bin/time -f %M -o "$out/ours.rss" "$example" "$train" "$test" "$kernel" 10 \
        "$gamma" "$degree" "$coef0" "$9" "$cache")
    theirs=$(/usr/bin/time -f %M -o "$out/theirs.rss" "$venv/bin/python" benches/sklearn_kernel.py \
        fit "$train" "$test" "$kernel" 10 "$gamma" "$degree" "$coef0" "${10}" "$cache")
    "$venv/bin/python" - "$name" "$ours" "$theirs" "$(tail -1 "$out/ours.rss")" \
        "$(tail -1 "$out/theirs.rss")" <<'PY'
import json, sys
name, b, s = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
rss_b, rss_s = int(sys.argv[4]) / 1024, int(sys.argv[5]) / 1024
ratio = (s["fit"] + s["predict"]) / (b["fit"] + b["predict"])
print(f"{name:<16} {b['accuracy']:7.4f} {b['fit']:8.3f}s {b['predict']:7.3f}s "
      f"{b['support_vectors']:6d} {rss_b:6.0f}M | {s['accuracy']:7.4f} {s['fit']:8.3f}s "
      f"{s['predict']:7.3f}s {s['support_vectors']:6d} {rss_s:6.0f}M | {ratio:5.1f}x")
PY
}

header() {
    echo "$1; scikit-learn $sklearn_version; load: $(uptime | sed 's/.*load average: //')"
    printf '%-16s %7s %9s %8s %6s %7s | %7s %9s %8s %6s %7s | %6s\n' kernel "bl acc" "bl fit" \
        "bl pred" "bl sv" "bl rss" "sk acc" "sk fit" "sk pred" "sk sv" "sk rss" ratio
}

for corpus in "${which[@]}"; do
    case $corpus in
    sms)
        target/release/bowline vectorize "$corpora/sms-spam/SMSSpamCollection.tsv" \
            -o "$out/all.svm" -q --ngrams 1 --stem none --tf sublinear --idf smooth --norm l2
        "$venv/bin/python" benches/sklearn_kernel.py split "$out/all.svm" 1 "$out"
        header "SMS Spam, 70/30 split (seed 1), C = 10, cache 200 MB; median of 3 on both sides"
        for spec in "linear 1 3 0" "rbf 1 3 0" "poly 1 2 1"; do
            read -r kernel gamma degree coef0 <<<"$spec"
            name=$kernel
            [ "$kernel" != poly ] || name="poly $degree, coef0 $coef0"
            compare "$name" "$out/train.svm" "$out/test.svm" "$kernel" "$gamma" "$degree" \
                "$coef0" 200 3 3
        done
        ;;
    20ng)
        target/release/bowline vectorize "$corpora/20news-bydate/train" -o "$out/20ng-train.svm" \
            --vocab "$out/20ng.vocab" -q --ngrams 1 --stem none --tf sublinear --idf smooth \
            --norm l2
        target/release/bowline vectorize "$corpora/20news-bydate/test" -o "$out/20ng-test.svm" \
            --use-vocab "$out/20ng.vocab" -q
        header "20 Newsgroups bydate, train/test, C = 10, cache 600 MB; bowline median of 3, SVC run once"
        for kernel in linear rbf; do
            compare "$kernel" "$out/20ng-train.svm" "$out/20ng-test.svm" "$kernel" 1 3 0 600 3 1
        done
        ;;
    *)
        echo "unknown corpus $corpus: sms or 20ng" >&2
        exit 1
        ;;
    esac
done
