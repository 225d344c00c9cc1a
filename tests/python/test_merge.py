"""bowline.merge: classifiers trained on disjoint shards, merged as `bowline merge` merges."""

import numpy as np
import pytest

import bowline

# The settings under which naive Bayes merges exactly: integer weights, every term kept and a
# given smoothing (multinomial NB would otherwise choose its smoothing on each shard).
EXACT = dict(tf="count", idf="none", norm="none", min_df=1, alpha=0.01)


@pytest.mark.parametrize("kind", ["mnb", "cnb"])
def test_naive_bayes_merged_from_shards_equals_training_on_all(corpus, kind):
    texts, labels = corpus
    shards = [
        bowline.TextClassifier(kind=kind, **EXACT).fit(texts[s::3], labels[s::3])
        for s in range(3)
    ]
    merged = bowline.merge(shards)
    union = bowline.TextClassifier(kind=kind, **EXACT).fit(texts, labels)
    assert list(merged.classes_) == list(union.classes_)
    np.testing.assert_array_equal(merged.predict(texts), union.predict(texts))
    np.testing.assert_allclose(
        merged.predict_proba(texts), union.predict_proba(texts), rtol=0, atol=1e-12
    )


def test_what_cannot_merge_is_refused_with_bowlines_message(corpus):
    texts, labels = corpus
    nb = bowline.TextClassifier(kind="mnb", **EXACT).fit(texts[::2], labels[::2])
    svm = bowline.TextClassifier(kind="svm").fit(texts[1::2], labels[1::2])
    with pytest.raises(ValueError, match=r"models\[0\] is a mnb model and models\[1\] a svm"):
        bowline.merge([nb, svm])
