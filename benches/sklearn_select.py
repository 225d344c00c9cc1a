"""scikit-learn's side of benches/select.sh: greedy forward selection with
SequentialFeatureSelector(MultinomialNB(), cv=PredefinedSplit) over the top chi-squared
candidates, on 20 Newsgroups train with a stratified 20% dev split.

    python benches/sklearn_select.py TRAIN_ROOT CANDIDATES STEPS

Vectorizes with TfidfVectorizer(sublinear_tf=True, stop_words="english"), takes the CANDIDATES
best features by chi2 on the training part, then adds STEPS features one at a time, each the one
whose MultinomialNB(alpha=0.05) scores best on the dev part. Prints the dev accuracy of the
selected features and the time spent selecting.

It runs on one core (n_jobs=1), while bowline uses every core: SequentialFeatureSelector's n_jobs
runs the folds of each candidate's cross-validation in parallel, and a PredefinedSplit has one
fold, so more jobs have nothing to share and only hand each candidate to a worker. scikit-learn
1.9.1 loops over the candidates itself and passes n_jobs to cross_val_score for each one. On 20
Newsgroups train, 5 steps over 300 candidates took 20.6 s with n_jobs=1, 71.2 s with n_jobs=2
(loky worker processes) and 34.5 s with n_jobs=2 under the threading backend, on a quiet 2-core
machine (load 1.3 before, 0.6 after), with the same features chosen each time.
"""
import sys
import time

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.feature_selection import SelectKBest, SequentialFeatureSelector, chi2
from sklearn.model_selection import PredefinedSplit, train_test_split
from sklearn.naive_bayes import MultinomialNB

from sklearn_vectorize import read_corpus


def main():
    root, candidates, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    texts, labels = read_corpus(root)
    labels = np.asarray(labels)
    train, dev = train_test_split(np.arange(len(labels)), test_size=0.2, stratify=labels,
                                  random_state=1)
    x = TfidfVectorizer(sublinear_tf=True, stop_words="english").fit_transform(texts)
    kbest = SelectKBest(chi2, k=candidates).fit(x[train], labels[train])
    x = kbest.transform(x)
    fold = np.full(len(labels), -1)
    fold[dev] = 0
    started = time.perf_counter()
    selector = SequentialFeatureSelector(MultinomialNB(alpha=0.05), n_features_to_select=steps,
                                         direction="forward", scoring="accuracy",
                                         cv=PredefinedSplit(fold), n_jobs=1)
    selector.fit(x, labels)
    chosen = selector.get_support()
    model = MultinomialNB(alpha=0.05).fit(x[train][:, chosen], labels[train])
    accuracy = (model.predict(x[dev][:, chosen]) == labels[dev]).mean()
    print(f"sklearn: {steps} steps over {candidates} candidates in "
          f"{time.perf_counter() - started:.1f} s; dev accuracy {accuracy:.4f}", file=sys.stderr)


if __name__ == "__main__":
    main()
