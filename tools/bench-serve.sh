#!/usr/bin/env bash
# The HTTP check service under load on loopback, beside its peer, in the same run, on one private
# redis-server (tests/redis-fixture.sh):
#  - serve:   sluice-cli serve, GET /v1/check over 10,000 subjects, fixed_window, every decision
#             on the admitting path;
#  - express: express 5 + rate-limiter-flexible 11 (RateLimiterRedis) + ioredis 5, the same
#             request and the same answer (200 + RateLimit headers + a JSON body), installed
#             from npm into BUILD_DIR/peers-serve at run time (never copied here);
#  - deny:    sluice-cli serve under a flood from 100 subjects that are all denied already (a
#             rule of limit 1 per hour, each subject spent before the flood), with the share of
#             requests that reached Redis (INFO commandstats: calls during the flood / requests);
#  - serve-pN, deny-pN: the same two loads with HTTP pipelining, N requests per write of each
#             connection (PIPELINE=N, default 16; 0: not run). Without it the kernel's TCP work
#             per request and wrk's own CPU on the same 2 cores bound the deny/admit ratio.
#  - grpc:    sluice-cli serve --grpc, Envoy's ShouldRateLimit over the same 10,000 subjects
#             (descriptor remote_address=s<i> of domain benchgrpc, a rule as the admitting one),
#             driven by the project's own load client (tools/grpc-load: CONNECTIONS calls in
#             flight over 4 HTTP/2 connections, one thread), when it was built (GRPC=0: not run).
#  - https:   the serve load over HTTPS (--listen-tls-cert, a self-signed certificate made
#             here; wrk keeps its connections, so the handshakes are few and the row is the
#             cost of the encryption) (TLS=0: not run);
#  - grpc-h2, grpc-tls: ShouldRateLimit (one subject, the admitting rule) by h2load, plain and
#             over TLS, 4 connections x 16 streams (h2load counts HTTP/2 answers; the gRPC
#             status in the trailers is not checked) (TLS=0 or no h2load: not run).
#  - http1, h2grpc: one rule and ONE subject from two independent load generators, neither
#             of them ours: wrk on GET /v1/check, and h2load (Debian's nghttp2-client) posting a
#             hand-encoded ShouldRateLimit (a gRPC frame: content-type application/grpc, te:
#             trailers) to serve --grpc, H2CONNECTIONS (16) connections each, with req/s, the
#             server's CPU µs per request (steadier than the rates on a shared machine) and the
#             ratio h2grpc/http1 (H2LOAD=0: not run). wrk keeps its latencies in memory; h2load
#             has percentiles only through --log-file, which costs it a write(2) a request on
#             the cores the server shares: so each run has an h2grpc row without the log (its
#             rate is the ratio's) and a +log row with it (p50 and p99, and its own ratio).
#             The grpc row above is for many subjects; the grpc++ client it uses takes a share
#             of the two cores that wrk does not, so its ratio is lower than h2grpc's.
# Runs are interleaved (serve, express, deny, serve, ...) because the machine is shared; it
# prints each run, then the medians, the serve/express ratio, the grpc/serve ratio and the
# deny/admit ratio.
#
#   tools/bench-serve.sh [BUILD_DIR]     env: RUNS=3 SECONDS_=5 CONNECTIONS=64 THREADS=2
#                                             WORKERS=2 PEER=1 (0: no express)
#                                             PIPELINE=16 (0: no pipelined rows)
#                                             GRPC=1 (0: no grpc row)
#                                             TLS=1 (0: no https, grpc-h2, grpc-tls rows)
#                                             H2LOAD=1 (0: no http1 / h2grpc rows)
#                                             H2CONNECTIONS=16, H2ONLY=1 (only those rows)
#                                             BASELINE=/path/to/another/sluice-cli (a row
#                                             "before": that build's serve, same load)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
cli=$build/app/sluice-cli
runs=${RUNS:-3}
duration=${SECONDS_:-5}
connections=${CONNECTIONS:-64}
threads=${THREADS:-2}
workers=${WORKERS:-2}
peer=${PEER:-1}
pipeline=${PIPELINE:-16}
grpcload=$build/tools/grpc-load/sluice-grpc-load
grpc=${GRPC:-1}
if [ "$grpc" = 1 ] && [ ! -x "$grpcload" ]; then
    echo "no $grpcload (built only with grpc++): no grpc row" >&2
    grpc=0
