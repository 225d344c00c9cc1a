"""scikit-learn's side of benches/char_ngrams.sh: TfidfVectorizer(analyzer='char_wb',
ngram_range=(2, 5), sublinear_tf=True) + LinearSVC fit on a labelled TSV or JSONL file.

    python benches/sklearn_char.py TRAIN
"""
import sys

from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.svm import LinearSVC

from compare import read


def main():
    texts, labels = read(sys.argv[1])
    vectorizer = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 5), sublinear_tf=True)
    LinearSVC().fit(vectorizer.fit_transform(texts), labels)


if __name__ == "__main__":
    main()
