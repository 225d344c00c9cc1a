"""bowline's default SVM and multinomial NB beside scikit-learn's usual pipelines, on the same
splits of five corpora, in one run:

    scikit-learn svm: TfidfVectorizer(sublinear_tf=True) + LinearSVC()
    scikit-learn mnb: TfidfVectorizer(sublinear_tf=True) + MultinomialNB(alpha=0.01)
    bowline svm/mnb:  bowline train --classifier svm|mnb (its defaults), then bowline eval

Each corpus is trained on its training part and tested on its test part: for 20news, sms and
reuters (one-label documents) their own, for amazon and imdb the stratified 30% that
benches/corpora.py holds out and benches/defaults.py never reads, so that bowline's defaults are
scored on sentences that choosing them never saw. With --train-cv, every corpus is compared by
5-fold cross-validation of its training part instead (scikit-learn's
StratifiedKFold(shuffle=True, random_state=0), written to a temporary folder), so that no test
part is read. Extra arguments to bowline train (e.g. --char-ngrams 2..5) go after `--`;
--char-wb makes scikit-learn use TfidfVectorizer(analyzer='char_wb', ngram_range=(2, 5))
likewise. --kinds chooses bowline's classifiers (default svm,mnb); cnb, bnb and knn have no
scikit-learn counterpart here, so only bowline's figures are printed for them.

    python benches/compare.py [--char-wb] [--train-cv] [--corpora a,b] [--kinds a,b]
                              [-- BOWLINE_TRAIN_FLAGS...]

Run from the project's root, after benches/corpora.py has written target/bench-corpora.

Prints a line naming the setup, then a markdown table: accuracy of each, and the time of each
side as whole processes (bowline's train and eval; scikit-learn's read, fit and predict in a
process of its own, this script started again with --peer), with bowline's speed as a ratio. The
time scikit-learn's processes spend starting Python and importing (the median of five starts,
times the processes) stands beside each row. bowline uses every core; LinearSVC and
MultinomialNB take no n_jobs, so scikit-learn uses one.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from sklearn import __version__ as SKLEARN_VERSION
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.naive_bayes import MultinomialNB
from sklearn.svm import LinearSVC

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
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
    return [(f"{DATA}/{corpus}-train.tsv", f"{DATA}/{corpus}-test.tsv")]


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
    """scikit-learn's accuracy on one split and the time of its whole process, which starts Python
    and imports scikit-learn as bowline's time includes its own start."""
    command = [sys.executable, os.path.join(HERE, "compare.py"), "--peer", kind, train, test]
    started = time.perf_counter()
    result = subprocess.run(command + (["--char-wb"] if char_wb else []), check=True,
                            capture_output=True, text=True)
    return float(result.stdout), time.perf_counter() - started


def peer(kind, train, test, char_wb):
    """scikit-learn's side of one split, run in a process of its own by sklearn()."""
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
    return sum(p == t for p, t in scored) / len(scored)


def startup():
    """The median of five starts of Python importing what this script imports: the part of each
    scikit-learn process's time that is not work."""
    times = []
    for _ in range(5):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import compare"], check=True, cwd=HERE)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


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
    if args[:1] == ["--peer"]:
        print(peer(*args[1:4], "--char-wb" in args[4:]))
        return
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
    start = startup()
    scored = ("5-fold cross-validation of each training part" if train_cv else
              "each test part; amazon and imdb: the 30% held out from benches/defaults.py")
    analysis = "char_wb 2..5-grams" if char_wb else "words"
    cores = len(os.sched_getaffinity(0))
    print(f"setup: whole processes (bowline train and eval; scikit-learn one process a split), "
          f"scikit-learn's Python start-up and imports {start:.2f} s a process (median of 5); "
          f"threads: bowline {cores} (all cores), scikit-learn 1 (LinearSVC and "
          f"MultinomialNB take no n_jobs); features: each side's defaults (scikit-learn "
          f"TfidfVectorizer(sublinear_tf=True), {analysis}; bowline train "
          f"{' '.join(flags) or 'defaults'}); scored on {scored}; "
          f"scikit-learn {SKLEARN_VERSION}\n")
    print("| corpus | classifier | bowline | scikit-learn | bowline time | scikit-learn time "
          "| of which start-up | speed |")
    print("|---|---|---|---|---|---|---|---|")
    folder = tempfile.TemporaryDirectory() if train_cv else None
    for corpus in corpora:
        parts = training_folds(corpus, folder.name) if train_cv else splits(corpus)
        for kind in kinds:
            ours = [bowline(kind, train, test, flags) for train, test in parts]
            a, t = mean([r[0] for r in ours]), sum(r[1] for r in ours)
            if kind not in ("svm", "mnb"):
                print(f"| {corpus} | {kind} | {a:.4f} | | {t:.2f} s | | | |", flush=True)
                continue
            theirs = [sklearn(kind, train, test, char_wb) for train, test in parts]
            b, u = mean([r[0] for r in theirs]), sum(r[1] for r in theirs)
            print(f"| {corpus} | {kind} | {a:.4f} | {b:.4f} | {t:.2f} s | {u:.2f} s "
                  f"| {start * len(parts):.2f} s | {u / t:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