fi

tls=${TLS:-1}
h2=1
command -v h2load >/dev/null || { echo "no h2load (apt-get install nghttp2-client): no grpc-h2/grpc-tls rows" >&2; h2=0; }
[ "$tls" = 1 ] && [ -x "$grpcload" ] || h2=0  # (grpc-load is built with gRPC support)
h2rows=${H2LOAD:-1}
h2connections=${H2CONNECTIONS:-16}
if [ "$h2rows" = 1 ] && ! command -v h2load >/dev/null; then
    echo "no h2load (apt-get install nghttp2-client): no http1 / h2grpc rows" >&2
    h2rows=0
fi

peers=$build/peers-serve
if [ "$peer" = 1 ]; then
    command -v node >/dev/null || { echo "node is not installed (apt-get install nodejs npm)" >&2; exit 1; }
    if [ ! -f "$peers/node_modules/rate-limiter-flexible/package.json" ] ||
        [ ! -f "$peers/node_modules/ioredis/package.json" ] ||
        [ ! -f "$peers/node_modules/express/package.json" ]; then
        mkdir -p "$peers"
        npm install --silent --no-audit --no-fund --prefix "$peers" \
            express@5 rate-limiter-flexible@11 ioredis@5 >/dev/null
    fi
fi

. "$here/tools/lib/servebench.sh"
servebench_start

# Limits far above what a run can spend: every decision admits (the admitting path). "deny":
# one request an hour, so every subject is denied after its first.
cat >"$tmp/rules.json" <<'JSON'
{"version": 1, "rules": [
  {"id": "bench", "scope": "ip", "algorithm": "fixed_window", "limit": 1000000000,
   "window": "1h", "key_prefix": "bench-serve:"},
  {"id": "deny", "scope": "ip", "algorithm": "fixed_window", "limit": 1,
   "window": "1h", "key_prefix": "bench-deny:"},
  {"id": "benchgrpc.remote_address", "scope": "ip", "algorithm": "fixed_window",
   "limit": 1000000000, "window": "1h", "key_prefix": "bench-grpc:"}]}
JSON
subjects_lua() { # RULE COUNT [DEPTH]
    # The requests are formatted once (init), so that wrk spends little per request: it shares
    # the cores with the service. A different subject per request, spread over COUNT, in the
    # order sluice-cli bench uses (7919 is prime: every subject once per COUNT requests).
    # DEPTH > 1: that many requests in one write (HTTP pipelining; wrk counts each answer).
    cat <<LUA
local requests = {}
local n = 0
local depth = ${3:-1}
init = function(args)
  for i = 0, $2 - 1 do
    requests[i + 1] = wrk.format("GET", "/v1/check?rule=$1&subject=s" .. ((i * 7919) % $2))
  end
end
request = function()
  if depth == 1 then
    n = n + 1
    return requests[(n % $2) + 1]
  end
  local batch = {}
  for k = 1, depth do
    n = n + 1
    batch[k] = requests[(n % $2) + 1]
  end
  return table.concat(batch)
end
LUA
}
if [ "$tls" = 1 ]; then
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 1 \
        -subj /CN=localhost -addext subjectAltName=DNS:localhost 2>/dev/null
    tlsflags=(--listen-tls-cert "$tmp/cert.pem" --listen-tls-key "$tmp/key.pem")
    # One gRPC message (a 5-byte frame head, then a RateLimitRequest: domain benchgrpc,
    # remote_address=s1), for h2load's POST body.
    python3 -c 'import sys
e = b"\x0a\x0eremote_address\x12\x02s1"; d = b"\x0a" + bytes([len(e)]) + e
m = b"\x0a\x09benchgrpc\x12" + bytes([len(d)]) + d
sys.stdout.buffer.write(b"\x00" + len(m).to_bytes(4, "big") + m)' >"$tmp/rls.bin"
fi
subjects_lua bench 10000 >"$tmp/admit.lua"
subjects_lua deny 100 >"$tmp/deny.lua"
subjects_lua bench 10000 "$pipeline" >"$tmp/admitp.lua"
subjects_lua deny 100 "$pipeline" >"$tmp/denyp.lua"

