"""scikit-learn's side of benches/stream.sh: a TfidfVectorizer(sublinear_tf=True) +
MultinomialNB pipeline classifying documents read from stdin, one per line, writing
`line<TAB>label<TAB>probability` for each, as `bowline classify MODEL` does.

    python benches/sklearn_stream.py fit TRAIN.tsv MODEL.pickle   # label<TAB>text per line
    python benches/sklearn_stream.py classify MODEL.pickle [BATCH] < lines

Lines are read and classified in batches of BATCH (default 1000) for throughput, which favours
scikit-learn: a per-line loop, as latency on a slow stream would need, is far slower.
"""
import pickle
import sys
from itertools import islice

from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.naive_bayes import MultinomialNB
from sklearn.pipeline import make_pipeline


def fit(train_path, model_path):
    labels, texts = [], []
    with open(train_path, encoding="utf-8", errors="replace") as lines:
        for number, line in enumerate(lines):
            label, _, text = line.rstrip("\n").partition("\t")
            if number == 0 and label.lower() == "label":
                continue
            labels.append(label)
            texts.append(text)
    model = make_pipeline(TfidfVectorizer(sublinear_tf=True), MultinomialNB(alpha=0.05))
    model.fit(texts, labels)
    with open(model_path, "wb") as out:
        pickle.dump(model, out)


def classify(model_path, batch):
    with open(model_path, "rb") as f:
        model = pickle.load(f)
    classes = model.classes_
    stdin = open(sys.stdin.fileno(), encoding="utf-8", errors="replace", newline="\n")
    out = sys.stdout
    number = 0
    while True:
        lines = list(islice(stdin, batch))
        if not lines:
            break
        probabilities = model.predict_proba([line.rstrip("\n") for line in lines])
        best = probabilities.argmax(axis=1)
        for row, index in enumerate(best):
            number += 1
            out.write(f"{number}\t{classes[index]}\t{probabilities[row, index]:.6f}\n")
        out.flush()


if __name__ == "__main__":
    if sys.argv[1] == "fit":
        fit(sys.argv[2], sys.argv[3])
    else:
        classify(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 1000)
