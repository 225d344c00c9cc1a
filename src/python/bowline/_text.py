"""``TextClassifier``: raw texts in, labels out."""

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.preprocessing import MultiLabelBinarizer
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d

from . import _common
from ._bowline import TextModel
from ._matrix import fit_rows, row_scores


# The kinds that are naive Bayes.
_NAIVE_BAYES = ("mnb", "cnb", "bnb")


def _has_probabilities(estimator):
    """Whether the probabilities mean what they say: naive Bayes, k-NN and a calibrated SVM;
    an uncalibrated SVM's softmax of its scores only ranks the classes, and a multi-label
    model's per-label scores are no probabilities."""
    model = getattr(estimator, "_model", None)
    if model is not None:
        return model.calibrated
    return estimator.kind != "svm" or bool(estimator.calibrate)


def _label_sets(y):
    """``y`` as a list of label lists when it is one (multi-label), else None."""
    if isinstance(y, (str, bytes)) or (isinstance(y, np.ndarray) and y.dtype != object):
        return None
    sets = list(y)
    if sets and all(isinstance(labels, (list, tuple, set, frozenset)) for labels in sets):
        return sets
    return None


class TextClassifier(_common.PickledAsModelBytes, ClassifierMixin, BaseEstimator):
    """A text classifier: texts in, labels out, trained by bowline.

    Every setting left at ``None`` takes the kind's default, as an absent flag of
    ``bowline train`` does; the names are the flags' names.

    Parameters
    ----------
    kind : {'svm', 'mnb', 'cnb', 'bnb', 'knn'}, default='svm'
        Linear SVM, multinomial, complement or Bernoulli naive Bayes, or k-nearest neighbours.
    ngram_range : tuple (min, max), optional
        Word n-gram sizes (``--ngrams``).
    char_ngram_range : tuple (min, max), optional
        Character n-grams of each word, padded (``--char-ngrams``); alone unless
        ``ngram_range`` is also given.
    stem : str or False, optional
        Snowball stemmer language, or ``'none'``/``False`` to keep words as they are.
    stop_words : str or list of str, optional
        A language's NLTK list, ``'none'``, or a list of words.
    lowercase : bool, optional
        Lowercase tokens (``--keep-case`` is ``lowercase=False``).
    tokenizer : {'unicode', 'word-runs'}, optional
        ``'unicode'`` (the default) splits on Unicode word boundaries, keeping ``can't`` and
        ``3.14`` whole; ``'word-runs'`` takes runs of letters, digits and ``_``, as
        scikit-learn's default ``token_pattern`` does.
    min_token_len, max_token_len : int, optional
        Token lengths kept, in characters.
    min_df, max_df : int or float, optional
        Document-frequency bounds: an int is a count of documents, a float a fraction.
    max_features : int, optional
        Keep only the most frequent terms.
    tf : {'count', 'binary', 'frequency', 'sublinear'}, optional
    idf : {'none', 'plain', 'smooth'}, optional
    norm : {'none', 'l2'}, optional
        How counts are weighed.
    ngram_weight : float, optional
        Factor on word n-grams of two or more words.
    hash_bits : int, optional
        Hash terms into 2**hash_bits columns instead of learning a vocabulary.
    C : float, optional
        The SVM's inverse regularization.
    alpha : float or 'auto', optional
        Naive Bayes' smoothing.
    k : int, optional
        k-NN's neighbours.
    calibrate : bool, optional
        The SVM: fit Platt scaling, so that ``predict_proba`` is calibrated.
    max_iter : int, optional
        The SVM's passes at most.
    tol : float, optional
        The SVM's stopping tolerance.
    random_state : int, optional
        The SVM's seed.
    n_jobs : int, optional
        Threads, as scikit-learn counts them: ``None`` is 1, -1 every core.
    input : {'text', 'matrix'}, default='text'
        What ``X`` holds: texts, or rows of numbers that some vectorizer made (then the
        analysis and weighting settings do not apply, and ``explain``, ``partial_fit`` and
        ``save`` are for texts only). The matrix mode is also how scikit-learn's estimator
        checks, which feed numbers, test the estimator's conventions.

    Attributes
    ----------
    classes_ : ndarray
        The class labels, sorted. For a multi-label model (``y`` a list of label lists), every
        label, sorted, as ``MultiLabelBinarizer`` orders them.
    """

    def __init__(
        self,
        kind="svm",
        *,
        ngram_range=None,
        char_ngram_range=None,
        stem=None,
        stop_words=None,
        lowercase=None,
        tokenizer=None,
        min_token_len=None,
        max_token_len=None,
        min_df=None,
        max_df=None,
        max_features=None,
        tf=None,
        idf=None,
        norm=None,
        ngram_weight=None,
        hash_bits=None,
        C=None,
        alpha=None,
        k=None,
        calibrate=None,
        max_iter=None,
        tol=None,
        random_state=None,
        n_jobs=None,
        input="text",
    ):
        self.kind = kind
        self.ngram_range = ngram_range
        self.char_ngram_range = char_ngram_range
        self.stem = stem
        self.stop_words = stop_words
        self.lowercase = lowercase
        self.tokenizer = tokenizer
        self.min_token_len = min_token_len
        self.max_token_len = max_token_len
        self.min_df = min_df
        self.max_df = max_df
        self.max_features = max_features
        self.tf = tf
        self.idf = idf
        self.norm = norm
        self.ngram_weight = ngram_weight
        self.hash_bits = hash_bits
        self.C = C
        self.alpha = alpha
        self.k = k
        self.calibrate = calibrate
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.input = input

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self.input == "matrix":
            tags.input_tags.sparse = True
            tags.input_tags.positive_only = self._counts()
            # As scikit-learn tags its naive Bayes: below 0.83 on the checks' blobs.
            tags.classifier_tags.poor_score = self.kind in _NAIVE_BAYES
        else:
            tags.input_tags.two_d_array = False
            tags.input_tags.string = True
        return tags

    def _counts(self):
        """Whether the kind counts, and so refuses negative values in a matrix."""
        return self.kind != "svm"

    def _matrix(self):
        """Whether ``X`` holds rows of numbers rather than texts."""
        if self.input not in ("text", "matrix"):
            raise ValueError(f"input must be 'text' or 'matrix', not {self.input!r}")
        return self.input == "matrix"

    def fit(self, X, y):
        """Trains on texts ``X`` (str or bytes, any iterable) with labels ``y``.

        Parameters
        ----------
        X : iterable of str or bytes
            The texts.
        y : array-like of shape (n_texts,), or list of label lists
            Their labels; a list of label lists (each text with every label it has, one at
            least) trains a multi-label model, whose predictions are ``MultiLabelBinarizer``'s
            indicator matrix.

        Returns
        -------
        self : TextClassifier
        """
        sets = None if self._matrix() else _label_sets(y)
        if sets is not None:
            return self._fit_multi(X, sets)
        if self._matrix():
            # A matrix model's columns are the classes in scikit-learn's order already.
            self._model, self.classes_ = fit_rows(self, self.kind, X, y, self._counts())
            self._names = _common.label_names(self.classes_)
            # Naive Bayes and k-NN learn in one pass over the rows; the SVM counts its own.
            self.n_iter_ = self._model.n_iter or 1
            return self
        y = column_or_1d(y, warn=True)
        check_classification_targets(y)
        classes, ids = np.unique(y, return_inverse=True)
        names = _common.label_names(classes)
        labels = [names[i] for i in ids]
        settings = _common.settings(self.get_params())
        model = TextModel.fit(self.kind, settings, labels, X, self.n_jobs)
        self._adopt(model, classes, names)
        return self

    def _fit_multi(self, X, sets):
        """Trains a multi-label model on texts ``X`` with label sets ``sets``."""
        classes = MultiLabelBinarizer().fit(sets).classes_
        names = _common.label_names(classes)
        name_of = dict(zip(classes.tolist(), names))
        label_sets = [[name_of[label] for label in labels] for labels in sets]
        settings = _common.settings(self.get_params())
        model = TextModel.fit_multi(self.kind, settings, label_sets, X, self.n_jobs)
        self._adopt(model, classes, names)
        return self

    def _multi_label(self):
        """Whether the fitted model gives each text a set of labels."""
        model = getattr(self, "_model", None)
        return not self._matrix() and model is not None and model.multi_label

    @available_if(lambda self: self.input == "text")
    def partial_fit(self, X, y, classes=None):
        """Learns more labelled texts; the first call trains, as ``fit`` does.

        Parameters
        ----------
        X : iterable of str or bytes
            The texts.
        y : array-like of shape (n_texts,)
            Their labels, each one of ``classes_``.
        classes : array-like, optional
            Every class the calls will bring; on the first call only. Without it, the classes
            are those of the first call's ``y``.

        Returns
        -------
        self : TextClassifier
        """
        if self._multi_label() or _label_sets(y) is not None:
            raise ValueError("partial_fit is for single-label classes; fit a multi-label model")
        y = column_or_1d(y, warn=True)
        if getattr(self, "_model", None) is None:
            first = np.unique(y if classes is None else np.asarray(classes))
            self._names = _common.label_names(first)
            self.classes_ = first
            settings = _common.settings(self.get_params())
            where = np.searchsorted(first, y)
            self._check_known(y, where)
            labels = [self._names[i] for i in where]
            model = TextModel.fit(self.kind, settings, labels, X, self.n_jobs)
            self._adopt(model, first, self._names)
            return self
        where = np.searchsorted(self.classes_, y)
        self._check_known(y, where)
        self._model.update([self._names[i] for i in where], X, self.n_jobs)
        self._columns = _common.columns(self._model.labels, self._names)
        return self

    def _check_known(self, y, where):
        """Refuses labels that are not among ``classes_``."""
        inside = np.clip(where, 0, len(self.classes_) - 1)
        unknown = (where >= len(self.classes_)) | (self.classes_[inside] != y)
        if np.any(unknown):
            raise ValueError(f"labels {np.unique(y[unknown])} are not among classes_")

    def _adopt(self, model, classes, names):
        """Keeps a trained model, with scikit-learn's class order over its labels."""
        self._model = model
        self._names = names
        self.classes_ = classes
        self._columns = _common.columns(model.labels, names)

    def _scores(self, X, decision):
        if self._matrix():
            return row_scores(self, X, decision, self._counts())
        self._check_texts(X)
        raw = self._model.scores(X, decision, self.n_jobs)
        return _common.reorder(raw, self._columns, -np.inf if decision else 0.0)

    def _check_texts(self, X):
        """Refuses to classify before fitting, or one text in place of an iterable of them."""
        check_is_fitted(self, "_model")
        if isinstance(X, (str, bytes)):
            raise ValueError("X must be an iterable of texts, not one text")

    def predict(self, X):
        """The most probable class of each text, as ``bowline classify`` decides it.

        Parameters
        ----------
        X : iterable of str or bytes

        Returns
        -------
        ndarray of shape (n_texts,), or of shape (n_texts, n_classes) for a multi-label model:
        ``MultiLabelBinarizer``'s indicator matrix of the labels each text gets
        """
        if self._multi_label():
            self._check_texts(X)
            given = self._model.label_sets(X, self.n_jobs)
            return _common.reorder(given, self._columns, 0.0).astype(int)
        probabilities = self._scores(X, False)
        return self.classes_[np.argmax(probabilities, axis=1)]

    def score(self, X, y, sample_weight=None):
        """Accuracy on texts ``X`` with labels ``y``; for a multi-label model, the share of
        texts whose label set is exactly right (subset accuracy), as scikit-learn scores
        multi-label classifiers.

        Parameters
        ----------
        X : iterable of str or bytes
        y : array-like of shape (n_texts,), or list of label lists
        sample_weight : array-like of shape (n_texts,), optional

        Returns
        -------
        float
        """
        if self._multi_label():
            sets = _label_sets(y)
            y = MultiLabelBinarizer(classes=self.classes_).fit_transform(sets or y)
        return super().score(X, y, sample_weight=sample_weight)

    @available_if(_has_probabilities)
    def predict_proba(self, X):
        """Each text's probability of each class, in the order of ``classes_``.

        Parameters
        ----------
        X : iterable of str or bytes

        Returns
        -------
        ndarray of shape (n_texts, n_classes)
        """
        return self._scores(X, False)

    @available_if(_has_probabilities)
    def predict_log_proba(self, X):
        """The logarithm of ``predict_proba``."""
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    @available_if(lambda self: self.kind not in _NAIVE_BAYES)
    def decision_function(self, X):
        """The SVM's decision values, or k-NN's summed similarity of each class's neighbours.
        For two classes, one value per text, positive for ``classes_[1]``. (Naive Bayes gives
        its scores as ``predict_joint_log_proba``, as scikit-learn's naive Bayes does.) A
        multi-label model gives each label's score, one column per label even for two, as
        scikit-learn's one-vs-rest classifiers do.

        Parameters
        ----------
        X : iterable of str or bytes

        Returns
        -------
        ndarray of shape (n_texts,) or (n_texts, n_classes)
        """
        scores = self._scores(X, True)
        return scores if self._multi_label() else _common.binary_decision(scores)

    @available_if(lambda self: self.kind in _NAIVE_BAYES)
    def predict_joint_log_proba(self, X):
        """Naive Bayes' score of each class: the joint log likelihood (complement NB's
        normalized score), in the order of ``classes_``.

        Parameters
        ----------
        X : iterable of str or bytes

        Returns
        -------
        ndarray of shape (n_texts, n_classes)
        """
        return self._scores(X, True)

    def explain(self, text, k=10):
        """Why ``text`` gets its class: the class's score taken apart into the ``k`` terms of
        largest contribution, a bias and the other terms.

        Parameters
        ----------
        text : str or bytes
        k : int, default=10

        Returns
        -------
        dict with keys ``label``, ``score``, ``bias``, ``terms`` (a list of (term,
        contribution)), ``other_terms``
        """
        self._require_text("explain")
        label, score, bias, terms, other = self._model.explain(text, k)
        return {
            "label": self.classes_[self._names.index(label)],
            "score": score,
            "bias": bias,
            "terms": terms,
            "other_terms": other,
        }

    def _require_text(self, method):
        check_is_fitted(self, "_model")
        if self._matrix():
            raise ValueError(f"{method} is for a classifier of texts, not input='matrix'")

    def save(self, path):
        """Writes the model file, as ``bowline train -o path`` writes it."""
        self._require_text("save")
        self._model.save(str(path))

    @classmethod
    def load(cls, path):
        """Reads a model file written by ``save`` or by ``bowline train``. The classes are the
        model's labels (strings), sorted."""
        model = TextModel.load(str(path))
        names = sorted(model.labels)
        estimator = cls(kind=model.kind)
        estimator._adopt(model, np.array(names), names)
        return estimator


def merge(models):
    """The classifier of ``models``, trained on disjoint shards of a corpus with the same
    settings, merged as ``bowline merge`` merges model files: naive Bayes into exactly the
    model of training on the union (when the shards weigh with integer counts, keep every term
    and fix the smoothing: ``tf='count', idf='none', norm='none', min_df=1`` and a number for
    ``alpha``), SVMs by averaging their weights by documents.

    Parameters
    ----------
    models : iterable of TextClassifier
        Fitted classifiers of texts.

    Returns
    -------
    TextClassifier
        The merged classifier; its classes are the models' labels (strings), sorted, as
        ``TextClassifier.load`` gives them.
    """
    natives = []
    for model in models:
        model._require_text("merge")
        natives.append(model._model)
    merged = TextModel.merge(natives)
    names = sorted(merged.labels)
    estimator = TextClassifier(kind=merged.kind)
    estimator._adopt(merged, np.array(names), names)
    return estimator