# The peer: the same endpoint on express, rate-limiter-flexible's RateLimiterRedis over ioredis.
cat >"$tmp/peer.js" <<'JS'
const express = require('express');
const Redis = require('ioredis');
const { RateLimiterRedis } = require('rate-limiter-flexible');
const [port, redisPort] = [Number(process.argv[2]), Number(process.argv[3])];
const redis = new Redis({ host: '127.0.0.1', port: redisPort, enableOfflineQueue: true });
const limiter = new RateLimiterRedis({
  storeClient: redis, keyPrefix: 'bench-peer', points: 1000000000, duration: 3600 });
const app = express();
app.get('/v1/check', async (req, res) => {
  const subject = String(req.query.subject || '');
  const headers = (r) => ({
    'RateLimit-Policy': `"bench";q=1000000000;w=3600`,
    'RateLimit': `"bench";r=${r.remainingPoints};t=${Math.ceil(r.msBeforeNext / 1000)}`,
    'Cache-Control': 'no-store' });
  try {
    const r = await limiter.consume(subject, 1);
    res.status(200).set(headers(r)).json({ allowed: true, rule: 'bench', subject,
      remaining: r.remainingPoints, reset_after_ms: r.msBeforeNext });
  } catch (r) {
    if (r instanceof Error) { res.status(500).json({ error: String(r) }); return; }
    res.status(429).set(headers(r)).set('Retry-After', String(Math.ceil(r.msBeforeNext / 1000)))
      .json({ allowed: false, rule: 'bench', subject, remaining: 0,
              retry_after_ms: r.msBeforeNext });
  }
});
app.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
JS

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
start_serve() { # [CLI [ARGS...]]
    local c=${1:-$cli}
    [ $# -gt 0 ] && shift
    rm -f "$tmp/server.out"
    "$c" serve --url "$url" --rules "$tmp/rules.json" --listen 127.0.0.1:0 \
        --workers "$workers" "$@" >"$tmp/server.out" 2>"$tmp/server.err" &
    pid=$!
    wait_listening
}
# serve with --grpc; sets gport.
start_grpc() { # [ARGS...]
    start_serve "$cli" --grpc 127.0.0.1:0 "$@"
    for _ in $(seq 1 50); do grep -q '^grpc on' "$tmp/server.out" && break; sleep 0.1; done
    gport=$(sed -n 's/^grpc on 127.0.0.1:\([0-9]*\)$/\1/p' "$tmp/server.out")
}
start_peer() {
    port=$(free_port)
    rm -f "$tmp/server.out"
    NODE_PATH=$peers/node_modules NODE_ENV=production node "$tmp/peer.js" "$port" "$rport" \
        >"$tmp/server.out" 2>"$tmp/server.err" &
    pid=$!
    wait_listening
}
# wrk's p99 line ("99%  1.23ms") in ms.
p99_ms() {
    awk '$1 == "99%" {v=$2; u=v; gsub(/[0-9.]/, "", u); gsub(/[a-z]/, "", v);
         f = (u == "us") ? 0.001 : (u == "ms") ? 1 : (u == "s") ? 1000 : 60000;
         printf "%.2f\n", v * f}' "$1"
}
# Runs wrk with script $1; sets rate, p99, non2xx, total, and the CPU time per request of the
# server (cpu_server) and of the server + Redis (cpu_total), in microseconds: less load-bound
# than the rates on a shared machine.
load() {
    local s0 r0 s1 r1
    s0=$(ticks "$pid") r0=$(ticks "$rpid")
    wrk -t"$threads" -c"$connections" -d"${duration}s" --latency -s "$1" \
        "${scheme:-http}://127.0.0.1:$port" >"$tmp/wrk.out"
    s1=$(ticks "$pid") r1=$(ticks "$rpid")
    rate=$(awk '/^Requests\/sec:/ {print $2}' "$tmp/wrk.out")
    total=$(awk '/requests in/ {print $1}' "$tmp/wrk.out")
    non2xx=$(awk '/Non-2xx/ {print $NF}' "$tmp/wrk.out")
    non2xx=${non2xx:-0}
    p99=$(p99_ms "$tmp/wrk.out")
    cpu_server=$(awk -v t="$((s1 - s0))" -v n="$total" -v hz="$hz" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
    cpu_total=$(awk -v t="$((s1 - s0 + r1 - r0))" -v n="$total" -v hz="$hz" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
}
# The gRPC load: sets rate, p99, non2xx (calls that failed or were over the limit), total and
# the CPU figures, as load() does.
gload() {
    local s0 r0 s1 r1
    s0=$(ticks "$pid") r0=$(ticks "$rpid")
    "$grpcload" --target "127.0.0.1:$gport" --seconds "$duration" --concurrency "$connections" \
        --channels 4 --domain benchgrpc --subjects 10000 >"$tmp/grpc.out" || true
    s1=$(ticks "$pid") r1=$(ticks "$rpid")
    read -r _ total _ rate _ _ _ p99 _ _ _ over _ errors <"$tmp/grpc.out"
    non2xx=$((over + errors))
    cpu_server=$(awk -v t="$((s1 - s0))" -v n="$total" -v hz="$hz" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
    cpu_total=$(awk -v t="$((s1 - s0 + r1 - r0))" -v n="$total" -v hz="$hz" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
}

# h2load's gRPC load on $gport over SCHEME (http: h2c, https: TLS with ALPN h2): sets rate, p99
# (none), non2xx (requests that failed), total and the CPU figures, as load() does.
hload() { # SCHEME
    local s0 r0 s1 r1
    s0=$(ticks "$pid") r0=$(ticks "$rpid")
    h2load -D "$duration" -c 4 -m 16 -t 1 -d "$tmp/rls.bin" -H 'content-type: application/grpc' \
        -H 'te: trailers' "$1://127.0.0.1:$gport/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit" \
        >"$tmp/h2.out" 2>&1 || true
    s1=$(ticks "$pid") r1=$(ticks "$rpid")
    rate=$(awk '/^finished in/ {print $4}' "$tmp/h2.out")
    read -r total non2xx < <(awk '/^requests:/ {print $8, $10 + $12 + $14}' "$tmp/h2.out")
    p99=-
    cpu_server=$(awk -v t="$((s1 - s0))" -v n="$total" -v hz="$hz" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
    cpu_total=$(awk -v t="$((s1 - s0 + r1 - r0))" -v n="$total" -v hz="$hz" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
}
# h2load's body: one gRPC message (flag 0, 4-byte length) of RateLimitRequest {domain
# "benchgrpc", descriptors [{entries [{key "remote_address", value "s1"}]}], hits_addend 1},
# encoded by hand (field 1 domain, 2 descriptors > 1 entries > 1 key, 2 value; 3 hits_addend).
python3 - "$tmp/grpc.bin" <<'PY'
import struct, sys
def field(n, b): return bytes([n << 3 | 2, len(b)]) + b
entry = field(1, b"remote_address") + field(2, b"s1")
msg = field(1, b"benchgrpc") + field(2, field(1, entry)) + bytes([3 << 3, 1])
open(sys.argv[1], "wb").write(b"\0" + struct.pack(">I", len(msg)) + msg)
PY
printf 'request = function() return wrk.format("GET", "/v1/check?rule=benchgrpc.remote_address&subject=s1") end\n' \
    >"$tmp/one.lua"
# The percentile $2 (50, 99) of h2load's --log-file (start, status, elapsed µs per request) in ms.
pct_ms() { awk '{print $3}' "$1" | sort -n | awk -v p="$2" '{a[NR]=$1} END {i=int(NR*p/100); if (i<1) i=1; printf "%.2f\n", a[i]/1000}'; }
# wrk's p50 line in ms, as p99_ms.
p50_ms() { sed 's/^ *50%/ 99%/;t;d' "$1" >"$1.50"; p99_ms "$1.50"; }
# The server's CPU time per request (µs) between two ticks readings and a request count.
cpu_per() { awk -v t="$(($2 - $1))" -v n="$3" -v hz="$hz" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}'; }
h2grpc() { # [log]: sets rate, non2xx, cpu_server, and with log p50 and p99
    local s0 log=()
    s0=$(ticks "$pid")
    rm -f "$tmp/h2.log"
    [ "${1:-}" = log ] && log=(--log-file "$tmp/h2.log")
    h2load -D "$duration" -c "$h2connections" -m 1 -t 1 -d "$tmp/grpc.bin" \
        -H 'content-type: application/grpc' -H 'te: trailers' "${log[@]}" \
        "http://127.0.0.1:$gport/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit" \
        >"$tmp/h2.out"
    rate=$(awk '/^finished in/ {print $4}' "$tmp/h2.out")
    non2xx=$(awk '/^status codes:/ {print $5 + $7 + $9}' "$tmp/h2.out")
    p50=- p99=-
    [ "${1:-}" = log ] && p50=$(pct_ms "$tmp/h2.log" 50) p99=$(pct_ms "$tmp/h2.log" 99)
    cpu_server=$(cpu_per "$s0" "$(ticks "$pid")" "$(awk '/^requests:/ {print $8}' "$tmp/h2.out")")
}
http1() { # sets rate, p50, p99, non2xx, cpu_server
    local s0
    s0=$(ticks "$pid")
    wrk -t1 -c"$h2connections" -d"${duration}s" --latency -s "$tmp/one.lua" \
        "http://127.0.0.1:$port" >"$tmp/wrk.out"
    rate=$(awk '/^Requests\/sec:/ {print $2}' "$tmp/wrk.out")
    non2xx=$(awk '/Non-2xx/ {print $NF}' "$tmp/wrk.out")
    non2xx=${non2xx:-0}
    p50=$(p50_ms "$tmp/wrk.out") p99=$(p99_ms "$tmp/wrk.out")
    cpu_server=$(cpu_per "$s0" "$(ticks "$pid")" "$(awk '/requests in/ {print $1}' "$tmp/wrk.out")")
}
h1_rates=() h1_p50=() h1_p99=() h2_rates=() h2_p50=() h2_p99=() h2ratios=()
h2_logrates=() h2logratios=()
if [ "$h2rows" = 1 ]; then
    printf "%-7s %-4s %10s %8s %8s %8s %8s\n" loader run req_per_s p50_ms p99_ms non_2xx cpu_us
    for run in $(seq 1 "$runs"); do
        start_grpc
        [ -n "$gport" ] || { echo "serve --grpc did not start (a build without gRPC?)" >&2; exit 1; }
        http1
        printf "%-7s %-4s %10.0f %8s %8s %8s %8s\n" "http1" "$run" "$rate" "$p50" "$p99" "$non2xx" \
            "$cpu_server"
        h1_rates+=("$rate") h1_p50+=("$p50") h1_p99+=("$p99")
        h1rate=$rate
        h2grpc
        printf "%-7s %-4s %10.0f %8s %8s %8s %8s\n" "h2grpc" "$run" "$rate" "$p50" "$p99" "$non2xx" \
            "$cpu_server"
        h2_rates+=("$rate")
        h2ratios+=("$(awk -v a="$rate" -v b="$h1rate" 'BEGIN {printf "%.2f", a / b}')")
        h2grpc log
        printf "%-7s %-4s %10.0f %8s %8s %8s %8s\n" "+log" "$run" "$rate" "$p50" "$p99" "$non2xx" \
            "$cpu_server"
        h2_p50+=("$p50") h2_p99+=("$p99") h2_logrates+=("$rate")
        h2logratios+=("$(awk -v a="$rate" -v b="$h1rate" 'BEGIN {printf "%.2f", a / b}')")
        stop_server
    done
    mm() { printf '%s\n' "$@" | median; }
    printf "median  http1  %10.0f req/s  p50 %s ms  p99 %s ms (wrk, %s connections)\n" \
        "$(mm "${h1_rates[@]}")" "$(mm "${h1_p50[@]}")" "$(mm "${h1_p99[@]}")" "$h2connections"
    printf "median  h2grpc %10.0f req/s  p50 %s ms  p99 %s ms (h2load, %s connections; p50 and p99 of the +log runs)\n" \
        "$(mm "${h2_rates[@]}")" "$(mm "${h2_p50[@]}")" "$(mm "${h2_p99[@]}")" "$h2connections"
    echo "h2grpc/http1 ratio per run: ${h2ratios[*]}  median $(mm "${h2ratios[@]}")"
    echo "+log/http1 ratio per run:   ${h2logratios[*]}  median $(mm "${h2logratios[@]}") (h2load writing a line a request)"
    echo
    [ -n "${H2ONLY:-}" ] && exit 0
fi

# Spend every deny subject's one request, so the flood meets only denials.
start_serve
for i in $(seq 0 99); do
    curl -s -o /dev/null "http://127.0.0.1:$port/v1/check?rule=deny&subject=s$i"
done
stop_server

printf "%-9s %-4s %10s %8s %10s %8s %8s %s\n" service run "req_per_s" "p99_ms" "non_2xx" \
    "cpu_us" "+redis" "redis_calls/req"
row() { # NAME [SHARE]: the figures of the last load
    printf "%-9s %-4s %10.0f %8s %10s %8s %8s %s\n" "$1" "$run" "$rate" "$p99" "$non2xx" \
        "$cpu_server" "$cpu_total" "${2:-}"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
all_2xx() { # NAME: every answer of the last load was a 2xx, or the run stops
    [ "$non2xx" = 0 ] || { echo "$1 answered $non2xx non-2xx:" >&2; cat "$tmp/wrk.out" >&2; exit 1; }
}
flood() { # SCRIPT: the last load is the flood; sets share (Redis calls / request), warns of admissions
    local before after
    before=$(redis_calls)
    load "$1"
    after=$(redis_calls)
    share=$(awk -v c="$((after - before))" -v n="$total" 'BEGIN {printf "%.4f", c / n}')
    if [ "$non2xx" != "$total" ]; then
        # Only on_redis_error admits a denied subject: say why the service thought Redis down.
        echo "warning: $((total - non2xx)) of $total flood requests were admitted; the service said:" >&2
        grep -i "redis" "$tmp/server.err" | tail -3 >&2 || true
    fi
}
sp_rates=() sp_cpu=() dp_rates=() dp_share=() dp_cpu=() dpratios=()
g_rates=() g_p99=() g_cpu=() gratios=()
t_rates=() t_p99=() t_cpu=() tratios=() h_rates=() h_cpu=() ht_rates=() ht_cpu=() htratios=()
s_cpu=() b_cpu=() e_cpu=() d_cpu=() s_rates=() s_p99=() b_rates=() b_p99=() e_rates=() e_p99=() d_rates=() d_p99=() d_share=() ratios=() dratios=()
for run in $(seq 1 "$runs"); do
    start_serve
    load "$tmp/admit.lua"
    stop_server
    all_2xx serve
    row serve
    s_rates+=("$rate") s_p99+=("$p99") s_cpu+=("$cpu_total")
    srate=$rate
    if [ "$grpc" = 1 ]; then
        start_grpc
        gload
        stop_server
        all_2xx grpc
        row grpc
        g_rates+=("$rate") g_p99+=("$p99") g_cpu+=("$cpu_total")
        gratios+=("$(ratio "$rate" "$srate")")
        rate=$srate
    fi
    if [ "$tls" = 1 ]; then
        start_serve "$cli" "${tlsflags[@]}"
        scheme=https load "$tmp/admit.lua"
        stop_server
        all_2xx https
        row https
        t_rates+=("$rate") t_p99+=("$p99") t_cpu+=("$cpu_total")
        tratios+=("$(ratio "$rate" "$srate")")
        rate=$srate
    fi
    if [ "$h2" = 1 ]; then
        start_grpc
        hload http
        stop_server
        all_2xx grpc-h2
        row grpc-h2
        h_rates+=("$rate") h_cpu+=("$cpu_total")
        hrate=$rate
        start_grpc "${tlsflags[@]}"
        hload https
        stop_server
        all_2xx grpc-tls
        row grpc-tls
        ht_rates+=("$rate") ht_cpu+=("$cpu_total")
        htratios+=("$(ratio "$rate" "$hrate")")
        rate=$srate
    fi
    if [ -n "${BASELINE:-}" ]; then
        start_serve "$BASELINE"
        load "$tmp/admit.lua"
        stop_server
        row before
        b_rates+=("$rate") b_p99+=("$p99") b_cpu+=("$cpu_total")
    fi
    if [ "$peer" = 1 ]; then
        start_peer
        load "$tmp/admit.lua"
        stop_server
        all_2xx express
        row express
        e_rates+=("$rate") e_p99+=("$p99") e_cpu+=("$cpu_total")
        ratios+=("$(ratio "$srate" "$rate")")
    fi
    start_serve
    flood "$tmp/deny.lua"
    stop_server
    row deny "$share"
    d_rates+=("$rate") d_p99+=("$p99") d_share+=("$share") d_cpu+=("$cpu_total")
    dratios+=("$(ratio "$rate" "$srate")")
    if [ "$pipeline" -gt 0 ]; then
        # The two loads again, pipelined, on one service (the flood's subjects stay denied).
        # wrk times only some of a pipelined batch's answers: no p99 for these rows.
        start_serve
        load "$tmp/admitp.lua"
        all_2xx "serve (pipelined)"
        p99=-
        row "serve-p$pipeline"
        sp_rates+=("$rate") sp_cpu+=("$cpu_total")
        sprate=$rate
        flood "$tmp/denyp.lua"
        stop_server
        p99=-
        row "deny-p$pipeline" "$share"
        dp_rates+=("$rate") dp_share+=("$share") dp_cpu+=("$cpu_total")
        dpratios+=("$(ratio "$rate" "$sprate")")
    fi
done
m() { printf '%s\n' "$@" | median; }
echo
printf "%-8s %10s %8s\n" median "req_per_s" "p99_ms"
printf "%-8s %10.0f %8.2f\n" serve "$(m "${s_rates[@]}")" "$(m "${s_p99[@]}")"
if [ -n "${BASELINE:-}" ]; then
    printf "%-8s %10.0f %8.2f\n" before "$(m "${b_rates[@]}")" "$(m "${b_p99[@]}")"
fi
if [ "$grpc" = 1 ]; then
    printf "%-8s %10.0f %8.2f\n" grpc "$(m "${g_rates[@]}")" "$(m "${g_p99[@]}")"
fi
if [ "$tls" = 1 ]; then
    printf "%-8s %10.0f %8.2f\n" https "$(m "${t_rates[@]}")" "$(m "${t_p99[@]}")"
fi
if [ "$h2" = 1 ]; then
    printf "%-8s %10.0f\n" grpc-h2 "$(m "${h_rates[@]}")"
    printf "%-8s %10.0f\n" grpc-tls "$(m "${ht_rates[@]}")"
fi
if [ "$peer" = 1 ]; then
    printf "%-8s %10.0f %8.2f\n" express "$(m "${e_rates[@]}")" "$(m "${e_p99[@]}")"
fi
printf "%-8s %10.0f %8.2f   redis calls/request %s\n" deny "$(m "${d_rates[@]}")" "$(m "${d_p99[@]}")" \
    "$(m "${d_share[@]}")"
if [ "$peer" = 1 ]; then
    echo "serve/express ratio per run: ${ratios[*]}  median $(m "${ratios[@]}")"
fi
if [ "$grpc" = 1 ]; then
    echo "grpc/serve (HTTP) ratio per run: ${gratios[*]}  median $(m "${gratios[@]}")"
fi
[ "$tls" = 1 ] && echo "https/http ratio per run: ${tratios[*]}  median $(m "${tratios[@]}")"
[ "$h2" = 1 ] && echo "grpc over TLS/plain (h2load) ratio per run: ${htratios[*]}  median $(m "${htratios[@]}")"
echo "deny-flood/admitting ratio per run: ${dratios[*]}  median $(m "${dratios[@]}")"
if [ "$pipeline" -gt 0 ]; then
    printf "%-8s %10.0f   pipelined %s\n" "serve-p$pipeline" "$(m "${sp_rates[@]}")" "$pipeline"
    printf "%-8s %10.0f   pipelined %s, redis calls/request %s\n" "deny-p$pipeline" \
        "$(m "${dp_rates[@]}")" "$pipeline" "$(m "${dp_share[@]}")"
    echo "deny-flood/admitting ratio pipelined per run: ${dpratios[*]}  median $(m "${dpratios[@]}")"
fi
cpu="serve $(m "${s_cpu[@]}")"
[ "$grpc" = 1 ] && cpu="$cpu, grpc $(m "${g_cpu[@]}")"
[ "$tls" = 1 ] && cpu="$cpu, https $(m "${t_cpu[@]}")"
[ "$h2" = 1 ] && cpu="$cpu, grpc-h2 $(m "${h_cpu[@]}"), grpc-tls $(m "${ht_cpu[@]}")"
[ -n "${BASELINE:-}" ] && cpu="$cpu, before $(m "${b_cpu[@]}")"
[ "$peer" = 1 ] && cpu="$cpu, express $(m "${e_cpu[@]}")"
cpu="$cpu, deny flood $(m "${d_cpu[@]}")"
[ "$pipeline" -gt 0 ] && cpu="$cpu; pipelined: serve $(m "${sp_cpu[@]}"), deny flood $(m "${dp_cpu[@]}")"
echo "CPU per request (server + Redis, us, medians): $cpu"
