#!/usr/bin/env bash
# Feature hashing (`--hash-bits 20`) against a vocabulary, on 20 Newsgroups bydate: peak RSS,
# time and test accuracy of training with words alone (`--ngrams 1`) and with word 1..3-grams,
# for multinomial NB read twice (`--passes 2`, which holds no document, so its memory is the
# feature space's), for the SVM (which holds the training matrix), and for `learn`, which reads
# the training set as a stream of TSV lines (one per post, its white space collapsed) and
# learns multinomial NB one document at a time.
#
#   benches/hashing.sh [TRAIN TEST]     (default ../shared/corpora/20news-bydate/{train,test})
set -euo pipefail
cd "$(dirname "$0")/.."
train_set=${1:-../shared/corpora/20news-bydate/train}
test_set=${2:-../shared/corpora/20news-bydate/test}
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bowline=target/release/bowline
python3 - "$train_set" "$out/train.tsv" <<'PY'
import sys
sys.path.insert(0, "benches")
from repeat_corpus import documents
source, path = sys.argv[1], sys.argv[2]
with open(path, "w") as out:
    for label, _, text in documents(source):
        out.write(label + "\t" + " ".join(text.split()) + "\n")
PY
# Prints one row: peak RSS and time of the command after the first four arguments (trainer,
# n-grams, features, model path), then the model's test accuracy and size.
row() {
    local trainer=$1 ngrams=$2 features=$3 model=$4
    shift 4
    read -r rss seconds < <(/usr/bin/time -f '%M %e' "$@" 2>&1 | tail -n 1)
    accuracy=$("$bowline" eval "$model" "$test_set" --json -q |
        python3 -c 'import json, sys; print("%.4f" % json.load(sys.stdin)["accuracy"])')
    printf '%-24s %-8s %-10s %6d MiB %7.2fs %9s %6d MiB\n' "$trainer" "$ngrams" \
        "${features#--hash-bits }" $((rss / 1024)) "$seconds" "$accuracy" \
        $(($(stat -c %s "$model") / 1048576))
}
printf '%-24s %-8s %-10s %10s %8s %9s %10s\n' trainer ngrams features 'peak RSS' time accuracy 'model'
for trainer in "mnb --passes 2" "svm"; do
    for ngrams in 1 1..3; do
        for features in vocabulary "--hash-bits 20"; do
            flags=(--classifier ${trainer} --ngrams "$ngrams")
            # Hashing weighs word n-grams like words; the vocabulary runs do the same.
            if [ "$features" = vocabulary ]; then
                flags+=(--ngram-weight 1)
            else
                flags+=($features)
            fi
            row "$trainer" "$ngrams" "$features" "$out/m" \
                "$bowline" train "$train_set" -o "$out/m" -q "${flags[@]}"
        done
    done
done
for ngrams in 1 1..3; do
    for features in vocabulary "--hash-bits 20"; do
        flags=(--ngrams "$ngrams" --checkpoint-every 100000)
        [ "$features" = vocabulary ] || flags+=($features)
        rm -f "$out/l"
        row "learn (mnb)" "$ngrams" "$features" "$out/l" \
            bash -c 'exec "$0" learn "$1" -q "${@:3}" < "$2"' "$bowline" "$out/l" "$out/train.tsv" \
            "${flags[@]}"
    done
done
