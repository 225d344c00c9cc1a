"""scikit-learn's side of benches/approx.sh: Nystroem or RBFSampler, then LinearSVC, on the same
svmlight matrices that bowline's linear SVM over a kernel approximation is timed on (the split
is benches/sklearn_kernel.py's).

    python benches/sklearn_approx.py TRAIN.svm TEST.svm APPROX M GAMMA C RUNS

APPROX is nystroem or rff. Fitting is the map's fit_transform of the training rows and
LinearSVC(C)'s fit; predicting is the map's transform of the test rows and LinearSVC's predict.
Both maps draw with random_state 1. Prints the accuracy and the median fit and predict times
as one JSON line. Reading the files is not timed, on either side.
"""
import json
import statistics
import sys
import time

import numpy as np
from sklearn.datasets import load_svmlight_files
from sklearn.kernel_approximation import Nystroem, RBFSampler
from sklearn.svm import LinearSVC


def fit(train, test, approx, m, gamma, c, runs):
    x, y, x_test, y_test = load_svmlight_files([train, test], zero_based=False)
    fits, predicts = [], []
    for _ in range(runs):
        if approx == "nystroem":
            mapper = Nystroem(kernel="rbf", gamma=gamma, n_components=m, random_state=1)
        else:
            mapper = RBFSampler(gamma=gamma, n_components=m, random_state=1)
        model = LinearSVC(C=c)
        start = time.perf_counter()
        model.fit(mapper.fit_transform(x), y)
        fits.append(time.perf_counter() - start)
        start = time.perf_counter()
        predicted = model.predict(mapper.transform(x_test))
        predicts.append(time.perf_counter() - start)
    print(json.dumps({
        "accuracy": float(np.mean(predicted == y_test)),
        "fit": statistics.median(fits),
        "predict": statistics.median(predicts),
    }))


if __name__ == "__main__":
    a = sys.argv[1:]
    fit(a[0], a[1], a[2], int(a[3]), float(a[4]), float(a[5]), int(a[6]))
