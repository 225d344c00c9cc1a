"""The Dask recipe: one naive Bayes model per partition on the workers, merged exactly, then
the texts classified partition by partition with ``map_partitions``.

    import bowline, dask.dataframe as dd
    frame = dd.from_pandas(pandas.DataFrame({"text": texts, "label": labels}), npartitions=4)
    parts = frame.to_delayed()                        # one model per partition, on the workers
    models = dask.compute(*[dask.delayed(train)(part) for part in parts])
    model = bowline.merge(models)                     # exactly the model of training on all
    predicted = frame.text.map_partitions(lambda s: pandas.Series(model.predict(list(s)),
                                                                   index=s.index))
"""

import time

import numpy as np
import pytest

import bowline
from conftest import interleaved

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("dask.distributed")
pd = pytest.importorskip("pandas")

# Integer weights, every term kept and a given smoothing: naive Bayes merges exactly.
EXACT = dict(kind="mnb", tf="count", idf="none", norm="none", min_df=1, alpha=0.01)


def train(part):
    """A model of one partition's texts."""
    return bowline.TextClassifier(**EXACT).fit(list(part.text), list(part.label))


def test_models_of_partitions_merged_on_a_local_cluster_equal_one_model(corpus):
    texts, labels = corpus
    # Every fourth text in turn, so that each of the 4 partitions holds every class.
    order = [i for start in range(4) for i in range(start, len(texts), 4)]
    texts, labels = [texts[i] for i in order], [labels[i] for i in order]
    frame = dd.from_pandas(pd.DataFrame({"text": texts, "label": labels}), npartitions=4)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster):
        models = dask.compute(*[dask.delayed(train)(part) for part in frame.to_delayed()])
        model = bowline.merge(models)
        predicted = frame.text.map_partitions(
            lambda s: pd.Series(model.predict(list(s)), index=s.index, dtype=object),
            meta=("text", object),
        ).compute()
    whole = bowline.TextClassifier(**EXACT).fit(texts, labels)
    assert len(models) == 4
    np.testing.assert_array_equal(predicted.to_numpy(), whole.predict(texts))
    np.testing.assert_allclose(
        model.predict_proba(texts), whole.predict_proba(texts), rtol=0, atol=1e-12
    )


def test_naive_bayes_merged_from_partitions_of_20_newsgroups_classifies_its_test_split_alike(news):
    texts, labels, test = news
    order = interleaved(len(texts))
    frame = dd.from_pandas(
        pd.DataFrame({"text": [texts[i] for i in order], "label": [labels[i] for i in order]}),
        npartitions=4,
    )
    started = time.perf_counter()
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster):
        up = time.perf_counter()
        models = dask.compute(*[dask.delayed(train)(part) for part in frame.to_delayed()])
        model = bowline.merge(models)
        predicted = (
            dd.from_pandas(pd.Series(test), npartitions=4)
            .map_partitions(
                lambda s: pd.Series(model.predict(list(s)), index=s.index, dtype=object),
                meta=(None, object),
            )
            .compute()
        )
        done = time.perf_counter()
    whole = bowline.TextClassifier(**EXACT).fit(texts, labels)
    expected = whole.predict(test)
    alone = time.perf_counter() - done
    print(
        f"\nDask, 2 worker processes: {done - up:.2f} s ({up - started:.2f} s more to start "
        f"them); one process: {alone:.2f} s"
    )
    np.testing.assert_array_equal(predicted.to_numpy(), expected)
