"""Matrix-level estimators, named as scikit-learn names them: they classify the rows of any
dense or sparse matrix, so they can follow any vectorizer."""

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from . import _common
from ._bowline import MatrixModel


def _csr_arrays(X):
    """The CSR arrays of ``X`` (validated as float64 CSR) as the native module takes them;
    it sorts each row and sums a row's repeated columns itself."""
    X = sp.csr_matrix(X)
    data = np.ascontiguousarray(X.data, dtype=np.float64)
    indices = np.ascontiguousarray(X.indices, dtype=np.int64)
    indptr = np.ascontiguousarray(X.indptr, dtype=np.int64)
    return data, indices, indptr, X.shape[1]


def fit_rows(estimator, kind, X, y, positive_only):
    """A model of ``kind`` trained on the rows of ``X`` with classes ``y``, checked as
    scikit-learn checks them (``n_features_in_`` is set on ``estimator``), and the classes.
    ``positive_only``: refuse negative values, for a model that counts."""
    X, y = validate_data(estimator, X, y, accept_sparse="csr", dtype=np.float64)
    check_classification_targets(y)
    _check_values(estimator, X, positive_only)
    classes, ids = np.unique(y, return_inverse=True)
    if len(classes) < 2:
        raise ValueError(
            f"{type(estimator).__name__} needs samples of at least 2 classes in the data, "
            f"but the data contains only one class: {classes[0]!r}"
        )
    names = _common.label_names(classes)
    ids = ids.astype(np.uint32).tolist()
    settings = _common.settings(estimator.get_params())
    return MatrixModel.fit(kind, settings, _csr_arrays(X), ids, names), classes


def row_scores(estimator, X, decision, positive_only):
    """Per row of ``X`` and class, the probability or (``decision``) the score of
    ``estimator._model``, after scikit-learn's checks."""
    check_is_fitted(estimator, "_model")
    X = validate_data(estimator, X, accept_sparse="csr", dtype=np.float64, reset=False)
    _check_values(estimator, X, positive_only)
    return estimator._model.scores(_csr_arrays(X), decision)


def _check_values(estimator, X, positive_only):
    """Refuses negative values where the model counts."""
    if not positive_only:
        return
    values = X.data if sp.issparse(X) else X
    if values.size and values.min() < 0:
        raise ValueError(f"Negative values in data passed to {type(estimator).__name__} (input X)")


class _MatrixClassifier(_common.PickledAsModelBytes, ClassifierMixin, BaseEstimator):
    """What the matrix-level estimators share: checks, classes, scores and pickling."""

    _kind = None
    _positive_only = False

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.positive_only = self._positive_only
        return tags

    def fit(self, X, y):
        """Trains on the rows of ``X`` with classes ``y``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        self._model, self.classes_ = fit_rows(self, self._kind, X, y, self._positive_only)
        return self

    def _scores(self, X, decision):
        return row_scores(self, X, decision, self._positive_only)

    def predict(self, X):
        """The most probable class of each row.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        scores = self._scores(X, True)
        return self.classes_[np.argmax(scores, axis=1)]


class _NaiveBayes(_MatrixClassifier):
    """Naive Bayes over counts: probabilities, as scikit-learn's naive Bayes gives them."""

    _positive_only = True

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # As scikit-learn tags its own naive Bayes: on the checks' two dense, continuous
        # features (blobs) naive Bayes scores below 0.83 whoever computes it; bowline's
        # multinomial NB gives scikit-learn's joint log likelihoods there to the last digit.
        tags.classifier_tags.poor_score = True
        return tags

    def __init__(self, *, alpha=1.0):
        self.alpha = alpha

    def predict_proba(self, X):
        """Each row's posterior probability of each class, in the order of ``classes_``."""
        return self._scores(X, False)

    def predict_log_proba(self, X):
        """The logarithm of ``predict_proba``."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict_joint_log_proba(self, X):
        """Each row's score per class: bowline's naive Bayes score (the joint log likelihood;
        complement NB's normalized score)."""
        return self._scores(X, True)


class MultinomialNB(_NaiveBayes):
    """Multinomial naive Bayes on counts or tf-idf values.

    Parameters
    ----------
    alpha : float, default=1.0
        Additive smoothing.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    """

    _kind = "mnb"


class ComplementNB(_NaiveBayes):
    """Complement naive Bayes (Rennie et al. 2003), for imbalanced classes.

    Parameters
    ----------
    alpha : float, default=1.0
        Additive smoothing.
    """

    _kind = "cnb"


class BernoulliNB(_NaiveBayes):
    """Bernoulli naive Bayes: a feature is present (above 0) or absent.

    Parameters
    ----------
    alpha : float, default=1.0
        Additive smoothing.
    """

    _kind = "bnb"


def _calibrated(estimator):
    return bool(estimator.calibrate)


class LinearSVC(_MatrixClassifier):
    """A one-vs-rest linear SVM (squared hinge loss, dual coordinate descent).

    Parameters
    ----------
    C : float, default=1.0
        Inverse regularization strength.
    tol : float, optional
        Stopping tolerance; ``None`` takes bowline's (LIBLINEAR's 0.1).
    max_iter : int, default=1000
        Passes over the data at most.
    calibrate : bool, default=False
        Fit Platt scaling on a held-out fifth, for ``predict_proba``.
    random_state : int, optional
        Seed of the coordinate order.
    """

    _kind = "svm"

    def __init__(self, *, C=1.0, tol=None, max_iter=1000, calibrate=False, random_state=None):
        self.C = C
        self.tol = tol
        self.max_iter = max_iter
        self.calibrate = calibrate
        self.random_state = random_state

    def fit(self, X, y):
        """Trains on the rows of ``X`` with classes ``y``; ``n_iter_`` is the most passes over
        the data any class needed."""
        super().fit(X, y)
        self.n_iter_ = self._model.n_iter
        return self

    def decision_function(self, X):
        """Each row's decision value per class; for two classes, one value, positive for
        ``classes_[1]``."""
        return _common.binary_decision(self._scores(X, True))

    @available_if(_calibrated)
    def predict_proba(self, X):
        """Each row's Platt probability of each class (with ``calibrate=True``)."""
        return self._scores(X, False)
