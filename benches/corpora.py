"""Writes the splits the defaults and comparison benchmarks use, from ../shared/corpora, into a
folder (nothing of the corpora is committed):

- sms-train.tsv, sms-test.tsv: the SMS Spam Collection split 70/30 by a hash of each line's
  number, the split tests/classify_shared.rs uses;
- reuters-train.jsonl, reuters-test.jsonl: Reuters-21578 ModApte, the documents with exactly one
  label, as {"id", "label", "text"};
- amazon-K-train.tsv, amazon-K-test.tsv (and imdb), K = 1..5: stratified 5-fold splits of the
  sentiment sentences, shuffled with seed 0 (scikit-learn's StratifiedKFold), so that bowline and
  scikit-learn see the same folds.

    python benches/corpora.py OUT_DIR
"""
import json
import os
import sys

SHARED = "../shared/corpora"
MASK = (1 << 64) - 1


def mix(z):
    """SplitMix64's finalizer, as tests/classify_shared.rs computes it."""
    z = (z + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def sms(out):
    with open(f"{SHARED}/sms-spam/SMSSpamCollection.tsv", encoding="utf-8") as f:
        lines = f.read().splitlines()
    parts = {"train": [], "test": []}
    for number, line in enumerate(lines):
        if number == 0:
            continue
        parts["train" if mix(number) % 100 < 70 else "test"].append(line)
    for name, rows in parts.items():
        with open(os.path.join(out, f"sms-{name}.tsv"), "w", encoding="utf-8") as f:
            f.write("".join(row + "\n" for row in rows))


def reuters(out):
    for name in ["train", "test"]:
        with open(f"{SHARED}/reuters21578/{name}.jsonl", encoding="utf-8") as f:
            records = [json.loads(line) for line in f]
        with open(os.path.join(out, f"reuters-{name}.jsonl"), "w", encoding="utf-8") as f:
            for r in records:
                if len(r["labels"]) == 1:
                    row = {"id": r["id"], "label": r["labels"][0], "text": r["text"]}
                    f.write(json.dumps(row) + "\n")


def sentiment(out):
    from sklearn.model_selection import StratifiedKFold

    for name in ["amazon", "imdb"]:
        with open(f"{SHARED}/sentiment-sentences/{name}.tsv", encoding="utf-8") as f:
            rows = [line.split("\t", 1) for line in f.read().splitlines()[1:]]
        labels = [label for label, _ in rows]
        folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
        for k, (train, test) in enumerate(folds.split(rows, labels), start=1):
            for part, index in [("train", train), ("test", test)]:
                path = os.path.join(out, f"{name}-{k}-{part}.tsv")
                with open(path, "w", encoding="utf-8") as f:
                    f.write("label\ttext\n")
                    f.write("".join(f"{rows[i][0]}\t{rows[i][1]}\n" for i in index))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    sms(out)
    reuters(out)
    sentiment(out)


if __name__ == "__main__":
    main()
