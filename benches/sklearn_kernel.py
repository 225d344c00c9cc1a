"""scikit-learn's side of benches/kernel.sh: SVC (LIBSVM) on the same svmlight matrices that
bowline's kernel SVM is timed on.

    python benches/sklearn_kernel.py split ALL.svm SEED OUT_DIR
    python benches/sklearn_kernel.py fit TRAIN.svm TEST.svm KERNEL C GAMMA DEGREE COEF0 RUNS CACHE_MB

`split` shuffles the rows of ALL.svm (bowline's vectorized corpus) with numpy's generator seeded
by SEED and writes the first 70% to OUT_DIR/train.svm and the rest to OUT_DIR/test.svm, 1-based.
`fit` trains SVC(kernel, C, gamma, degree, coef0, cache_size=CACHE_MB) and predicts the test rows RUNS times, and
prints the accuracy and the median fit and predict times as one JSON line. Reading the files is
not timed, on either side.
"""
import json
import statistics
import sys
import time

import numpy as np
from sklearn.datasets import dump_svmlight_file, load_svmlight_file, load_svmlight_files
from sklearn.svm import SVC


def split(path, seed, out):
    x, y = load_svmlight_file(path, zero_based=False)
    order = np.random.default_rng(seed).permutation(x.shape[0])
    cut = int(round(0.7 * len(order)))
    for name, rows in (("train", order[:cut]), ("test", order[cut:])):
        dump_svmlight_file(x[rows], y[rows].astype(int), f"{out}/{name}.svm", zero_based=False)


def narrow(x):
    """The matrix with 32-bit indices, which SVC requires and load_svmlight_files does not give."""
    x.indices, x.indptr = x.indices.astype(np.int32), x.indptr.astype(np.int32)
    return x


def fit(train, test, kernel, c, gamma, degree, coef0, runs, cache):
    x, y, x_test, y_test = load_svmlight_files([train, test], zero_based=False)
    x, x_test = narrow(x), narrow(x_test)
    gamma = gamma if gamma == "scale" else float(gamma)
    fits, predicts = [], []
    for _ in range(runs):
        model = SVC(kernel=kernel, C=c, gamma=gamma, degree=degree, coef0=coef0,
                    cache_size=cache)
        start = time.perf_counter()
        model.fit(x, y)
        fits.append(time.perf_counter() - start)
        start = time.perf_counter()
        predicted = model.predict(x_test)
        predicts.append(time.perf_counter() - start)
    print(json.dumps({
        "accuracy": float(np.mean(predicted == y_test)),
        "fit": statistics.median(fits),
        "predict": statistics.median(predicts),
        "support_vectors": int(model.support_vectors_.shape[0]),
    }))


if __name__ == "__main__":
    if sys.argv[1] == "split":
        split(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        a = sys.argv[2:]
        fit(a[0], a[1], a[2], float(a[3]), a[4], int(a[5]), float(a[6]), int(a[7]), float(a[8]))
