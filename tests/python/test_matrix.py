"""The matrix-level estimators on bowline's own matrices, dense and sparse."""

import pickle

import numpy as np
import scipy.sparse as sp
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


def _scores(model, x):
    if hasattr(model, "predict_proba"):
        return model.predict_proba(x)
    return model.decision_function(x)


@pytest.mark.parametrize("estimator", ESTIMATORS)
def test_rows_in_any_order_with_repeated_columns_train_as_their_sums(corpus, estimator):
    # scikit-learn's vectorizers leave each row's columns unsorted; a column repeated in a
    # row counts as the sum of its values, as scipy's sum_duplicates makes it. Here each entry
    # comes twice, as two halves, in a shuffled row.
    texts, labels = corpus
    x = bowline.Vectorizer().fit_transform(texts)
    random = np.random.default_rng(0)
    data, indices, indptr = [], [], [0]
    for i in range(x.shape[0]):
        row = x.getrow(i)
        order = random.permutation(2 * row.nnz)
        indices.extend(np.concatenate([row.indices, row.indices])[order])
        data.extend(np.concatenate([row.data / 2, row.data / 2])[order])
        indptr.append(len(indices))
    repeated = sp.csr_matrix((np.array(data), np.array(indices), np.array(indptr)), x.shape)
    assert not repeated.has_canonical_format
    model = estimator().fit(x, labels)
    again = estimator().fit(repeated, labels)
    np.testing.assert_allclose(_scores(again, repeated), _scores(model, x), rtol=1e-9, atol=1e-12)


def _csr_with(**broken):
    """A 2 × 3 CSR matrix whose arrays are then overwritten, past scipy's checks, by ``broken``
    (``indices`` or ``indptr`` as ``(position, value)``)."""
    x = sp.csr_matrix(
        (np.array([1.0, 2.0, 3.0]), np.array([0, 2, 1]), np.array([0, 2, 3])), shape=(2, 3)
    )
    for array, (position, value) in broken.items():
        getattr(x, array)[position] = value
    return x


@pytest.mark.parametrize("estimator", ESTIMATORS)
@pytest.mark.parametrize(
    "broken, message",
    [
        (dict(indices=(0, 7)), "column index is out of range"),
        (dict(indices=(1, -1)), "column index is out of range"),
        (dict(indptr=(1, 4)), "index pointer|row pointers"),
    ],
)
def test_arrays_that_break_csr_are_refused_in_fit_and_predict(estimator, broken, message):
    labels = ["a", "b"]
    with pytest.raises(ValueError, match=message):
        estimator().fit(_csr_with(**broken), labels)
    model = estimator().fit(_csr_with(), labels)
    with pytest.raises(ValueError, match=message):
        model.predict(_csr_with(**broken))
