"""The Python package against scikit-learn, side by side in one Python process (benches/python.sh).

Three comparisons on 20 Newsgroups (fit on train, predict test), each the median of RUNS rounds
with the two sides alternating within a round:

1. ``bowline.TextClassifier(kind="svm")`` under scikit-learn's features against
   ``make_pipeline(TfidfVectorizer(sublinear_tf=True), LinearSVC())``: fit plus predict, and the
   test accuracy of both;
2. ``bowline.Vectorizer.fit_transform`` against ``TfidfVectorizer(sublinear_tf=True)
   .fit_transform`` on the training texts;
3. ``bowline.MultinomialNB`` against scikit-learn's ``MultinomialNB`` (alpha 0.01 both), fit plus
   predict on the same CSR matrices (scikit-learn's TF-IDF of train and test).

scikit-learn's features are bowline's analysis with words alone, no stemming, and the word-runs
tokenizer with no longest token, which splits as ``\\b\\w\\w+\\b`` does (it keeps tokens of two
characters or more, no stop words, sublinear TF, smoothed idf and unit rows by default); the
vocabulary sizes, and whether the two vocabularies are the same, are printed. Both sides get the same decoded texts, read as ``load_files`` reads them
(UTF-8, else Latin-1). bowline gets every core (``n_jobs=-1``); scikit-learn's estimators here
take no ``n_jobs``.

    python benches/python.py CORPUS RUNS       (CORPUS holds train/ and test/)
"""

import os
import statistics
import sys
import time

import numpy as np
import sklearn
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.naive_bayes import MultinomialNB
from sklearn.pipeline import make_pipeline
from sklearn.svm import LinearSVC

from sklearn_vectorize import read_corpus

import bowline

# bowline's analysis as scikit-learn's TfidfVectorizer(sublinear_tf=True) analyzes: words alone,
# not stemmed, split into runs of letters, digits and _ as its token pattern splits them, however
# long; the rest (tokens of 2 characters or more, no stop words, sublinear TF, smoothed idf, L2
# rows, min_df 1) are bowline's defaults already and are written out to be plain.
SKLEARN_FEATURES = dict(
    tokenizer="word-runs",
    max_token_len=1_000_000,
    ngram_range=(1, 1),
    stem="none",
    stop_words="none",
    min_token_len=2,
    tf="sublinear",
    idf="smooth",
    norm="l2",
    min_df=1,
)


def read_split(root):
    """(texts, labels) of a class-per-folder split, read as scikit-learn's side of
    vectorize.sh reads it (sklearn.datasets.load_files' way)."""
    texts, labels = read_corpus(root)
    return texts, np.array(labels)


def timed(run):
    """The seconds ``run()`` takes, and what it returns."""
    started = time.perf_counter()
    result = run()
    return time.perf_counter() - started, result


def compare(name, ours, theirs, runs):
    """Runs both sides ``runs`` times, alternating, and prints the medians and the ratio.
    Returns the last results of both."""
    our_times, their_times = [], []
    for _ in range(runs):
        seconds, our_result = timed(ours)
        our_times.append(seconds)
        seconds, their_result = timed(theirs)
        their_times.append(seconds)
    a, b = statistics.median(our_times), statistics.median(their_times)
    print(f"{name:<34} bowline {a:7.3f} s   scikit-learn {b:7.3f} s   ratio {b / a:5.1f}x")
    return our_result, their_result


def main():
    corpus, runs = sys.argv[1], int(sys.argv[2])
    train, y_train = read_split(os.path.join(corpus, "train"))
    test, y_test = read_split(os.path.join(corpus, "test"))
    print(
        f"setup: one Python process, median of {runs}; threads: bowline {os.cpu_count()} "
        f"(n_jobs=-1), scikit-learn 1 (no n_jobs on these estimators); bowline "
        f"{bowline.__version__}, scikit-learn {sklearn.__version__}; {len(train)} train, "
        f"{len(test)} test texts"
    )

    def ours_svm():
        model = bowline.TextClassifier(kind="svm", C=1.0, n_jobs=-1, **SKLEARN_FEATURES)
        return model.fit(train, y_train).predict(test)

    def theirs_svm():
        model = make_pipeline(TfidfVectorizer(sublinear_tf=True), LinearSVC(C=1.0))
        return model.fit(train, y_train).predict(test)

    ours, theirs = compare("TextClassifier svm, fit+predict", ours_svm, theirs_svm, runs)
    print(
        f"{'':<34} accuracy bowline {np.mean(ours == y_test):.4f}   "
        f"scikit-learn {np.mean(theirs == y_test):.4f}"
    )

    ours, theirs = compare(
        "Vectorizer.fit_transform (train)",
        lambda: bowline.Vectorizer(n_jobs=-1, **SKLEARN_FEATURES).fit_transform(train),
        lambda: TfidfVectorizer(sublinear_tf=True).fit_transform(train),
        runs,
    )
    print(
        f"{'':<34} columns bowline {ours.shape[1]}, scikit-learn {theirs.shape[1]}; "
        f"non-zeros {ours.nnz}, {theirs.nnz}; same matrix "
        f"{ours.shape == theirs.shape and abs(ours - theirs).max() <= 1e-12}"
    )

    vectorizer = TfidfVectorizer(sublinear_tf=True)
    x_train, x_test = vectorizer.fit_transform(train), vectorizer.transform(test)
    ours, theirs = compare(
        "MultinomialNB on one CSR, fit+pred",
        lambda: bowline.MultinomialNB(alpha=0.01).fit(x_train, y_train).predict(x_test),
        lambda: MultinomialNB(alpha=0.01).fit(x_train, y_train).predict(x_test),
        runs,
    )
    print(
        f"{'':<34} accuracy bowline {np.mean(ours == y_test):.4f}   "
        f"scikit-learn {np.mean(theirs == y_test):.4f}; same predictions "
        f"{np.mean(ours == theirs):.4f}"
    )


if __name__ == "__main__":
    main()
