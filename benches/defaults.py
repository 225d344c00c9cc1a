"""Chooses each classifier's defaults by cross-validation on training data only.

For every kind of classifier and every candidate setting (stop words, stemming, word n-grams,
min-df, the kind's parameter, and for the SVM the weight of word pairs), runs `bowline cv`
(5 folds, seed 1) on the training data of five corpora of different kinds:

    20news    20 Newsgroups bydate, train/ only                      (topics)
    sms       the SMS Spam Collection, the 70% training part         (short messages)
    reuters   Reuters-21578 ModApte train, one-label documents       (news)
    amazon    the amazon sentiment sentences, the 70% training part  (short opinions)
    imdb      the imdb sentiment sentences, the 70% training part    (short opinions)

No test split is read. The sentiment corpora have none of their own, so benches/corpora.py holds
out a stratified 30% of each (by a hash of each sentence), which this script never reads and
benches/compare.py scores the chosen defaults on. Each candidate gets its rank on each corpus (1 = best accuracy; accuracies
equal to four decimals share their mean rank); the default is the candidate with the best mean
rank over the five (ties: the higher mean accuracy). Writes benches/defaults.md (every
candidate's accuracies; a run for some kinds keeps the other kinds' tables) and prints the
chosen settings.

The SVM's C stops at 3. Above it, accuracy is flat and training slows: with the chosen analysis,
5-fold CV's mean over the five corpora is 0.9075 at C 3, 0.9070 at 10 and 0.9074 at 30, while
training on 20news train takes 3.4, 5.1 and 11.2 s (33.9 s at 100). (Those accuracies were
measured when amazon and imdb were read whole, before their 30% was held out.)

    python benches/defaults.py [KIND ...]      # KIND: svm mnb cnb bnb knn (default: all)

Results are cached in target/defaults-cache.json, so an interrupted run picks up where it left.
"""
import itertools
import json
import os
import subprocess
import sys

BOWLINE = os.environ.get("BOWLINE", "target/release/bowline")
DATA = "target/bench-corpora"
CACHE = "target/defaults-cache.json"
CORPORA = {
    "20news": "../shared/corpora/20news-bydate/train",
    "sms": f"{DATA}/sms-train.tsv",
    "reuters": f"{DATA}/reuters-train.jsonl",
    "amazon": f"{DATA}/amazon-train.tsv",
    "imdb": f"{DATA}/imdb-train.tsv",
}
ANALYSIS = {
    "stop": ["english", "none"],
    "stem": ["none", "english"],
    "ngrams": ["1", "1..2"],
    "min_df": ["1", "2"],
}
PARAMETER = {
    "svm": ("c", ["0.3", "1", "3"]),
    "mnb": ("alpha", ["auto", "0.01", "0.03", "0.1", "0.3", "1"]),
    "cnb": ("alpha", ["0.01", "0.03", "0.1", "0.3", "1"]),
    "bnb": ("alpha", ["0.001", "0.01", "0.1", "1"]),
    "knn": ("k", ["10", "30"]),
}


# The SVM's weight on word pairs (`--ngram-weight`); 1 is left out of a candidate's name, and
# candidates without pairs have no weight to choose.
PAIR_WEIGHTS = {"svm": ["1", "0.7", "0.5", "0.3"]}


def candidates(kind):
    name, values = PARAMETER[kind]
    axes = list(ANALYSIS.items()) + [(name, values)]
    for combination in itertools.product(*(values for _, values in axes)):
        candidate = dict(zip((axis for axis, _ in axes), combination))
        for weight in PAIR_WEIGHTS.get(kind, ["1"]):
            if weight == "1":
                yield candidate
            elif candidate["ngrams"] != "1":
                yield {**candidate, "ngram_weight": weight}


def flags(candidate):
    out = []
    for key, value in candidate.items():
        flag = {"stop": "--stop-words", "min_df": "--min-df",
                "ngram_weight": "--ngram-weight"}.get(key, f"--{key}")
        out += [flag, value]
    return out


def key_of(kind, corpus, candidate):
    # Keyed by the file rather than the corpus's name, so that a cache written when amazon and
    # imdb were read whole is not taken for their training parts.
    return json.dumps([kind, CORPORA[corpus], candidate], sort_keys=True)


