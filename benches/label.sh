#!/usr/bin/env bash
# The latency of `bowline label` (issue 46): over a pool of 100,000 documents (20 Newsgroups and
# SMS Spam, repeated under new ids), the time from posting a label to the answer that holds the
# next suggestion, chosen by the model after learning it, measured through the HTTP API on
# 127.0.0.1 with one kept-alive connection. The corpora's own labels are the oracle; the model
# starts empty. Target: p95 ≤ 50 ms.
#
#   benches/label.sh [CORPORA] [LABELS]      (defaults: ../shared/corpora, 300 labels)
set -euo pipefail
corpora=${1:-../shared/corpora}
labels=${2:-300}
out=target/label-bench
rm -rf "$out" && mkdir -p "$out"
cargo build --release --quiet
python3 - "$corpora" "$out/pool.jsonl" "$out/oracle.json" <<'PY'
import json, os, sys
corpora, pool, oracle_path = sys.argv[1:]
docs = []
for part in ("train", "test"):
    root = os.path.join(corpora, "20news-bydate", part)
    for label in sorted(os.listdir(root)):
        for name in sorted(os.listdir(os.path.join(root, label))):
            with open(os.path.join(root, label, name), encoding="latin-1") as f:
                docs.append((label, f.read()))
with open(os.path.join(corpora, "sms-spam", "SMSSpamCollection.tsv"), encoding="utf-8") as f:
    for line in f:
        label, _, text = line.rstrip("\n").partition("\t")
        if label in ("ham", "spam"):
            docs.append(("sms-" + label, text))
oracle = {}
with open(pool, "w") as f:
    for i in range(100_000):
        label, text = docs[i % len(docs)]
        oracle[f"d{i}"] = label
        f.write(json.dumps({"id": f"d{i}", "text": text}) + "\n")
json.dump(oracle, open(oracle_path, "w"))
print(f"pool: 100,000 documents from {len(docs):,} distinct", file=sys.stderr)
PY
"${CARGO_TARGET_DIR:-target}"/release/bowline label "$out/pool.jsonl" --labels "$out/labels.jsonl" \
    --addr 127.0.0.1:0 2> "$out/server.log" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
started=$(date +%s)
until grep -q "listening on" "$out/server.log"; do
    kill -0 $server 2>/dev/null || { cat "$out/server.log"; exit 1; }
    sleep 0.5
done
echo "server ready after $(( $(date +%s) - started )) s (reading and analyzing the pool)"
addr=$(sed -n 's/.*listening on http:\/\///p' "$out/server.log")
python3 - "$addr" "$out/oracle.json" "$labels" <<'PY'
import http.client, json, sys, time
addr, oracle_path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
oracle = json.load(open(oracle_path))
host, port = addr.split(":")
connection = http.client.HTTPConnection(host, int(port))
def call(method, path, body=None):
    headers = {"Content-Type": "application/json"} if body else {}
    connection.request(method, path, body=json.dumps(body) if body else None, headers=headers)
    response = connection.getresponse()
    data = response.read()
    assert response.status == 200, data
    return json.loads(data)
state = call("GET", "/api/state")
times = []
for _ in range(n):
    id = state["document"]["id"]
    started = time.perf_counter()
    state = call("POST", "/api/label", {"id": id, "label": oracle[id]})
    times.append((time.perf_counter() - started) * 1000)
def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]
print(f"{n} labels, {len(state['classes'])} classes; label -> next suggestion: "
      f"p50 {pct(times, 0.5):.1f} ms, p95 {pct(times, 0.95):.1f} ms, max {max(times):.1f} ms")
late = times[n // 2:]
print(f"  the last {len(late)} labels: p50 {pct(late, 0.5):.1f} ms, p95 {pct(late, 0.95):.1f} ms")
print(f"  prequential accuracy {state['accuracy']:.3f}")
PY
