"""The matrix-level estimators on bowline's own matrices, dense and sparse."""

import pickle

import numpy as np
import pytest

import bowline

ESTIMATORS = [bowline.MultinomialNB, bowline.ComplementNB, bowline.BernoulliNB, bowline.LinearSVC]


@pytest.mark.parametrize("estimator", ESTIMATORS)
def test_they_learn_the_corpus_dense_or_sparse(corpus, estimator):
    texts, labels = corpus
    x = bowline.Vectorizer().fit_transform(texts)
    model = estimator().fit(x, labels)
    assert model.score(x, labels) > 0.95
    dense = estimator().fit(x.toarray(), labels)
    np.testing.assert_array_equal(dense.predict(x.toarray()), model.predict(x))
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.predict(x), model.predict(x))


def test_naive_bayes_refuses_negative_values():
    with pytest.raises(ValueError, match="Negative values"):
        bowline.MultinomialNB().fit(np.array([[1.0, -1.0], [0.0, 1.0]]), [0, 1])


def test_a_calibrated_svm_has_probabilities(corpus):
    texts, labels = corpus
    x = bowline.Vectorizer().fit_transform(texts)
    assert not hasattr(bowline.LinearSVC(), "predict_proba")
    model = bowline.LinearSVC(calibrate=True).fit(x, labels)
    np.testing.assert_allclose(model.predict_proba(x).sum(axis=1), 1.0)
