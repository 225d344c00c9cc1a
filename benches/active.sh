#!/usr/bin/env bash
# Simulated labelling (issue 46): how many labels uncertainty, margin, entropy and diverse
# sampling need to reach the score random sampling reaches at the full budget, with the corpora's
# own labels as the oracle. Each run starts from 2 labelled documents per class, asks for batches
# of 10 as `bowline suggest` picks them (the same active::Picker), and scores multinomial naive
# Bayes on the test part after each batch; 5 seeds per strategy. examples/active_simulation.rs
# says how, and writes the curves (mean and standard deviation per labels count) as JSON.
#
#   benches/active.sh [CORPORA]      (default: ../shared/corpora)
#
# 20 Newsgroups: train as the pool, test scored, 1,000 labels, accuracy. SMS Spam: a stratified
# 70/30 split by a hash of the line id, 500 labels, F1 of spam. The JSON goes to target/active/.
set -euo pipefail
corpora=${1:-../shared/corpora}
out=target/active
mkdir -p "$out"
cargo build --release --quiet --example active_simulation
sim=target/release/examples/active_simulation
echo "setup: multinomial NB (alpha 0.01, the default analysis), 2 seed labels per class, batches of 10, 5 seeds"
$sim "$corpora/20news-bydate/train" --test "$corpora/20news-bydate/test" --labels 1000 > "$out/20news.json"
$sim "$corpora/sms-spam/SMSSpamCollection.tsv" --split 0.3 --labels 500 --positive spam > "$out/sms.json"
for corpus in 20news sms; do
    python3 - "$out/$corpus.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
print(f"{report['corpus']}: {report['metric']}, budget {report['budget']}, random reaches "
      f"{report['random_at_budget']:.4f}")
for name, curve in report["strategies"].items():
    final = curve["mean"][-1]
    print(f"  {name:<12} reaches it at {curve['labels_to_reach_random_at_budget']} labels; "
          f"at the budget {final:.4f} ± {curve['sd'][-1]:.4f}")
PY
done
