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

import os
import pickle
import sys
import time

import numpy as np
import pytest

import bowline
from conftest import interleaved

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")
sql = pytest.importorskip("pyspark.sql")

# Integer weights, every term kept and a given smoothing: naive Bayes merges exactly.
EXACT = dict(kind="mnb", tf="count", idf="none", norm="none", min_df=1, alpha=0.01)


def test_models_of_partitions_merged_in_local_spark_equal_one_model(corpus):
    texts, labels = corpus

    # Defined here rather than at the module's level, so that Spark ships the function itself
    # to its Python workers, which cannot import this test module.
    def train(rows):
        """The pickled model of one partition's rows."""
        model = bowline.TextClassifier(**EXACT)
        return pickle.dumps(model.fit([r.text for r in rows], [r.label for r in rows]))

    # The executors' Python is this one, which has bowline.
    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        sql.SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    try:
        pandas_frame = pd.DataFrame({"text": texts, "label": labels})
        # Every fourth text in turn, so that each of the 4 partitions holds every class.
        pandas_frame = pandas_frame.iloc[[i for s in range(4) for i in range(s, len(texts), 4)]]
        frame = spark.createDataFrame(pandas_frame).repartition(4)
        pickled = frame.rdd.mapPartitions(lambda rows: [train(list(rows))]).collect()
        model = bowline.merge(pickle.loads(data) for data in pickled)

        def classify(frames):
            for f in frames:
                yield f.assign(predicted=model.predict(list(f.text)).astype(str))

        out = frame.mapInPandas(classify, "text string, label string, predicted string")
        predicted = out.toPandas()
    finally:
        spark.stop()
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

    def train(rows):
        """The pickled model of one partition's rows."""
        model = bowline.TextClassifier(**EXACT)
        return pickle.dumps(model.fit([r.text for r in rows], [r.label for r in rows]))

    os.environ["PYSPARK_PYTHON"] = sys.executable
    started = time.perf_counter()
    spark = (
        sql.SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )
    try:
        up = time.perf_counter()
        order = interleaved(len(texts))
        rows = pd.DataFrame(
            {"text": [texts[i] for i in order], "label": [labels[i] for i in order]}
        )
        frame = spark.createDataFrame(rows).repartition(4)
        pickled = frame.rdd.mapPartitions(lambda rows: [train(list(rows))]).collect()
        model = bowline.merge(pickle.loads(data) for data in pickled)

        def classify(frames):
            for f in frames:
                yield f.assign(predicted=model.predict(list(f.text)).astype(str))

        to_classify = spark.createDataFrame(pd.DataFrame({"text": test})).repartition(4)
        out = to_classify.mapInPandas(classify, "text string, predicted string").toPandas()
        done = time.perf_counter()
    finally:
        spark.stop()
    whole = bowline.TextClassifier(**EXACT).fit(texts, labels)
    expected = dict(zip(test, whole.predict(test)))
    alone = time.perf_counter() - done
    print(
        f"\nSpark local[2]: {done - up:.2f} s ({up - started:.2f} s more to start it); one "
        f"process: {alone:.2f} s"
    )
    assert len(pickled) == 4 and len(out) == len(test)
    assert all(expected[t] == p for t, p in zip(out.text, out.predicted))
