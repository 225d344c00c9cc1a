"""bowline's default SVM and multinomial NB beside scikit-learn's usual pipelines, on the same
splits of five corpora, in one run:

    scikit-learn svm: TfidfVectorizer(sublinear_tf=True) + LinearSVC()
    scikit-learn mnb: TfidfVectorizer(sublinear_tf=True) + MultinomialNB(alpha=0.01)
    bowline svm/mnb:  bowline train --classifier svm|mnb (its defaults), then bowline eval

20news, sms and reuters (one-label documents) are trained on their training part and tested on
their test part; amazon and imdb by 5-fold cross-validation on the folds of benches/corpora.py.
With --train-cv, 20news, sms and reuters are compared by 5-fold cross-validation of their
training part instead (scikit-learn's StratifiedKFold(shuffle=True, random_state=0), written to
a temporary folder), so that no test split is read. Extra arguments to bowline train (e.g.
--char-ngrams 2..5) go after `--`; --char-wb makes scikit-learn use
TfidfVectorizer(analyzer='char_wb', ngram_range=(2, 5)) likewise. --kinds chooses bowline's
classifiers (default svm,mnb); cnb, bnb and knn have no scikit-learn counterpart here, so only
bowline's figures are printed for them.

    python benches/compare.py [--char-wb] [--train-cv] [--corpora a,b] [--kinds a,b]
                              [-- BOWLINE_TRAIN_FLAGS...]

Run from the project's root, after benches/corpora.py has written target/bench-corpora.

Prints a markdown table: accuracy of each, and the time of each whole run (read, fit, predict)
with bowline's speed as a ratio.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.naive_bayes import MultinomialNB
from sklearn.svm import LinearSVC

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sklearn_vectorize import read_corpus  # noqa: E402

BOWLINE = os.environ.get("BOWLINE", "target/release/bowline")
DATA = "target/bench-corpora"
NEWS = "../shared/corpora/20news-bydate"


def splits(corpus):
    if corpus == "20news":
        return [(f"{NEWS}/train", f"{NEWS}/test")]
    if corpus == "sms":
        return [(f"{DATA}/sms-train.tsv", f"{DATA}/sms-test.tsv")]
    if corpus == "reuters":
        return [(f"{DATA}/reuters-train.jsonl", f"{DATA}/reuters-test.jsonl")]
    return [(f"{DATA}/{corpus}-{k}-train.tsv", f"{DATA}/{corpus}-{k}-test.tsv")
            for k in range(1, 6)]


def training_folds(corpus, folder):
    """Five stratified folds of the training part of `corpus`, as JSONL files in `folder`."""
    from sklearn.model_selection import StratifiedKFold

    texts, labels = read(splits(corpus)[0][0])
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    paths = []
    for k, (train, test) in enumerate(folds.split(texts, labels), start=1):
        pair = []
        for part, index in [("train", train), ("test", test)]:
            path = os.path.join(folder, f"{corpus}-{k}-{part}.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                for i in index:
                    f.write(json.dumps({"id": str(i), "label": labels[i], "text": texts[i]}) + "\n")
            pair.append(path)
        paths.append(tuple(pair))
    return paths


def read(path):
    if os.path.isdir(path):
        return read_corpus(path)
    texts, labels = [], []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if path.endswith(".jsonl"):
        for line in lines:
            record = json.loads(line)
            texts.append(record["text"])
            labels.append(record["label"])
        return texts, labels
    for number, line in enumerate(lines):
        label, text = line.split("\t", 1)
        if number == 0 and label.lower() in ("label", "labels"):
            continue
        texts.append(text)
        labels.append(label)
    return texts, labels


def sklearn(kind, train, test, char_wb):
    started = time.perf_counter()
    x_train, y_train = read(train)
    x_test, y_test = read(test)
    options = {"analyzer": "char_wb", "ngram_range": (2, 5)} if char_wb else {}
    vectorizer = TfidfVectorizer(sublinear_tf=True, **options)
    model = LinearSVC() if kind == "svm" else MultinomialNB(alpha=0.01)
    model.fit(vectorizer.fit_transform(x_train), y_train)
    predicted = model.predict(vectorizer.transform(x_test))
    # bowline's eval leaves out (and reports) the test documents of labels that training never
    # saw, which no classifier gets right: 13 of Reuters' 2,582. Score scikit-learn on the same.
    known = set(y_train)
    scored = [(p, t) for p, t in zip(predicted, y_test) if t in known]
    accuracy = sum(p == t for p, t in scored) / len(scored)
    return accuracy, time.perf_counter() - started


def bowline(kind, train, test, flags):
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, "m")
        started = time.perf_counter()
        subprocess.run([BOWLINE, "train", train, "--classifier", kind, "-o", model, "-q", *flags],
                       check=True, stderr=subprocess.DEVNULL)
        accuracy = evaluate(model, test)
        elapsed = time.perf_counter() - started
    return accuracy, elapsed


def evaluate(model, test):
    """`bowline eval`'s accuracy of `model` on `test`."""
    result = subprocess.run([BOWLINE, "eval", model, test, "--json", "-q"], check=True,
                            capture_output=True, text=True)
    return json.loads(result.stdout)["accuracy"]


def mean(values):
    return sum(values) / len(values)


def main():
    args = sys.argv[1:]
    flags = args[args.index("--") + 1:] if "--" in args else []
    args = args[:args.index("--")] if "--" in args else args
    char_wb = "--char-wb" in args
    train_cv = "--train-cv" in args
    corpora = ["20news", "sms", "reuters", "amazon", "imdb"]
    if "--corpora" in args:
        corpora = args[args.index("--corpora") + 1].split(",")
    kinds = ["svm", "mnb"]
    if "--kinds" in args:
        kinds = args[args.index("--kinds") + 1].split(",")
    print("| corpus | classifier | bowline | scikit-learn | bowline time | scikit-learn time "
          "| speed |")
    print("|---|---|---|---|---|---|---|")
    folder = tempfile.TemporaryDirectory() if train_cv else None
    for corpus in corpora:
        parts = splits(corpus)
        if train_cv and len(parts) == 1:
            parts = training_folds(corpus, folder.name)
        for kind in kinds:
            ours = [bowline(kind, train, test, flags) for train, test in parts]
            a, t = mean([r[0] for r in ours]), sum(r[1] for r in ours)
            if kind not in ("svm", "mnb"):
                print(f"| {corpus} | {kind} | {a:.4f} | | {t:.2f} s | | |", flush=True)
                continue
            theirs = [sklearn(kind, train, test, char_wb) for train, test in parts]
            b, u = mean([r[0] for r in theirs]), sum(r[1] for r in theirs)
            print(f"| {corpus} | {kind} | {a:.4f} | {b:.4f} | {t:.2f} s | {u:.2f} s "
                  f"| {u / t:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
