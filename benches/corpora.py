"""Writes the splits the defaults and comparison benchmarks use, from ../shared/corpora, into a
folder (nothing of the corpora is committed):

- sms-train.tsv, sms-test.tsv: the SMS Spam Collection split 70/30 by a hash of each line's
  number, the split tests/classify_shared.rs uses;
- reuters-train.jsonl, reuters-test.jsonl: Reuters-21578 ModApte, the documents with exactly one
  label, as {"id", "label", "text"};
- amazon-train.tsv, amazon-test.tsv (and imdb): the sentiment sentences split 70/30, stratified:
  within each label, the 30% of lines with the smallest SHA-256 of their text are held out as the
  test part, so that a sentence the corpus repeats falls on one side only. benches/defaults.py
  chooses bowline's defaults on the training part alone, so that benches/compare.py can score
  those defaults on sentences that choosing them never saw.

    python benches/corpora.py OUT_DIR
"""
import hashlib
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


# The share of each sentiment corpus held out from choosing the defaults.
HELD_OUT = 0.3


def sentiment(out):
    for name in ["amazon", "imdb"]:
        with open(f"{SHARED}/sentiment-sentences/{name}.tsv", encoding="utf-8") as f:
            lines = f.read().splitlines()
        by_label = {}
        for number, line in enumerate(lines):
            if number > 0:
                by_label.setdefault(line.split("\t", 1)[0], []).append(number)
        # Held out per label, so that the test part keeps the classes' proportions exactly; ties
        # (repeated sentences) are broken by the line number, so the split is fixed.
        held_out = set()
        for numbers in by_label.values():
            numbers.sort(key=lambda n: (hashlib.sha256(lines[n].encode()).digest(), n))
            held_out.update(numbers[:round(len(numbers) * HELD_OUT)])
        for part in ["train", "test"]:
            chosen = [lines[n] for n in range(1, len(lines)) if (n in held_out) == (part == "test")]
            with open(os.path.join(out, f"{name}-{part}.tsv"), "w", encoding="utf-8") as f:
                f.write("label\ttext\n")
                f.write("".join(line + "\n" for line in chosen))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    sms(out)
    reuters(out)
    sentiment(out)


if __name__ == "__main__":
    main()
