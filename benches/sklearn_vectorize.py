"""scikit-learn's side of benches/vectorize.sh: TfidfVectorizer(sublinear_tf=True) fit+transform.

Reads a class-per-folder corpus the way sklearn.datasets.load_files does (bytes, decoded as UTF-8
with Latin-1 as the fallback), then fits and transforms. Prints one line of figures; the whole
process is timed from outside by hyperfine, the fit+transform alone from inside.
"""
import os
import sys
import time

from sklearn.feature_extraction.text import TfidfVectorizer


def read_corpus(root):
    texts, labels = [], []
    for label in sorted(os.listdir(root)):
        folder = os.path.join(root, label)
        if not os.path.isdir(folder):
            continue
        for dirpath, _, files in sorted(os.walk(folder)):
            for name in sorted(files):
                with open(os.path.join(dirpath, name), "rb") as f:
                    raw = f.read()
                try:
                    texts.append(raw.decode("utf-8"))
                except UnicodeDecodeError:
                    texts.append(raw.decode("latin-1"))
                labels.append(label)
    return texts, labels


def main():
    roots = sys.argv[1:]
    started = time.perf_counter()
    texts = []
    for root in roots:
        texts.extend(read_corpus(root)[0])
    read = time.perf_counter()
    matrix = TfidfVectorizer(sublinear_tf=True).fit_transform(texts)
    done = time.perf_counter()
    print(
        f"sklearn: {matrix.shape[0]} rows, {matrix.shape[1]} terms, {matrix.nnz} non-zeros; "
        f"read {read - started:.3f} s, fit+transform {done - read:.3f} s",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
