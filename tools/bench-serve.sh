#!/usr/bin/env bash
# The HTTP check service under load on loopback: wrk against sluice-cli serve
# (GET /v1/check over 10,000 subjects, every decision on the admitting path), beside
# `sluice-cli bench`'s direct pipelined figure for the same algorithm, in the same run, on a
# private redis-server (tests/redis-fixture.sh). Prints decisions/s and p99 latency per run and
# the medians.
#
#   tools/bench-serve.sh [BUILD_DIR]     env: RUNS=3 SECONDS_=5 CONNECTIONS=64 THREADS=2
#                                             WORKERS="2" (space-separated: one row each)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
cli=$build/app/sluice-cli
runs=${RUNS:-3}
duration=${SECONDS_:-5}
connections=${CONNECTIONS:-64}
threads=${THREADS:-2}
workers_list=${WORKERS:-2}
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
[ -x "$cli" ] || { echo "no $cli: build sluice-cli first" >&2; exit 1; }

tmp=$(mktemp -d)
serve_pid=
cleanup() {
    [ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
    bash "$here/tests/redis-fixture.sh" stop "$tmp/redis" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
bash "$here/tests/redis-fixture.sh" start "$tmp/redis" >/dev/null
url=$(cat "$tmp/redis/url")

# Limits far above what a run can spend: every decision admits (the bench's admitting path).
cat >"$tmp/rules.json" <<'JSON'
{"version": 1, "rules": [
  {"id": "bench", "scope": "ip", "algorithm": "fixed_window", "limit": 1000000000,
   "window": "1h", "key_prefix": "bench-serve:"}]}
JSON
cat >"$tmp/subjects.lua" <<'LUA'
-- A different subject per request, spread over 10,000 (as sluice-cli bench does).
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", "/v1/check?rule=bench&subject=s" .. ((n * 7919) % 10000))
end
LUA

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# wrk's p99 line ("99%  1.23ms") in microseconds.
p99_us() {
    awk '$1 == "99%" {v=$2; u=v; gsub(/[0-9.]/, "", u); gsub(/[a-z]/, "", v);
         f = (u == "us") ? 1 : (u == "ms") ? 1000 : (u == "s") ? 1000000 : 60000000;
         printf "%.0f\n", v * f}'
}

printf "%-8s %-4s %14s %10s %16s %7s\n" workers run "http_dec_per_s" "p99_ms" "direct_pipelined" ratio
for workers in $workers_list; do
    rates=() p99s=() directs=() ratios=()
    for run in $(seq 1 "$runs"); do
        "$cli" serve --url "$url" --rules "$tmp/rules.json" --listen 127.0.0.1:0 \
            --workers "$workers" >"$tmp/serve.out" 2>"$tmp/serve.err" &
        serve_pid=$!
        for _ in $(seq 1 100); do grep -q listening "$tmp/serve.out" && break; sleep 0.1; done
        port=$(sed -n 's/^listening on http:\/\/127.0.0.1:\([0-9]*\)$/\1/p' "$tmp/serve.out")
        [ -n "$port" ] || { cat "$tmp/serve.err" >&2; exit 1; }
        wrk -t"$threads" -c"$connections" -d"${duration}s" --latency -s "$tmp/subjects.lua" \
            "http://127.0.0.1:$port" >"$tmp/wrk.out"
        kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true; serve_pid=
        if grep -q "Non-2xx" "$tmp/wrk.out"; then
            echo "wrk saw non-2xx answers:" >&2; cat "$tmp/wrk.out" >&2; exit 1
        fi
        rate=$(awk '/^Requests\/sec:/ {print $2}' "$tmp/wrk.out")
        p99=$(p99_us <"$tmp/wrk.out")
        # The engine directly, same algorithm, same Redis, right after.
        direct=$("$cli" bench --url "$url" --seconds 2 --rounds 1 --algorithm fixed_window --json |
            python3 -c 'import json,sys; r=json.load(sys.stdin)["results"];
print([x for x in r if x["mode"]=="pipelined"][0]["decisions_per_s"])')
        ratio=$(awk -v a="$rate" -v b="$direct" 'BEGIN {printf "%.3f", a / b}')
        printf "%-8s %-4s %14.0f %10.2f %16s %7s\n" "$workers" "$run" "$rate" \
            "$(awk -v u="$p99" 'BEGIN {print u / 1000}')" "$direct" "$ratio"
        rates+=("$rate") p99s+=("$p99") directs+=("$direct") ratios+=("$ratio")
    done
    printf "%-8s %-4s %14.0f %10.2f %16.0f %7s\n" "$workers" median \
        "$(printf '%s\n' "${rates[@]}" | median)" \
        "$(printf '%s\n' "${p99s[@]}" | median | awk '{print $1 / 1000}')" \
        "$(printf '%s\n' "${directs[@]}" | median)" "$(printf '%s\n' "${ratios[@]}" | median)"
done
