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

import contextlib
import time

import numpy as np
import pytest

import bowline
from conftest import interleaved_rows

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("dask.distributed")
pd = pytest.importorskip("pandas")

# Integer weights, every term kept and a given smoothing: naive Bayes merges exactly.
EXACT = dict(kind="mnb", tf="count", idf="none", norm="none", min_df=1, alpha=0.01)


def train(part):
    """A model of one partition's texts."""
    return bowline.TextClassifier(**EXACT).fit(list(part.text), list(part.label))


@contextlib.contextmanager
def _local_cluster():
    """A client of a local cluster of 2 worker processes, closed on leaving."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster):
        yield


def _frame(texts, labels):
    """The texts and labels as a frame of 4 partitions, each holding every class."""
    return dd.from_pandas(interleaved_rows(texts, labels), npartitions=4)


def _merged(frame):
    """The models of `frame`'s partitions, trained on the workers, and their merge."""
    models = dask.compute(*[dask.delayed(train)(part) for part in frame.to_delayed()])
    return models, bowline.merge(models)


def _labels_of(model, texts):
    """`model`'s label of each text of the Dask series `texts`, partition by partition."""
    return texts.map_partitions(
        lambda s: pd.Series(model.predict(list(s)), index=s.index, dtype=object),
        meta=(texts.name, object),
    ).compute()


def test_models_of_partitions_merged_on_a_local_cluster_equal_one_model(corpus):
    texts, labels = corpus
    frame = _frame(texts, labels)
    with _local_cluster():
        models, model = _merged(frame)
        predicted = _labels_of(model, frame.text)
    whole = bowline.TextClassifier(**EXACT).fit(texts, labels)
    assert len(models) == 4
    in_frame = list(frame.text.compute())
    np.testing.assert_array_equal(predicted.to_numpy(), whole.predict(in_frame))
    np.testing.assert_allclose(
        model.predict_proba(texts), whole.predict_proba(texts), rtol=0, atol=1e-12
    )


def test_naive_bayes_merged_from_partitions_of_20_newsgroups_classifies_its_test_split_alike(news):
    texts, labels, test = news
    frame = _frame(texts, labels)
    started = time.perf_counter()
    with _local_cluster():
        up = time.perf_counter()
        _, model = _merged(frame)
        predicted = _labels_of(model, dd.from_pandas(pd.Series(test), npartitions=4))
        done = time.perf_counter()
    whole = bowline.TextClassifier(**EXACT).fit(texts, labels)
    expected = whole.predict(test)
    alone = time.perf_counter() - done
    print(
        f"\nDask, 2 worker processes: {done - up:.2f} s ({up - started:.2f} s more to start "
        f"them); one process: {alone:.2f} s"
    )
    np.testing.assert_array_equal(predicted.to_numpy(), expected)
