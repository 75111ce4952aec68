#!/usr/bin/env bash
# What one decision costs the server on each front end, in figures a loaded machine does not
# move: sluice-cli serve --grpc on one private redis-server (tests/redis-fixture.sh), one rule and
# one subject, N requests from h2load (Debian's nghttp2-client) to each port, 16 connections:
#  - grpc: a hand-encoded ShouldRateLimit posted to the gRPC port (as bench-serve.sh's h2grpc);
#  - http: GET /v1/check over HTTP/1.1 (h2load --h1, as wrk's requests).
# Default: the server under valgrind's callgrind, instrumented only during each load; prints
# the server's user-space instructions per request (all its threads). With PERF=1 instead,
# `perf stat` on the running server: task-clock ms, system calls and context switches per
# request (these move with the load; the instructions do not). CALLGRIND_OUT=DIR keeps the
# callgrind files (callgrind_annotate --inclusive=yes DIR/cg-grpc.out) for the profile.
#
#   tools/bench-grpc-cost.sh [BUILD_DIR]     env: N=20000 (callgrind) / 200000 (PERF=1)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
cli=$build/app/sluice-cli
perf=${PERF:-0}
n=${N:-$([ "$perf" = 1 ] && echo 200000 || echo 20000)}
command -v h2load >/dev/null || { echo "no h2load (apt-get install nghttp2-client)" >&2; exit 1; }
if [ "$perf" = 1 ]; then
    command -v perf >/dev/null || { echo "no perf (apt-get install linux-perf)" >&2; exit 1; }
else
    command -v valgrind >/dev/null || { echo "no valgrind (apt-get install valgrind)" >&2; exit 1; }
fi
. "$here/tools/lib/servebench.sh"
servebench_start
out=${CALLGRIND_OUT:-$tmp}
cat >"$tmp/rules.json" <<'JSON'
{"version": 1, "rules": [
  {"id": "benchgrpc.remote_address", "scope": "ip", "algorithm": "fixed_window",
   "limit": 1000000000, "window": "1h", "key_prefix": "bench-grpc:"}]}
JSON
# One gRPC message: RateLimitRequest {domain "benchgrpc", descriptors [{entries
# [{remote_address, s1}]}], hits_addend 1}, as bench-serve.sh's h2grpc posts it.
python3 - "$tmp/grpc.bin" <<'PY'
import struct, sys
def field(n, b): return bytes([n << 3 | 2, len(b)]) + b
entry = field(1, b"remote_address") + field(2, b"s1")
msg = field(1, b"benchgrpc") + field(2, field(1, entry)) + bytes([3 << 3, 1])
open(sys.argv[1], "wb").write(b"\0" + struct.pack(">I", len(msg)) + msg)
PY
wrap=()
[ "$perf" = 1 ] || wrap=(valgrind --tool=callgrind --instr-atstart=no "--callgrind-out-file=$tmp/cg.%p")
"${wrap[@]}" "$cli" serve --url "$url" --rules "$tmp/rules.json" --listen 127.0.0.1:0 --workers 2 \
    --grpc 127.0.0.1:0 >"$tmp/server.out" 2>"$tmp/server.err" &
pid=$!
for _ in $(seq 1 300); do grep -q '^grpc on' "$tmp/server.out" 2>/dev/null && break; sleep 0.1; done
wait_listening
gport=$(sed -n 's/^grpc on 127.0.0.1:\([0-9]*\)$/\1/p' "$tmp/server.out")
grpc() {
    h2load -n "$1" -c 16 -m 1 -t 1 -d "$tmp/grpc.bin" -H 'content-type: application/grpc' \
        -H 'te: trailers' \
        "http://127.0.0.1:$gport/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit"
}
http() { h2load --h1 -n "$1" -c 16 -m 1 -t 1 "http://127.0.0.1:$port/v1/check?rule=benchgrpc.remote_address&subject=s1"; }
grpc 2000 >/dev/null
http 2000 >/dev/null
for what in grpc http; do
    if [ "$perf" = 1 ]; then
        perf stat -x, -e task-clock,raw_syscalls:sys_enter,context-switches -p "$pid" \
            -o "$tmp/perf.$what" -- bash -c "$(declare -f grpc http); tmp=$tmp gport=$gport port=$port; $what $n" \
            >"$tmp/out.$what"
        figures=$(awk -F, -v n="$n" '/task-clock/ {t = $1 / n * 1000} /sys_enter/ {s = $1 / n}
            /context-switches/ {c = $1 / n}
            END {printf "%.1f µs CPU, %.2f system calls, %.2f context switches per request", t, s, c}' \
            "$tmp/perf.$what")
    else
        callgrind_control -z "$pid" >/dev/null 2>&1
        callgrind_control -i on "$pid" >/dev/null 2>&1
        $what "$n" >"$tmp/out.$what"
        callgrind_control -i off "$pid" >/dev/null 2>&1
        callgrind_control -d "$what" "$pid" >/dev/null 2>&1
        f=$(ls -t "$tmp"/cg."$pid"* | head -n 1)
        [ "$out" = "$tmp" ] || cp "$f" "$out/cg-$what.out"
        figures=$(callgrind_annotate "$f" 2>/dev/null | awk -v n="$n" '/PROGRAM TOTALS/ {
            gsub(",", "", $1); printf "%.0f instructions per request (user space)", $1 / n}')
    fi
    ok=$(awk '/^status codes:/ {print $3}' "$tmp/out.$what")
    printf "%-5s %s requests, %s 2xx: %s\n" "$what" "$n" "$ok" "$figures"
done
