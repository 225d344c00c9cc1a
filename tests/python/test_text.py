"""TextClassifier: training, predicting, learning more, explaining, files and pickles."""

import pathlib
import pickle
import re
import threading
import time

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, cross_val_score

import bowline

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_version_is_the_crates():
    cargo = (ROOT / "Cargo.toml").read_text()
    assert bowline.__version__ == re.search(r'^version = "(.+)"', cargo, re.M).group(1)


@pytest.mark.parametrize("kind", ["svm", "mnb", "cnb", "bnb", "knn"])
def test_each_kind_learns_the_corpus(corpus, kind):
    texts, labels = corpus
    model = bowline.TextClassifier(kind, k=3).fit(texts, labels)
    assert list(model.classes_) == sorted(set(labels))
    assert model.score(texts, labels) > 0.9
    scores = model.predict_joint_log_proba if kind in ("mnb", "cnb", "bnb") else model.decision_function
    assert scores(texts[:5]).shape == (5, 4)
    assert hasattr(model, "decision_function") == (kind in ("svm", "knn"))
    assert hasattr(model, "predict_proba") == (kind != "svm")
    if kind != "svm":
        proba = model.predict_proba(texts[:5])
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)
        assert list(model.classes_[proba.argmax(axis=1)]) == list(model.predict(texts[:5]))


def test_a_calibrated_svm_has_probabilities(corpus):
    texts, labels = corpus
    model = bowline.TextClassifier(calibrate=True).fit(texts, labels)
    proba = model.predict_proba(texts)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_texts_may_be_bytes_in_any_iterable_and_labels_any_type(corpus):
    texts, labels = corpus
    numbers = [sorted(set(labels)).index(label) for label in labels]
    model = bowline.TextClassifier("mnb").fit((t.encode() for t in texts), numbers)
    assert model.classes_.tolist() == [0, 1, 2, 3]
    predicted = model.predict(iter([texts[0], texts[-1].encode()]))
    assert predicted.tolist() == [numbers[0], numbers[-1]]
    assert model.predict_joint_log_proba(["a rocket to orbit"]).shape == (1, 4)


def test_two_classes_give_one_decision_value(corpus):
    texts, labels = corpus
    pairs = [(t, lab) for t, lab in zip(texts, labels) if lab in ("space", "cooking")]
    texts, labels = zip(*pairs)
    model = bowline.TextClassifier().fit(texts, labels)
    decision = model.decision_function(texts)
    assert decision.shape == (len(texts),)
    assert list(model.classes_[(decision > 0).astype(int)]) == list(model.predict(texts))


def test_partial_fit_learns_more_and_new_classes(corpus):
    texts, labels = corpus
    model = bowline.TextClassifier("mnb")
    half = [i for i, lab in enumerate(labels) if lab in ("space", "cooking")]
    rest = [i for i in range(len(texts)) if i not in half]
    model.partial_fit([texts[i] for i in half], [labels[i] for i in half], classes=sorted(set(labels)))
    assert model.predict_proba(texts[:1]).shape == (1, 4)
    model.partial_fit([texts[i] for i in rest], [labels[i] for i in rest])
    assert model.score(texts, labels) > 0.9
    with pytest.raises(ValueError, match="not among classes_"):
        model.partial_fit(["a text"], ["poetry"])


def test_explain_takes_the_score_apart(corpus):
    texts, labels = corpus
    model = bowline.TextClassifier().fit(texts, labels)
    explanation = model.explain("the rocket reached orbit around the moon", k=3)
    assert explanation["label"] == "space"
    assert len(explanation["terms"]) == 3
    parts = explanation["bias"] + sum(c for _, c in explanation["terms"]) + explanation["other_terms"]
    assert parts == pytest.approx(explanation["score"])


def test_save_and_load_keep_the_predictions(corpus, tmp_path):
    texts, labels = corpus
    model = bowline.TextClassifier("cnb").fit(texts, labels)
    model.save(tmp_path / "m.model")
    loaded = bowline.TextClassifier.load(tmp_path / "m.model")
    assert loaded.kind == "cnb"
    np.testing.assert_array_equal(loaded.predict(texts), model.predict(texts))
    np.testing.assert_array_equal(loaded.predict_proba(texts), model.predict_proba(texts))


def test_pickle_clone_and_parallel_grid_search(corpus):
    texts, labels = corpus
    model = bowline.TextClassifier(C=1.0).fit(texts, labels)
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.decision_function(texts), model.decision_function(texts))
    fresh = clone(model)
    assert fresh.get_params() == model.get_params() and not hasattr(fresh, "classes_")
    search = GridSearchCV(bowline.TextClassifier(), {"C": [0.3, 3.0], "ngram_range": [(1, 1), (1, 2)]}, cv=3, n_jobs=2)
    search.fit(texts, labels)
    assert search.best_score_ > 0.6
    scores = cross_val_score(bowline.TextClassifier("mnb"), texts, labels, cv=3, n_jobs=2)
    assert scores.min() > 0.6


def test_errors_carry_bowlines_messages(corpus, tmp_path):
    texts, labels = corpus
    with pytest.raises(ValueError, match="kind must be one of"):
        bowline.TextClassifier("tree").fit(texts, labels)
    with pytest.raises(ValueError, match="ngrams"):
        bowline.TextClassifier(ngram_range=(3, 1)).fit(texts, labels)
    with pytest.raises(ValueError, match="stem must be one of"):
        bowline.TextClassifier(stem="klingon").fit(texts, labels)
    with pytest.raises(OSError, match="missing.model"):
        bowline.TextClassifier.load(tmp_path / "missing.model")
    with pytest.raises(TypeError, match="str or bytes"):
        bowline.TextClassifier().fit([1, 2], ["a", "b"])


def test_settings_reach_the_model(corpus):
    texts, labels = corpus
    hashed = bowline.TextClassifier("mnb", hash_bits=10, stop_words="english", stem=False).fit(texts, labels)
    assert hashed.score(texts, labels) > 0.9
    chars = bowline.TextClassifier(char_ngram_range=(2, 4), min_df=2, max_df=0.9).fit(texts, labels)
    assert chars.score(texts, labels) > 0.9


def test_the_gil_is_released_while_training(corpus):
    """While one thread trains, another runs Python: its longest wait is far shorter than the
    training (were the GIL held, it would wait for the whole of it)."""
    texts, labels = corpus
    texts, labels = texts * 10, labels * 10
    spans = []

    def train():
        start = time.perf_counter()
        bowline.TextClassifier().fit(texts, labels)
        spans.append(time.perf_counter() - start)

    worker = threading.Thread(target=train)
    last, longest = time.perf_counter(), 0.0
    worker.start()
    while worker.is_alive():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    worker.join()
    assert spans and longest < 0.5 * spans[0], (longest, spans)
