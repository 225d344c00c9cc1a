"""scikit-learn's side of benches/multilabel.sh: TfidfVectorizer(sublinear_tf=True) +
OneVsRestClassifier(LinearSVC()), fit on a multi-label JSONL train file ({"labels": [...],
"text"}) and evaluated on the test file with micro- and macro-F1. OneVsRestClassifier fits the
labels on every core (n_jobs = the cores this process may use), as bowline does, in threads.

    python benches/sklearn_multilabel.py TRAIN.jsonl TEST.jsonl
"""
import json
import os
import sys
import time

from joblib import parallel_config
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.metrics import f1_score
from sklearn.multiclass import OneVsRestClassifier
from sklearn.preprocessing import MultiLabelBinarizer
from sklearn.svm import LinearSVC


def read_jsonl(path):
    texts, labels = [], []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            texts.append(record["text"])
            labels.append(record.get("labels") or [record["label"]])
    return texts, labels


def main():
    train_path, test_path = sys.argv[1:3]
    started = time.perf_counter()
    train, labels_train = read_jsonl(train_path)
    test, labels_test = read_jsonl(test_path)
    binarizer = MultiLabelBinarizer()
    y_train = binarizer.fit_transform(labels_train)
    # Test labels unseen in training cannot be predicted; they are left out, as the model's
    # columns are the training labels.
    y_test = MultiLabelBinarizer(classes=binarizer.classes_).fit_transform(labels_test)
    vectorizer = TfidfVectorizer(sublinear_tf=True)
    model = OneVsRestClassifier(LinearSVC(), n_jobs=len(os.sched_getaffinity(0)))
    # Threads rather than joblib's default worker processes: liblinear releases the GIL while it
    # trains, and each worker process would import scikit-learn and receive its own copy of the
    # matrix, which doubled scikit-learn's CPU time in a trial on Reuters.
    with parallel_config(backend="threading"):
        model.fit(vectorizer.fit_transform(train), y_train)
    predicted = model.predict(vectorizer.transform(test))
    micro = f1_score(y_test, predicted, average="micro", zero_division=0)
    macro = f1_score(y_test, predicted, average="macro", zero_division=0)
    print(f"sklearn multi-label svm: micro-F1 {micro:.4f} macro-F1 {macro:.4f} "
          f"in {time.perf_counter() - started:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
