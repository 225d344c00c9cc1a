#!/usr/bin/env bash
# `bowline serve` learning through its write-ahead log: documents/s from wrk posting batches of
# 100 labelled SMS messages to POST /v1/models/sms/learn on 127.0.0.1, at CONNECTIONS
# connections (default 8) for DURATION seconds (default 10). Every 200 is durable before it is
# sent: the batch is synced to the log (concurrent requests share one fsync) or in the model file.
#
#   benches/learn.sh [CORPORA] [SERVE FLAGS...]    (default: ../shared/corpora)
#
# BOWLINE=PATH runs that binary instead of building this tree's release one (to compare two
# builds on the same machine in one sitting).
#
# The model starts from the first 1,000 messages of the SMS Spam Collection; the requests cycle
# over 40 bodies of 100 other messages each (4,000 in all), so the vocabulary and the counts grow
# as they would. Needs wrk (apt-get install wrk) and curl. The server checkpoints as its flags say
# (by default every 10,000 documents), and each checkpoint writes the whole model file.
set -euo pipefail
corpora=${1:-../shared/corpora}
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "install wrk (apt-get install wrk)" >&2; exit 1; }
command -v curl >/dev/null || { echo "install curl" >&2; exit 1; }
if [ -z "${BOWLINE:-}" ]; then
    cargo build --release --quiet
    BOWLINE=${CARGO_TARGET_DIR:-target}/release/bowline
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
duration=${DURATION:-10}
connections=${CONNECTIONS:-8}

python3 - "$corpora/sms-spam/SMSSpamCollection.tsv" "$out" <<'PY'
import csv, json, sys
rows = [row for row in csv.reader(open(sys.argv[1], encoding="utf-8"), delimiter="\t",
                                  quoting=csv.QUOTE_NONE) if row[0] != "Label"]
with open(f"{sys.argv[2]}/train.tsv", "w", encoding="utf-8") as train:
    for label, text in rows[:1000]:
        train.write(f"{label}\t{text}\n")
rest = rows[1000:5000]
for i in range(40):
    batch = rest[i * 100:(i + 1) * 100]
    body = {"documents": [{"label": label, "text": text} for label, text in batch]}
    json.dump(body, open(f"{sys.argv[2]}/body{i}.json", "w"))
PY
cat > "$out/learn.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
bodies = {}
for i = 0, 39 do
    local f = io.open("$out/body" .. i .. ".json"); bodies[i + 1] = f:read("*a"); f:close()
end
n = 0
request = function()
    n = n % 40 + 1
    return wrk.format(nil, nil, nil, bodies[n])
end
LUA

"$BOWLINE" train "$out/train.tsv" --classifier mnb -o "$out/sms.model" -q
"$BOWLINE" serve "sms=$out/sms.model" --addr 127.0.0.1:${PORT:-18090} -q "${@:2}" &
pid=$!
for _ in $(seq 300); do
    curl -sf -o /dev/null "http://127.0.0.1:${PORT:-18090}/readyz" && break
    sleep 0.1
done
wrk -t 1 -c "$connections" -d "${duration}s" --latency -s "$out/learn.lua" \
    "http://127.0.0.1:${PORT:-18090}/v1/models/sms/learn" > "$out/wrk.txt"
kill -TERM "$pid"; wait "$pid" || true
python3 - "$out/wrk.txt" "$connections" "$duration" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
p50 = re.search(r"^\s*50%\s+(\S+)", text, re.M).group(1)
p99 = re.search(r"^\s*99%\s+(\S+)", text, re.M).group(1)
print(f"learn, batches of 100, {sys.argv[2]} connections, {sys.argv[3]} s: {rps:.0f} req/s, "
      f"{rps * 100:.0f} documents/s, p50 {p50}, p99 {p99}, non-2xx {errors.group(1) if errors else 0}")
sys.exit(1 if errors else 0)
PY
