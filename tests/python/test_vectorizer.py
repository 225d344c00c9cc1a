"""Vectorizer: scikit-learn's TF-IDF under scikit-learn's settings, and pipelines."""

import pickle

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.pipeline import Pipeline
from sklearn.svm import LinearSVC as SklearnLinearSVC

import bowline

# Texts on which bowline's tokenizer (Unicode word boundaries, tokens of 2 characters or more)
# and scikit-learn's token pattern (\b\w\w+\b) find the same tokens: words of letters and
# digits between spaces and plain punctuation, with no apostrophes, hyphens or one-letter words,
# which the two split differently.
FIXTURE = [
    "The rocket reached orbit, and the crew slept.",
    "Bake the bread in an oven; bake it twice!",
    "Rocket launches: 42 rockets in 2024 reached orbit.",
    "The oven was hot.  The bread was good, the crew said.",
    "Orbit orbit orbit",
]


def test_it_equals_scikit_learns_tfidf_under_its_settings():
    ours = bowline.Vectorizer(stem="none", ngram_range=(1, 1), tf="count")
    theirs = TfidfVectorizer()
    x = ours.fit_transform(FIXTURE)
    y = theirs.fit_transform(FIXTURE)
    assert isinstance(x, sp.csr_matrix)
    assert list(ours.get_feature_names_out()) == list(theirs.get_feature_names_out())
    assert ours.vocabulary_ == theirs.vocabulary_
    np.testing.assert_allclose(ours.idf_, theirs.idf_, rtol=0, atol=1e-12)
    assert abs(x - y).max() <= 1e-12
    z = ours.transform(["a rocket and bread", "nothing known"])
    w = theirs.transform(["a rocket and bread", "nothing known"])
    assert abs(z - w).max() <= 1e-12


def test_sublinear_tf_equals_scikit_learns_too():
    ours = bowline.Vectorizer(stem="none", ngram_range=(1, 2))
    theirs = TfidfVectorizer(sublinear_tf=True, ngram_range=(1, 2))
    x, y = ours.fit_transform(FIXTURE), theirs.fit_transform(FIXTURE)
    assert list(ours.get_feature_names_out()) == list(theirs.get_feature_names_out())
    assert abs(x - y).max() <= 1e-12


def test_fit_then_transform_equals_fit_transform_and_pickles(corpus):
    texts, _ = corpus
    vectorizer = bowline.Vectorizer(min_df=2)
    x = vectorizer.fit_transform(texts)
    assert x.shape == (len(texts), len(vectorizer.vocabulary_))
    again = pickle.loads(pickle.dumps(vectorizer))
    assert abs(again.transform(texts) - x).max() <= 1e-12
    assert abs(bowline.Vectorizer(min_df=2).fit(texts).transform(texts) - x).max() <= 1e-12


def test_hashed_columns_are_named_by_number(corpus):
    texts, _ = corpus
    vectorizer = bowline.Vectorizer(hash_bits=8)
    x = vectorizer.fit_transform(texts)
    assert x.shape == (len(texts), 256)
    assert vectorizer.get_feature_names_out()[:2].tolist() == ["#0", "#1"]


def test_pipelines_with_bowlines_and_scikit_learns_classifiers(corpus):
    texts, labels = corpus
    for classifier in (SklearnLinearSVC(), bowline.LinearSVC(), bowline.MultinomialNB(alpha=0.1)):
        pipeline = Pipeline([("v", bowline.Vectorizer()), ("c", classifier)])
        pipeline.fit(texts, labels)
        assert pipeline.score(texts, labels) > 0.95


# Texts on which the two default tokenizers differ: apostrophes, decimals, dotted names,
# e-mail addresses, underscores, one-letter words and accents.
SPLIT_DIFFERENTLY = [
    "Can't stop at 3.14, e.g. john.doe@example.com",
    "snake_case __ x 1,000 déjà-vu",
    "The U.S.A. isn't 2.5 times café's size",
]


def test_word_runs_equal_scikit_learns_token_pattern_where_unicode_words_do_not():
    settings = dict(stem="none", ngram_range=(1, 1), tf="count", max_token_len=1000)
    theirs = TfidfVectorizer()
    y = theirs.fit_transform(SPLIT_DIFFERENTLY)
    ours = bowline.Vectorizer(tokenizer="word-runs", **settings)
    x = ours.fit_transform(SPLIT_DIFFERENTLY)
    assert ours.vocabulary_ == theirs.vocabulary_
    assert abs(x - y).max() <= 1e-12
    unicode = bowline.Vectorizer(**settings).fit(SPLIT_DIFFERENTLY)
    assert "can't" in unicode.vocabulary_ and "can't" not in theirs.vocabulary_
