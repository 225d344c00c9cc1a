#!/usr/bin/env bash
# One-machine throughput of multinomial naive Bayes training, bowline against Spark MLlib's
# NaiveBayes in local mode, side by side on one corpus: 20 Newsgroups train repeated with
# distinct ids into one JSONL file of SIZE bytes (written to a temporary folder, never
# committed). Both use every core, the same analysis Spark has built in (lowercased words, no
# stemming, raw counts, every term) and smoothing 0.01; bowline also runs with its defaults.
# Every command is timed as a whole process; the same run times Spark's start-up alone (a JVM and
# a session started and stopped), printed beside the ratios.
# Needs hyperfine, a JVM (apt-get install default-jre-headless) and PySpark, which it installs
# into target/spark-venv.
#   benches/spark.sh [SIZE]      (default 1e9; needs ../shared/corpora); RUNS=1
set -euo pipefail
size=${1:-1e9}
runs=${RUNS:-1}
cd "$(dirname "$0")/.."
command -v hyperfine >/dev/null || { echo "install hyperfine (apt-get install hyperfine)" >&2; exit 1; }
command -v java >/dev/null || { echo "install a JVM (apt-get install default-jre-headless)" >&2; exit 1; }
# PySpark's ML package needs numpy, which plain `pip install pyspark` leaves out; its `ml` extra
# brings it.
if [ ! -x target/spark-venv/bin/python ] ||
    ! target/spark-venv/bin/python -c 'import pyspark.ml' 2>/dev/null; then
    python3 -m venv target/spark-venv
    target/spark-venv/bin/pip install --quiet 'pyspark[ml]'
fi
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 benches/repeat_corpus.py ../shared/corpora/20news-bydate/train "$out/corpus.jsonl" "$size"
threads=$(nproc)
same="--classifier mnb --stem none --ngrams 1 --tf count --idf none --norm none --min-df 1 --alpha 0.01"
echo "setup: whole processes; threads: bowline $threads (all cores), Spark local[$threads];" \
    "features: Spark's analysis on both sides (and bowline's defaults once more);" \
    "PySpark $(target/spark-venv/bin/python -c 'import pyspark; print(pyspark.__version__)')"
hyperfine --runs "$runs" --export-markdown "$out/times.md" --export-json "$out/times.json" \
    -n "bowline, Spark's analysis" "target/release/bowline train $out/corpus.jsonl -o $out/a.model $same -q" \
    -n "bowline, its defaults" "target/release/bowline train $out/corpus.jsonl -o $out/b.model --classifier mnb -q" \
    -n "Spark MLlib local[$threads]" "target/spark-venv/bin/python benches/spark_nb.py $out/corpus.jsonl $threads" \
    -n "Spark start-up" "target/spark-venv/bin/python benches/spark_nb.py --start-only $threads"
cat "$out/times.md"
python3 - "$out/times.json" "$threads" <<'PY'
import json, sys
runs = {r["command"]: r["mean"] for r in json.load(open(sys.argv[1]))["results"]}
b, s = runs["bowline, Spark's analysis"], runs[f"Spark MLlib local[{sys.argv[2]}]"]
start = runs["Spark start-up"]
print(f"Spark's analysis: bowline {b:.1f} s, Spark {s:.1f} s (of which {start:.1f} s JVM and "
      f"Spark start-up): {s / b:.1f}x, whole processes")
PY
ls -l "$out/corpus.jsonl"
