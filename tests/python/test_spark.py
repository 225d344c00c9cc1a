"""The PySpark recipe: one naive Bayes model per partition on the executors, merged exactly, then
the texts classified partition by partition with ``mapInPandas``.

    import bowline, pickle
    frame = spark.createDataFrame(pandas.DataFrame({"text": texts, "label": labels}))
    models = frame.rdd.mapPartitions(lambda rows: [pickle.dumps(train(list(rows)))]).collect()
    model = bowline.merge(pickle.loads(m) for m in models)   # exactly training on all
    def classify(frames):
        for f in frames:
            yield f.assign(predicted=model.predict(list(f.text)))
    frame.mapInPandas(classify, "text string, label string, predicted string")
"""

import contextlib
import os
import pickle
import sys
import time

import numpy as np
import pytest

import bowline
from conftest import interleaved_rows

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")
sql = pytest.importorskip("pyspark.sql")

# Integer weights, every term kept and a given smoothing: naive Bayes merges exactly.
EXACT = dict(kind="mnb", tf="count", idf="none", norm="none", min_df=1, alpha=0.01)


@contextlib.contextmanager
def _local_spark():
    """A Spark session of 2 local threads, stopped on leaving."""
    # The executors' Python is this one, which has bowline.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        sql.SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    try:
        yield spark
    finally:
        spark.stop()


def _rows(spark, texts, labels):
    """The texts and labels as a frame of 4 partitions, each holding every class."""
    return spark.createDataFrame(interleaved_rows(texts, labels)).repartition(4)


# The functions Spark runs on its Python workers are made inside functions rather than defined
# at the module's level, so that Spark ships them by value: the workers cannot import this test
# module.
def _merged(frame):
    """The pickled models of `frame`'s partitions, and their merge."""

    def train(rows):
        """The pickled model of one partition's rows."""
        model = bowline.TextClassifier(**EXACT)
        return pickle.dumps(model.fit([r.text for r in rows], [r.label for r in rows]))

    pickled = frame.rdd.mapPartitions(lambda rows: [train(list(rows))]).collect()
    return pickled, bowline.merge(pickle.loads(data) for data in pickled)


def _classifier(model):
    """The function of `mapInPandas` that adds `model`'s label of each text."""

    def classify(frames):
        for f in frames:
            yield f.assign(predicted=model.predict(list(f.text)).astype(str))

    return classify


def test_models_of_partitions_merged_in_local_spark_equal_one_model(corpus):
    texts, labels = corpus
    with _local_spark() as spark:
        frame = _rows(spark, texts, labels)
        pickled, model = _merged(frame)
        out = frame.mapInPandas(
            _classifier(model), "text string, label string, predicted string"
        )
        predicted = out.toPandas()
    whole = bowline.TextClassifier(**EXACT).fit(texts, labels)
    assert len(pickled) == 4
    np.testing.assert_array_equal(
        predicted.predicted.to_numpy(), whole.predict(list(predicted.text))
    )
    np.testing.assert_allclose(
        model.predict_proba(texts), whole.predict_proba(texts), rtol=0, atol=1e-12
    )


def test_naive_bayes_merged_from_partitions_of_20_newsgroups_classifies_its_test_split_alike(news):
    texts, labels, test = news
    started = time.perf_counter()
    with _local_spark() as spark:
        up = time.perf_counter()
        pickled, model = _merged(_rows(spark, texts, labels))
        to_classify = spark.createDataFrame(pd.DataFrame({"text": test})).repartition(4)
        out = to_classify.mapInPandas(_classifier(model), "text string, predicted string")
        out = out.toPandas()
        done = time.perf_counter()
    whole = bowline.TextClassifier(**EXACT).fit(texts, labels)
    expected = dict(zip(test, whole.predict(test)))
    alone = time.perf_counter() - done
    print(
        f"\nSpark local[2]: {done - up:.2f} s ({up - started:.2f} s more to start it); one "
        f"process: {alone:.2f} s"
    )
    assert len(pickled) == 4 and len(out) == len(test)
    assert all(expected[t] == p for t, p in zip(out.text, out.predicted))
