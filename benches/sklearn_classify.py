"""scikit-learn's side of benches/classify.sh: TfidfVectorizer(sublinear_tf=True) + a classifier,
fit on a class-per-folder train corpus and evaluated on the test corpus.

    python benches/sklearn_classify.py svm|mnb TRAIN TEST
"""
import sys
import time

from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.naive_bayes import MultinomialNB
from sklearn.svm import LinearSVC

from sklearn_vectorize import read_corpus


def main():
    kind, train_root, test_root = sys.argv[1:4]
    started = time.perf_counter()
    train, y_train = read_corpus(train_root)
    test, y_test = read_corpus(test_root)
    vectorizer = TfidfVectorizer(sublinear_tf=True)
    x_train = vectorizer.fit_transform(train)
    model = LinearSVC(C=1.0) if kind == "svm" else MultinomialNB(alpha=0.01)
    model.fit(x_train, y_train)
    accuracy = (model.predict(vectorizer.transform(test)) == y_test).mean()
    print(f"sklearn {kind}: accuracy {accuracy:.4f} in {time.perf_counter() - started:.2f} s",
          file=sys.stderr)


if __name__ == "__main__":
    main()
