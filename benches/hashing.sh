#!/usr/bin/env bash
# Feature hashing (`--hash-bits 20`) against a vocabulary, on 20 Newsgroups bydate: peak RSS,
# time and test accuracy of training with words alone (`--ngrams 1`) and with word 1..3-grams,
# for multinomial NB read twice (`--passes 2`, which holds no document, so its memory is the
# feature space's) and for the SVM (which holds the training matrix).
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
printf '%-24s %-8s %-10s %10s %8s %9s %10s\n' trainer ngrams features 'peak RSS' time accuracy 'model'
for trainer in "mnb --passes 2" "svm"; do
    for ngrams in 1 1..3; do
        for features in vocabulary "--hash-bits 20"; do
            flags=(--classifier ${trainer} --ngrams "$ngrams")
            [ "$features" = vocabulary ] || flags+=($features)
            read -r rss seconds < <(/usr/bin/time -f '%M %e' "$bowline" train "$train_set" \
                -o "$out/m" -q "${flags[@]}" 2>&1 | tail -n 1)
            accuracy=$("$bowline" eval "$out/m" "$test_set" --json -q |
                python3 -c 'import json, sys; print("%.4f" % json.load(sys.stdin)["accuracy"])')
            printf '%-24s %-8s %-10s %6d MiB %7.2fs %9s %6d MiB\n' "$trainer" "$ngrams" \
                "${features#--hash-bits }" $((rss / 1024)) "$seconds" "$accuracy" \
                $(($(stat -c %s "$out/m") / 1048576))
        done
    done
done
