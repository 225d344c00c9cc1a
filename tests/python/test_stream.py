"""Texts from a generator: read one at a time as the work asks for them, not listed first."""

import itertools

import numpy as np
import pytest

import bowline


def test_a_generator_gives_what_a_list_gives(corpus):
    texts, labels = corpus
    listed = bowline.TextClassifier(kind="mnb").fit(texts, labels)
    streamed = bowline.TextClassifier(kind="mnb").fit((t for t in texts), labels)
    np.testing.assert_array_equal(
        streamed.predict_proba(t for t in texts), listed.predict_proba(texts)
    )
    ours = bowline.Vectorizer().fit(iter(texts))
    assert abs(ours.transform(t.encode() for t in texts) - ours.transform(texts)).max() == 0


def test_an_endless_generator_is_read_only_as_far_as_the_labels_go(corpus):
    texts, labels = corpus
    # Listed first, these texts would never end; streamed, the texts stop one past the labels.
    endless = itertools.cycle(texts)
    with pytest.raises(ValueError, match=f"X has more than {len(labels)} texts but y has"):
        bowline.TextClassifier(kind="mnb").fit(endless, labels)


def test_too_few_texts_and_the_generators_own_errors(corpus):
    texts, labels = corpus
    with pytest.raises(ValueError, match=f"X has 5 texts but y has {len(labels)} labels"):
        bowline.TextClassifier(kind="mnb").fit(iter(texts[:5]), labels)
    with pytest.raises(ValueError, match="X has 5 texts but y has"):
        bowline.TextClassifier(kind="mnb").fit(texts[:5], labels)

    def failing():
        yield texts[0]
        raise KeyError("the generator's own error")

    with pytest.raises(KeyError, match="the generator's own error"):
        bowline.TextClassifier(kind="mnb").fit(failing(), labels[:2])
    model = bowline.TextClassifier(kind="mnb").fit(texts, labels)
    with pytest.raises(TypeError, match="a text must be str or bytes, not int"):
        model.predict(x for x in [texts[0], 7])
