#!/usr/bin/env bash
# Simulated labelling (issue 46): how many labels uncertainty, margin, entropy and diverse
# sampling need to reach the score random sampling reaches at the full budget, with the corpora's
# own labels as the oracle. Each run starts from 2 labelled documents per class, asks for batches
# of 10 as `bowline suggest` picks them (the same active::Picker), retrains the learner and scores
# it on the test part after each batch. examples/active_simulation.rs says how, and writes the
# curves (mean and standard deviation per labels count, and each seed's labels to reach random's
# mean) as JSON.
#
#   benches/active.sh [CORPORA]      (default: ../shared/corpora)
#   LEARNER=svm|mnb|mnb-uniform|cnb  (default svm, chosen on dev splits of the training parts:
#                                     CHOOSE=1 reruns that choice and reads no test split)
#   SEEDS=5 STRATEGIES=random,uncertainty,margin,entropy,diverse
#
# 20 Newsgroups: train as the pool, test scored, 1,000 labels, accuracy. SMS Spam: a stratified
# 70/30 split by a hash of the line id, 500 labels, F1 of spam. Reuters-21578: the ModApte
# documents with one label (benches/corpora.py), train as the pool, test scored, 1,000 labels,
# micro-F1 (with one label per document it equals accuracy). The JSON goes to target/active/.
set -euo pipefail
corpora=${1:-../shared/corpora}
learner=${LEARNER:-svm}
seeds=${SEEDS:-5}
strategies=${STRATEGIES:-random,uncertainty,margin,entropy,diverse}
out=target/active
mkdir -p "$out"
[ -f target/bench-corpora/reuters-train.jsonl ] || python3 benches/corpora.py target/bench-corpora
cargo build --release --quiet --example active_simulation
sim=${CARGO_TARGET_DIR:-target}/release/examples/active_simulation
common=(--seeds "$seeds" --strategies "$strategies")
run() { # NAME LEARNER [ARGS...]
    local name=$1 learner=$2
    shift 2
    nice "$sim" "$@" --learner "$learner" "${common[@]}" > "$out/$name.json"
    python3 - "$out/$name.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
print(f"{report['corpus']} ({report['learner']}, {report['scored']}): {report['metric']}, "
      f"budget {report['budget']}, random reaches {report['random_at_budget']:.4f}")
for name, curve in report["strategies"].items():
    seeds = [n for n in curve["labels_to_reach_per_seed"]]
    print(f"  {name:<12} reaches it at {curve['labels_to_reach_random_at_budget']} labels "
          f"(per seed {seeds}); at the budget {curve['mean'][-1]:.4f} ± {curve['sd'][-1]:.4f}, "
          f"its picks {curve['at_budget']['picked_terms_mean']:.0f} distinct terms "
          f"(the pool {report['pool_terms_mean']:.0f})")
PY
}
news=("$corpora/20news-bydate/train" --test "$corpora/20news-bydate/test" --labels 1000)
sms=("$corpora/sms-spam/SMSSpamCollection.tsv" --split 0.3 --labels 500 --positive spam)
reuters=(target/bench-corpora/reuters-train.jsonl --test target/bench-corpora/reuters-test.jsonl
    --labels 1000)
if [ "${CHOOSE:-0}" = 1 ]; then
    # The learner is chosen on a 30% dev part of each training part; the test parts are not read.
    for l in mnb mnb-uniform cnb svm; do
        run "20news-dev-$l" "$l" "${news[@]}" --dev 0.3
        run "sms-dev-$l" "$l" "${sms[@]}" --dev 0.3
    done
    exit 0
fi
echo "setup: $learner, 2 seed labels per class, batches of 10, $seeds seeds"
run 20news "$learner" "${news[@]}"
run sms "$learner" "${sms[@]}"
run reuters "$learner" "${reuters[@]}"
