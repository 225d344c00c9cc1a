"""What the estimators share: their parameters as the native module takes them, and class
columns in scikit-learn's order."""

import numbers

import numpy as np

from . import _bowline

# Parameters the estimators hold that are no setting of the model.
_NOT_SETTINGS = ("kind", "n_jobs", "input")


def settings(params):
    """The parameters as the native module takes them, by the command line's names.

    ``None`` keeps bowline's default and is left out. Document-frequency bounds and ``alpha``
    are written as the flags write them (an int is a count, a float a fraction), and a list of
    stop words goes apart from a language's name.
    """
    out = {}
    for name, value in params.items():
        if value is None or name in _NOT_SETTINGS:
            continue
        if name in ("min_df", "max_df", "alpha"):
            value = _flag_number(value)
        elif name == "stop_words" and not isinstance(value, str):
            name, value = "stop_words_list", [str(word) for word in value]
        elif name == "stem" and value is False:
            value = "none"
        elif name in ("ngram_range", "char_ngram_range"):
            value = tuple(int(n) for n in value)
        out[name] = value
    return out


def _flag_number(value):
    """A number as a flag writes it: ``5`` a count, ``0.5`` or ``1.0`` a fraction."""
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral):
        return str(int(value))
    return repr(float(value))


def label_names(classes):
    """bowline's name for each class: its text, which must tell the classes apart."""
    names = [str(c) for c in classes]
    if len(set(names)) != len(names):
        raise ValueError("classes must differ in their text, as bowline names them by it")
    return names


def columns(model_labels, names):
    """For each class of ``names``, its column among the model's labels (-1 when the model has
    not met it yet)."""
    where = {label: i for i, label in enumerate(model_labels)}
    return np.array([where.get(name, -1) for name in names], dtype=np.intp)


def reorder(raw, cols, fill):
    """The model's columns ``raw`` in scikit-learn's class order; ``fill`` where a class has no
    column."""
    out = np.full((raw.shape[0], len(cols)), fill, dtype=np.float64)
    known = cols >= 0
    out[:, known] = raw[:, cols[known]]
    return out


def binary_decision(scores):
    """A two-class decision as scikit-learn gives it: one value, positive for ``classes_[1]``."""
    if scores.shape[1] == 2:
        return scores[:, 1] - scores[:, 0]
    return scores


class PickledAsModelBytes:
    """Pickles an estimator's native model ``_model`` as the bytes of its file (the program's
    model file, or a vectorizer's vocabulary file) with the name of its class."""

    def __getstate__(self):
        state = self.__dict__.copy()
        model = state.pop("_model", None)
        if model is not None:
            state["_model_bytes"] = (type(model).__name__, model.to_bytes())
        return state

    def __setstate__(self, state):
        state = dict(state)
        model = state.pop("_model_bytes", None)
        self.__dict__.update(state)
        if model is not None:
            native, data = model
            self._model = getattr(_bowline, native).from_bytes(data)
