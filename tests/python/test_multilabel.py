"""TextClassifier with a list of label lists: a multi-label model, predicting as
MultiLabelBinarizer encodes."""

import pickle

import numpy as np
import pytest
from sklearn.preprocessing import MultiLabelBinarizer

import bowline

# A label more than the corpus's folders: computing and space are also "tech".
TECH = {"computing", "space"}


def label_sets(labels):
    """Each folder's label, and "tech" beside computing and space."""
    return [[label, "tech"] if label in TECH else [label] for label in labels]


@pytest.mark.parametrize("kind", ["svm", "mnb"])
def test_label_lists_train_a_multi_label_model(corpus, kind):
    texts, labels = corpus
    sets = label_sets(labels)
    model = bowline.TextClassifier(kind=kind).fit(texts, sets)
    assert list(model.classes_) == ["computing", "cooking", "space", "sports", "tech"]
    predicted = model.predict(texts)
    truth = MultiLabelBinarizer().fit_transform(sets)
    assert predicted.shape == truth.shape and predicted.dtype == truth.dtype
    # Every text gets one label at least, and most get their set exactly.
    assert predicted.sum(axis=1).min() >= 1
    assert np.mean((predicted == truth).all(axis=1)) >= 0.9
    assert model.score(texts, sets) == np.mean((predicted == truth).all(axis=1))
    assert not hasattr(model, "predict_proba")


def test_multi_label_scores_save_load_and_pickle(corpus, tmp_path):
    texts, labels = corpus
    sets = label_sets(labels)
    model = bowline.TextClassifier(kind="svm").fit(iter(texts), sets)
    scores = model.decision_function(texts[:3])
    assert scores.shape == (3, 5)
    model.save(tmp_path / "model")
    loaded = bowline.TextClassifier.load(tmp_path / "model")
    np.testing.assert_array_equal(loaded.predict(texts), model.predict(texts))
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.decision_function(texts[:3]), scores)
    with pytest.raises(ValueError, match="multi-label"):
        model.partial_fit(texts[:2], sets[:2])
