#!/usr/bin/env bash
# Loading a model: the whole `bowline classify MODEL one.txt -q` process (load, then classify one
# 20 Newsgroups post) for each default 20news model (svm, mnb, cnb, bnb, knn: `bowline train`
# defaults, only --classifier varying), before and after, side by side in one hyperfine run; the
# time of a `bowline serve` reload of the SVM and complement NB models (POST .../reload, which
# loads the file with the same loader); and peak RSS of classify on the largest model.
#
#   BEFORE=/path/to/older/bowline benches/load.sh [NEWS_ROOT]
#                                   (default: ../shared/corpora/20news-bydate)
#
# BEFORE is optional: without it only this build is measured. Each binary classifies models it
# trained itself, so each reads its own format. Needs hyperfine and curl.
set -euo pipefail
news=${1:-../shared/corpora/20news-bydate}
source "$(dirname "$0")/setup.sh"
command -v curl >/dev/null || { echo "install curl" >&2; exit 1; }
after=target/release/bowline
before=${BEFORE:-}
kinds=(svm mnb cnb bnb knn)
runs=${RUNS:-30}
one=$(find "$news/test/sci.space" -type f | sort | head -n 1)

train() { # binary, name
    for kind in "${kinds[@]}"; do
        "$1" train "$news/train" --classifier "$kind" -o "$out/$2-$kind.model" -q 2>/dev/null
    done
}
train "$after" after
[ -n "$before" ] && train "$before" before
ls -l "$out"/*.model | awk '{print $5, $NF}'

commands=()
for kind in "${kinds[@]}"; do
    [ -n "$before" ] && commands+=(-n "before-$kind" "$before classify $out/before-$kind.model $one -q")
    commands+=(-n "after-$kind" "$after classify $out/after-$kind.model $one -q")
done
hyperfine -N --warmup 3 --runs "$runs" --export-markdown "$out/load.md" "${commands[@]}"
cat "$out/load.md"

# A reload through the HTTP API: the server loads the file again and swaps it in. curl's own
# start is part of the time; `curl http://.../healthz` alone measures it.
reload() { # binary, name, kind
    local log="$out/serve-$2-$3.log"
    "$1" serve "$out/$2-$3.model" --addr 127.0.0.1:0 -q 2>"$log" &
    local pid=$!
    local url=""
    for _ in $(seq 100); do
        url=$(grep -o 'http://[0-9.:]*' "$log" || true)
        [ -n "$url" ] && break
        sleep 0.1
    done
    hyperfine -N --warmup 3 --runs "$runs" \
        -n "$2-$3 healthz (curl alone)" "curl -sf $url/healthz" \
        -n "$2-$3 reload" "curl -sf -X POST $url/v1/models/$2-$3/reload"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
}
for kind in svm cnb; do
    [ -n "$before" ] && reload "$before" before "$kind"
    reload "$after" after "$kind"
done

# Peak RSS of classify on the largest model: one post, and the whole test set.
peak() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
for name in ${before:+before} after; do
    binary=$after
    [ "$name" = before ] && binary=$before
    echo "$name svm peak RSS (KB): one post $(peak "$binary" classify "$out/$name-svm.model" "$one" -q)," \
        "test set $(peak "$binary" classify "$out/$name-svm.model" "$news/test" -q)"
done
