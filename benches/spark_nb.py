"""Spark MLlib's multinomial NaiveBayes in local mode on a JSONL corpus ({"id", "label", "text"}
lines): RegexTokenizer (lowercase, split on non-word characters), CountVectorizer (every term,
min-df 1), NaiveBayes (smoothing 0.01). The settings of `bowline train --classifier mnb --stem
none --ngrams 1 --tf count --idf none --norm none --min-df 1 --alpha 0.01`, which Spark has built
in (it has no stemmer and no sublinear tf). Run by benches/spark.sh.

    python benches/spark_nb.py CORPUS.jsonl THREADS
    python benches/spark_nb.py --start-only THREADS

--start-only starts the same session and stops it: the JVM and Spark start-up that benches/spark.sh
times alike and prints beside the whole-process ratio.
"""
import sys
import time

from pyspark.ml import Pipeline
from pyspark.ml.classification import NaiveBayes
from pyspark.ml.feature import CountVectorizer, RegexTokenizer, StringIndexer
from pyspark.sql import SparkSession
from pyspark.sql.types import StringType, StructField, StructType

path, threads = sys.argv[1], sys.argv[2]
spark = (
    SparkSession.builder.master(f"local[{threads}]")
    .config("spark.driver.memory", "12g")
    .config("spark.ui.enabled", "false")
    .appName("bowline-bench-nb")
    .getOrCreate()
)
spark.sparkContext.setLogLevel("ERROR")
if path == "--start-only":
    spark.stop()
    sys.exit(0)
started = time.perf_counter()
schema = StructType([StructField(name, StringType()) for name in ("id", "label", "text")])
docs = spark.read.schema(schema).json(path)
pipeline = Pipeline(
    stages=[
        StringIndexer(inputCol="label", outputCol="y"),
        RegexTokenizer(inputCol="text", outputCol="words", pattern="\\W+", toLowercase=True),
        CountVectorizer(inputCol="words", outputCol="features", vocabSize=1 << 26, minDF=1.0),
        NaiveBayes(featuresCol="features", labelCol="y", smoothing=0.01, modelType="multinomial"),
    ]
)
model = pipeline.fit(docs)
vocabulary = len(model.stages[2].vocabulary)
print(
    f"spark: {vocabulary:,} terms, fitted in {time.perf_counter() - started:.1f} s "
    f"(JVM start-up not included)",
    file=sys.stderr,
)
spark.stop()
