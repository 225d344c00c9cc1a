#!/usr/bin/env bash
# Streaming classification, stdin to stdout, with a multinomial NB model: throughput on SMS lines
# and on 20 Newsgroups posts (one per line), against a scikit-learn loop reading stdin the same
# way (benches/sklearn_stream.py), side by side in one hyperfine run; peak RSS at ~100 MB and
# ~1 GB of input; and the latency of one line on an idle pipe.
#
#   benches/stream.sh [CORPORA]      (default: ../shared/corpora)
#
# Both sides are timed as whole processes (start, load the model, classify every line, exit);
# the same run times Python's start-up with the script's imports, printed beside each ratio.
# Needs hyperfine and python3; scikit-learn goes into a virtualenv under target/. The inputs
# (about 1.2 GB) are written to a temporary folder and removed afterwards.
set -euo pipefail
corpora=${1:-../shared/corpora}
source "$(dirname "$0")/setup.sh"
bowline=target/release/bowline
sms=$corpora/sms-spam/SMSSpamCollection.tsv

# Inputs: SMS texts repeated 40 times (223k lines, 18 MB); 20news train posts one per line
# (whitespace folded), repeated 5 times (106 MB) and 50 times (1.06 GB).
tail -n +2 "$sms" | cut -f2- > "$out/sms1.txt"
for _ in $(seq 40); do cat "$out/sms1.txt"; done > "$out/sms.txt"
python3 - "$corpora/20news-bydate/train" "$out/news1.txt" <<'PY'
import os, sys
root, out = sys.argv[1], open(sys.argv[2], "w", encoding="utf-8")
for c in sorted(os.listdir(root)):
    for f in sorted(os.listdir(os.path.join(root, c))):
        text = open(os.path.join(root, c, f), encoding="utf-8", errors="replace").read()
        out.write(" ".join(text.split()) + "\n")
PY
news_train=$out/news_train.tsv
python3 - "$corpora/20news-bydate/train" "$news_train" <<'PY'
import os, sys
root, out = sys.argv[1], open(sys.argv[2], "w", encoding="utf-8")
for c in sorted(os.listdir(root)):
    for f in sorted(os.listdir(os.path.join(root, c))):
        text = open(os.path.join(root, c, f), encoding="utf-8", errors="replace").read()
        out.write(c + "\t" + " ".join(text.split()) + "\n")
PY
for _ in $(seq 5); do cat "$out/news1.txt"; done > "$out/news.txt"
for _ in $(seq 10); do cat "$out/news.txt"; done > "$out/news_1g.txt"

# Models: bowline's multinomial NB defaults; scikit-learn's TF-IDF + MultinomialNB pipelines.
$bowline train "$sms" -o "$out/sms.model" --classifier mnb -q
$bowline train "$news_train" -o "$out/news.model" --classifier mnb -q 2>/dev/null
"$venv/bin/python" benches/sklearn_stream.py fit "$sms" "$out/sms.pickle"
"$venv/bin/python" benches/sklearn_stream.py fit "$news_train" "$out/news.pickle"

py="$venv/bin/python benches/sklearn_stream.py classify"
echo "setup: whole processes; threads: bowline $cores (all cores), scikit-learn 1 (predict_proba" \
    "takes no n_jobs); features: each side's defaults (bowline stemmed words and word pairs," \
    "scikit-learn words), scikit-learn in batches of 1,000 lines; scikit-learn $sklearn_version"
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "$out/times.json" \
    -n bowline-sms "$bowline classify $out/sms.model -q < $out/sms.txt > /dev/null" \
    -n sklearn-sms "$py $out/sms.pickle < $out/sms.txt > /dev/null" \
    -n bowline-news "$bowline classify $out/news.model -q < $out/news.txt > /dev/null" \
    -n sklearn-news "$py $out/news.pickle < $out/news.txt > /dev/null" \
    -n sklearn-start-up "$(startup sklearn_stream)"
lines=$(wc -l < "$out/sms.txt")
bytes=$(wc -c < "$out/news.txt")
"$venv/bin/python" - "$out/times.json" "$lines" "$bytes" <<'PY'
import json, sys
runs = {r["command"]: r["mean"] for r in json.load(open(sys.argv[1]))["results"]}
lines, size = int(sys.argv[2]), int(sys.argv[3]) / 1e6
start = runs["sklearn-start-up"]
for name, unit, amount in (("sms", "lines/s", lines), ("news", "MB/s", size)):
    b, s = runs[f"bowline-{name}"], runs[f"sklearn-{name}"]
    print(f"{name}: bowline {amount / b:,.0f} {unit} ({b:.2f} s), scikit-learn "
          f"{amount / s:,.0f} {unit} ({s:.2f} s, of which {start:.2f} s Python start-up and "
          f"imports): {s / b:.1f}x, whole processes")
PY
peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
small=$(peak sh -c "$bowline classify $out/news.model -q < $out/news.txt")
large=$(peak sh -c "$bowline classify $out/news.model -q < $out/news_1g.txt")
echo "peak RSS: $((small / 1024)) MiB on 106 MB of input, $((large / 1024)) MiB on 1.06 GB"
python3 benches/first_result.py "$bowline" classify "$out/sms.model" -q
