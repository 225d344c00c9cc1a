"""``Vectorizer``: texts in, a TF-IDF ``scipy.sparse.csr_matrix`` out."""

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from . import _common
from ._bowline import VectorizerModel


def _csr(arrays):
    """The matrix of the native module's CSR arrays, taken as they are."""
    data, indices, indptr, shape = arrays
    return sp.csr_matrix((data, indices, indptr), shape=shape, copy=False)


class Vectorizer(_common.PickledAsModelBytes, TransformerMixin, BaseEstimator):
    """bowline's analysis and TF-IDF weighting as a transformer.

    Settings left at ``None`` take the library's defaults (English stemming, words and word
    pairs, sublinear TF-IDF with smoothed idf and unit rows); the names are the flags' names,
    as for ``TextClassifier``. Scikit-learn's ``TfidfVectorizer()`` is
    ``Vectorizer(tokenizer='word-runs', stem='none', ngram_range=(1, 1), tf='count',
    min_token_len=2, max_token_len=N)`` with ``N`` the length of the longest token (the two
    count letters alike but for the combining signs of some scripts, which Python's ``\\w``
    leaves out).

    Parameters
    ----------
    ngram_range, char_ngram_range, stem, stop_words, lowercase, tokenizer, min_token_len,
    max_token_len, min_df, max_df, max_features, tf, idf, norm, ngram_weight, hash_bits
        As for ``TextClassifier``.
    n_jobs : int, optional
        Threads: ``None`` is 1, -1 every core.

    Attributes
    ----------
    vocabulary_ : dict
        Each term's column.
    idf_ : ndarray of shape (n_features,)
        Each column's idf factor.
    """

    def __init__(
        self,
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
        n_jobs=None,
    ):
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
        self.n_jobs = n_jobs

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.two_d_array = False
        tags.input_tags.string = True
        tags.requires_fit = True
        return tags

    def fit(self, X, y=None):
        """Learns the vocabulary and idf of texts ``X``."""
        self.fit_transform(X)
        return self

    def fit_transform(self, X, y=None):
        """Learns the vocabulary and idf of texts ``X`` and returns their matrix.

        Parameters
        ----------
        X : iterable of str or bytes

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_texts, n_features)
        """
        settings = _common.settings(self.get_params())
        self._model, arrays = VectorizerModel.fit_transform(settings, X, self.n_jobs)
        return _csr(arrays)

    def transform(self, X):
        """The matrix of texts ``X`` over the fitted columns.

        Parameters
        ----------
        X : iterable of str or bytes

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_texts, n_features)
        """
        check_is_fitted(self, "_model")
        return _csr(self._model.transform(X, self.n_jobs))

    def get_feature_names_out(self, input_features=None):
        """The terms, in column order; for hashed terms, the columns ``#0``, ``#1``..."""
        check_is_fitted(self, "_model")
        terms = self._model.terms()
        if not terms:
            terms = [f"#{j}" for j in range(self._model.n_features)]
        return np.asarray(terms, dtype=object)

    @property
    def vocabulary_(self):
        """Each term's column."""
        check_is_fitted(self, "_model")
        return {term: j for j, term in enumerate(self._model.terms())}

    @property
    def idf_(self):
        """Each column's idf factor."""
        check_is_fitted(self, "_model")
        return self._model.idf()

    def __sklearn_is_fitted__(self):
        return getattr(self, "_model", None) is not None