def cv(kind, corpus, candidate, cache):
    key = key_of(kind, corpus, candidate)
    if key not in cache:
        # The weight is always given, so that a candidate means the same whatever the default.
        unnamed = kind in PAIR_WEIGHTS and "ngram_weight" not in candidate
        weight = ["--ngram-weight", "1"] if unnamed else []
        command = [BOWLINE, "cv", CORPORA[corpus], "--classifier", kind, "--folds", "5",
                   "--seed", "1", "--json", "-q", *flags(candidate), *weight]
        result = subprocess.run(command, capture_output=True, text=True, check=True)
        cache[key] = json.loads(result.stdout)["accuracy"]["mean"]
        with open(CACHE, "w") as f:
            json.dump(cache, f)
    return cache[key]


def label(candidate):
    return " ".join(f"{k}={v}" for k, v in candidate.items())


def tied_ranks(accuracies):
    """Rank 1 for the best. Accuracies equal to four decimals tie and share their mean rank: the
    sentiment corpora's fold means are multiples of 1/700 (five folds of 140 sentences), so
    their ties are real, and beyond four decimals two means differ only by floating-point
    rounding."""
    rounded = [round(a, 4) for a in accuracies]
    return [sum(b > a for b in rounded) + (sum(b == a for b in rounded) + 1) / 2
            for a in rounded]


def choose(kind, cache):
    table = []
    for candidate in candidates(kind):
        scores = {c: cv(kind, c, candidate, cache) for c in CORPORA}
        table.append((candidate, scores))
        print(f"{kind} {label(candidate)}: "
              + " ".join(f"{c} {s:.4f}" for c, s in scores.items()), file=sys.stderr)
    ranks = {i: [] for i in range(len(table))}
    for corpus in CORPORA:
        for i, rank in enumerate(tied_ranks([scores[corpus] for _, scores in table])):
            ranks[i].append(rank)
    rows = []
    for i, (candidate, scores) in enumerate(table):
        mean_rank = sum(ranks[i]) / len(ranks[i])
        mean = sum(scores.values()) / len(scores)
        rows.append((mean_rank, -mean, candidate, scores))
    rows.sort(key=lambda r: (r[0], r[1]))
    return rows


def markdown(kind, rows):
    lines = [f"## {kind}", "",
             "| rank | setting | " + " | ".join(CORPORA) + " | mean | mean rank |",
             "|---|---|" + "---|" * len(CORPORA) + "---|---|"]
    for position, (mean_rank, minus_mean, candidate, scores) in enumerate(rows, start=1):
        cells = " | ".join(f"{scores[c]:.4f}" for c in CORPORA)
        lines.append(f"| {position} | {label(candidate)} | {cells} | {-minus_mean:.4f} "
                     f"| {mean_rank:.1f} |")
    return "\n".join(lines) + "\n"


def main():
    kinds = sys.argv[1:] or list(PARAMETER)
    os.makedirs(DATA, exist_ok=True)
    subprocess.run([sys.executable, "benches/corpora.py", DATA], check=True)
    cache = {}
    if os.path.exists(CACHE):
        with open(CACHE) as f:
            cache = json.load(f)
    sections = sections_of("benches/defaults.md")
    for kind in kinds:
        rows = choose(kind, cache)
        sections[kind] = markdown(kind, rows)
        print(f"{kind}: chosen {label(rows[0][2])} (mean rank {rows[0][0]:.1f}, "
              f"mean accuracy {-rows[0][1]:.4f})")
    header = ("# Candidate defaults by 5-fold cross-validation on training data\n\n"
              "Written by `benches/defaults.py`; the method is in benches/README.md. "
              "Accuracy is the mean over the folds; rank 1 is each kind's default. amazon and "
              "imdb are their 70% training parts (`benches/corpora.py`); the other 30% is held "
              "out for `benches/compare.py`.\n\n")
    with open("benches/defaults.md", "w") as f:
        f.write(header + "\n".join(sections[kind] for kind in PARAMETER if kind in sections))


def sections_of(path):
    """The kinds' tables already in `path`, so that a run for some kinds keeps the others'."""
    sections = {}
    if os.path.exists(path):
        with open(path) as f:
            for part in f.read().split("\n## ")[1:]:
                kind = part.split("\n", 1)[0]
                sections[kind] = "## " + part.rstrip("\n") + "\n"
    return sections


if __name__ == "__main__":
    main()
