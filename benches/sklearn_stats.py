"""The core of `bowline stats` with scikit-learn and numpy, for benches/stats.sh.

Reads class folders (latin-1 fallback as bowline's Windows-1252), counts tokens with
CountVectorizer (English stop words, lowercase), and computes per-class documents and tokens,
length quantiles, top terms, Zipf's and Heaps' least-squares fits and duplicate texts. No
stemming and no distinctive terms, so it does less than bowline.
"""
import hashlib
import os
import sys
import time

import numpy as np
from sklearn.feature_extraction.text import CountVectorizer


def read(roots):
    texts, labels = [], []
    for root in roots:
        for label in sorted(os.listdir(root)):
            folder = os.path.join(root, label)
            for name in sorted(os.listdir(folder)):
                raw = open(os.path.join(folder, name), "rb").read()
                try:
                    texts.append(raw.decode("utf-8"))
                except UnicodeDecodeError:
                    texts.append(raw.decode("latin-1"))
                labels.append(label)
    return texts, np.array(labels)


def main():
    started = time.time()
    texts, labels = read(sys.argv[1:])
    all_tokens = CountVectorizer(lowercase=True).build_analyzer()
    lengths = np.array([len(all_tokens(t)) for t in texts])
    vectorizer = CountVectorizer(stop_words="english")
    counts = vectorizer.fit_transform(texts)
    freqs = np.asarray(counts.sum(axis=0)).ravel()
    terms = vectorizer.get_feature_names_out()
    for label in np.unique(labels):
        rows = labels == label
        print(label, rows.sum(), lengths[rows].sum(), np.median(lengths[rows]))
    print(np.percentile(lengths, [0, 25, 50, 75, 95, 100]))
    print([terms[i] for i in np.argsort(-freqs)[:20]])
    ranked = np.sort(freqs)[::-1]
    print("zipf", np.polyfit(np.log(np.arange(1, len(ranked) + 1)), np.log(ranked), 1))
    seen = np.zeros(len(terms), dtype=bool)
    growth, total, vocabulary = [], 0, 0
    for i in range(counts.shape[0]):
        row = counts.indices[counts.indptr[i]:counts.indptr[i + 1]]
        total += counts.data[counts.indptr[i]:counts.indptr[i + 1]].sum()
        vocabulary += (~seen[row]).sum()
        seen[row] = True
        growth.append((total, vocabulary))
    growth = np.array([g for g in growth if g[0] > 0], dtype=float)
    print("heaps", np.polyfit(np.log(growth[:, 0]), np.log(growth[:, 1]), 1))
    digests = [hashlib.sha1(t.encode()).digest() for t in texts]
    print("duplicates", len(digests) - len(set(digests)))
    print(f"scikit-learn stats: {time.time() - started:.2f} s", file=sys.stderr)


# Guarded so that benches/stats.sh can time this script's imports alone.
if __name__ == "__main__":
    main()
