"""Checks `train --tune`'s rule for keeping the starting configuration by nested cross-validation
of training data only.

The tuner keeps the configuration it starts from (the defaults) unless the best trial of its last
round beats it by 1.96 standard errors of the paired difference on the same held-out rows. The
other rule a user might expect is scikit-learn's: take the best trial. This script measures
which of the two does better on documents the search never saw, on the five corpora of
benches/defaults.py:

    all five               5 stratified folds of the training part (compare.py's, seed 0);
                           for amazon and imdb the 70% that benches/corpora.py does not hold out

For each outer fold, `bowline train --tune` searches on the other four folds; the held-out fold
then scores the configuration each rule picks, and the defaults, each trained on those four
folds. No test split is read.

    python benches/tune_rule.py [--classifier svm|mnb|cnb|bnb|knn] [--corpora a,b]

Prints a markdown table of each rule's mean held-out accuracy per corpus, and how often each
rule moved away from the defaults.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import BOWLINE, bowline, evaluate, mean, training_folds  # noqa: E402


def tune(kind, train, model):
    """The tuner's report on `train`: its choice, and the best trial of its last round."""
    result = subprocess.run(
        [BOWLINE, "train", train, "--classifier", kind, "--tune", "--json", "-o", model],
        check=True, capture_output=True, text=True)
    report = json.loads(result.stdout)
    last = max(t["round"] for t in report["trials"])
    best = max((t for t in report["trials"] if t["round"] == last), key=lambda t: t["accuracy"])
    return report["chosen"], best["setting"]["flags"], report["incumbent"]["setting"]["flags"]


def fold_scores(kind, train, test):
    """Held-out accuracy of the significance rule's choice (the tuned model itself), the best
    trial and the defaults (each trained on `train` unless it is the choice)."""
    with tempfile.TemporaryDirectory() as tmp:
        tuned = os.path.join(tmp, "tuned")
        chosen, best, defaults = tune(kind, train, tuned)
        scores = {chosen: evaluate(tuned, test)}
    for flags in {best, defaults} - {chosen}:
        scores[flags] = bowline(kind, train, test, flags.split())[0]
    return scores[chosen], scores[best], scores[defaults], chosen != defaults, best != defaults


def main():
    args = sys.argv[1:]
    kind = args[args.index("--classifier") + 1] if "--classifier" in args else "svm"
    corpora = ["20news", "sms", "reuters", "amazon", "imdb"]
    if "--corpora" in args:
        corpora = args[args.index("--corpora") + 1].split(",")
    print(f"{kind}: held-out accuracy, mean of 5 outer folds (moved: folds whose choice is not "
          "the defaults)\n")
    print("| corpus | keep unless 1.96 SE | moved | best trial | moved | defaults |")
    print("|---|---|---|---|---|---|")
    totals = []
    for corpus in corpora:
        with tempfile.TemporaryDirectory() as folder:
            folds = training_folds(corpus, folder)
            rows = [fold_scores(kind, train, test) for train, test in folds]
        rule, best, defaults, moved_rule, moved_best = zip(*rows)
        totals.append((mean(rule), mean(best), mean(defaults)))
        print(f"| {corpus} | {mean(rule):.4f} | {sum(moved_rule)} | {mean(best):.4f} | "
              f"{sum(moved_best)} | {mean(defaults):.4f} |", flush=True)
    rule, best, defaults = (mean(column) for column in zip(*totals))
    print(f"| mean | {rule:.4f} | | {best:.4f} | | {defaults:.4f} |")


if __name__ == "__main__":
    main()
