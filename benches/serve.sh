#!/usr/bin/env bash
# `bowline serve` against the service a scikit-learn user would write (benches/sklearn_serve.py:
# the same multinomial NB on the same SMS training part, behind FastAPI on uvicorn), one after
# the other in one run: requests/s and p50/p99 latency from wrk at 1, 16 and 64 connections,
# for one SMS message per request and for batches of 100.
#
#   benches/serve.sh [CORPORA]      (default: ../shared/corpora; DURATION=10 seconds a load)
#
# The peer runs as it is deployed: uvicorn[standard] (httptools' parser and uvloop's event loop,
# asked for by name so that uvicorn cannot fall back to h11 and asyncio), one worker process per
# core. Under h11, wrk's keep-alive requests each stalled about 40 ms on a delayed TCP ACK, which
# measured the parser's interplay with TCP rather than the service. To catch such a stall on either
# side, each server's p50 at one connection must be within 2x of the median of five single curl
# requests; the script prints both and fails when a server is not.
#
# Needs wrk (apt-get install wrk) and curl; FastAPI and uvicorn[standard] go into the benchmark
# virtualenv. Both servers listen on 127.0.0.1 only, and each load run lasts DURATION seconds.
set -euo pipefail
corpora=${1:-../shared/corpora}
source "$(dirname "$0")/setup.sh"
command -v wrk >/dev/null || { echo "install wrk (apt-get install wrk)" >&2; exit 1; }
command -v curl >/dev/null || { echo "install curl" >&2; exit 1; }
"$venv/bin/python" -c 'import fastapi, uvicorn, httptools, uvloop' 2>/dev/null ||
    "$venv/bin/pip" install --quiet fastapi 'uvicorn[standard]'
duration=${DURATION:-10}
"$venv/bin/python" benches/corpora.py target/bench-corpora >/dev/null
train=target/bench-corpora/sms-train.tsv
test=target/bench-corpora/sms-test.tsv

# Request bodies: the first test message alone, and the first 100 test messages.
python3 - "$test" "$out" <<'PY'
import csv, json, sys
texts = [row[1] for row in csv.reader(open(sys.argv[1], encoding="utf-8"), delimiter="\t",
                                       quoting=csv.QUOTE_NONE) if row[0] != "label"]
json.dump({"texts": texts[:1]}, open(f"{sys.argv[2]}/one.json", "w"))
json.dump({"texts": texts[:100]}, open(f"{sys.argv[2]}/batch.json", "w"))
PY
for body in one batch; do
    cat > "$out/$body.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open("$out/$body.json"); wrk.body = f:read("*a"); f:close()
LUA
done

target/release/bowline train "$train" --classifier mnb -o "$out/sms.model" -q

# Waits for a server to answer on port $1.
wait_for() {
    for _ in $(seq 300); do
        curl -sf -o /dev/null -X POST -H 'Content-Type: application/json' \
            -d @"$out/one.json" "http://127.0.0.1:$1/v1/models/sms/classify" && return 0
        sleep 0.1
    done
    echo "no server on port $1" >&2
    exit 1
}

# The median of five single requests from curl, in milliseconds, each on a new connection: what
# one request costs when nothing waits on TCP, the yardstick for p50 at one connection.
single() {
    for _ in 1 2 3 4 5; do
        curl -sf -o /dev/null -w '%{time_total}\n' -X POST -H 'Content-Type: application/json' \
            -d @"$out/one.json" "http://127.0.0.1:$1/v1/models/sms/classify"
    done | sort -n | awk 'NR == 3 { printf "%.3f", $1 * 1000 }'
}

# Runs wrk at each concurrency and body against port $2, printing one row per run for $1, and
# keeps the p50 of one message at one connection in $out/p50-$1.
load() {
    for body in one batch; do
        for connections in 1 16 64; do
            wrk -t 1 -c "$connections" -d "${duration}s" --latency -s "$out/$body.lua" \
                "http://127.0.0.1:$2/v1/models/sms/classify" > "$out/wrk.txt"
            python3 - "$1" "$body" "$connections" "$out/wrk.txt" "$out/p50-$1" <<'PY'
import re, sys
name, body, connections, text = sys.argv[1], sys.argv[2], sys.argv[3], open(sys.argv[4]).read()
def ms(label):
    value, unit = re.search(rf"^\s*{label}\s+([\d.]+)(us|ms|s)\s*$", text, re.M).groups()
    return float(value) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
docs = rps * (100 if body == "batch" else 1)
print(f"{name:8} {body:6} c={connections:>2}  {rps:>9.0f} req/s  {docs:>9.0f} docs/s  "
      f"p50 {ms('50%'):7.2f} ms  p99 {ms('99%'):7.2f} ms  non-2xx {errors.group(1) if errors else 0}")
if body == "one" and connections == "1":
    open(sys.argv[5], "w").write(f"{ms('50%'):.3f}")
PY
        done
    done
}

# Prints a server's p50 at one connection beside its single curl request ($2, in ms), and records
# a failure when the p50 is more than twice as long: the server, not the work, would be measured.
failed=0
check() {
    local p50
    p50=$(cat "$out/p50-$1")
    if python3 -c "import sys; sys.exit(float(sys.argv[1]) > 2 * float(sys.argv[2]))" "$p50" "$2"
    then
        echo "$1: p50 at one connection $p50 ms, single curl request $2 ms (median of 5): within 2x"
    else
        echo "$1: p50 at one connection $p50 ms, single curl request $2 ms (median of 5):" \
            "MORE THAN 2x, so the load measures a stall, not the service" >&2
        failed=1
    fi
}

uvicorn_version=$("$venv/bin/python" -c 'import uvicorn; print(uvicorn.__version__)')
fastapi_version=$("$venv/bin/python" -c 'import fastapi; print(fastapi.__version__)')
httptools_version=$("$venv/bin/python" -c 'import httptools; print(httptools.__version__)')
uvloop_version=$("$venv/bin/python" -c 'import uvloop; print(uvloop.__version__)')
echo "setup: bowline serve, one process, $cores worker threads (tokio's default, one per core);" \
    "scikit-learn $sklearn_version behind FastAPI $fastapi_version on uvicorn $uvicorn_version," \
    "$cores worker processes, httptools $httptools_version parser, uvloop $uvloop_version loop," \
    "a sync handler in FastAPI's thread pool; features: each side's multinomial NB (bowline's" \
    "defaults, scikit-learn TF-IDF + MultinomialNB(alpha=0.01)); wrk, 1 thread, ${duration} s a load"

target/release/bowline serve "sms=$out/sms.model" --addr 127.0.0.1:18080 -q &
bowline_pid=$!
wait_for 18080
bowline_single=$(single 18080)
load bowline 18080
kill -TERM "$bowline_pid"; wait "$bowline_pid" || true

TRAIN=$train "$venv/bin/uvicorn" --app-dir benches sklearn_serve:app --host 127.0.0.1 \
    --port 18081 --workers "$cores" --http httptools --loop uvloop --log-level warning &
python_pid=$!
wait_for 18081
# wait_for hears from the first worker only; the others start with it and load their own model, so
# a second more lets every worker be serving before anything is measured.
sleep 1
sklearn_single=$(single 18081)
load sklearn 18081
kill -TERM "$python_pid"; wait "$python_pid" || true

check bowline "$bowline_single"
check sklearn "$sklearn_single"
exit "$failed"
