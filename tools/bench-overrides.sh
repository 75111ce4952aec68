#!/usr/bin/env bash
# What per-subject overrides cost the check service, on one private redis-server
# (tests/redis-fixture.sh), interleaved runs of four loads of GET /v1/check over wrk:
#  - plain:   a fixed_window rule far above what a run spends (every decision admits in Redis);
#  - over:    the same rule with 1,000 exact-subject overrides and 10 CIDRs, none of which
#             matches the load's subjects: the price of the lookup on the common path;
#  - allowed: a rule whose glob override allows every subject of the load (answered without
#             Redis; redis_calls/req says so);
#  - deny:    100 subjects all denied already (limit 1 per hour, each spent first), answered by
#             the deny cache: what an allow override should at least match.
# It prints each run, then the medians, over/plain (CPU per request of serve and of serve +
# Redis, and the rate) and allowed/deny.
#
#   tools/bench-overrides.sh [BUILD_DIR]   env: RUNS=3 SECONDS_=5 CONNECTIONS=64 THREADS=2
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
cli=$build/app/sluice-cli
runs=${RUNS:-3}
duration=${SECONDS_:-5}
connections=${CONNECTIONS:-64}
threads=${THREADS:-2}
. "$here/tools/lib/servebench.sh"
servebench_start

python3 - "$tmp/rules.json" <<'PY'
import json, sys
rule = lambda id, prefix, limit=1000000000: {"id": id, "scope": "ip", "algorithm": "fixed_window",
    "limit": limit, "window": "1h", "key_prefix": prefix}
over = rule("over", "bench-over:")
over["overrides"] = ([{"subject": "10.%d.%d.%d" % (i // 65536, i // 256 % 256, i % 256),
                       "allow": True} for i in range(1000)] +
                     [{"cidr": "172.%d.0.0/16" % (16 + i), "deny": True} for i in range(10)])
allowed = rule("allowed", "bench-allowed:", 1)
allowed["overrides"] = [{"match": "s*", "allow": True}]
json.dump({"version": 1, "rules": [rule("plain", "bench-plain:"), over, allowed,
                                   rule("deny", "bench-deny:", 1)]}, open(sys.argv[1], "w"))
PY
subjects_lua() { # RULE COUNT
    cat <<LUA
local requests = {}
local n = 0
init = function(args)
  for i = 0, $2 - 1 do
    requests[i + 1] = wrk.format("GET", "/v1/check?rule=$1&subject=s" .. ((i * 7919) % $2))
  end
end
request = function()
  n = n + 1
  return requests[(n % $2) + 1]
end
LUA
}
for r in plain over allowed; do subjects_lua $r 10000 >"$tmp/$r.lua"; done
subjects_lua deny 100 >"$tmp/deny.lua"

start_serve() {
    rm -f "$tmp/server.out"
    "$cli" serve --url "$url" --rules "$tmp/rules.json" --listen 127.0.0.1:0 --no-stats \
        >"$tmp/server.out" 2>"$tmp/server.err" &
    pid=$!
    wait_listening
}
load() { # SCRIPT: sets rate, total, cpu_server, cpu_total (µs per request), share
    local s0 r0 s1 r1 c0 c1
    s0=$(ticks "$pid") r0=$(ticks "$rpid") c0=$(redis_calls)
    wrk -t"$threads" -c"$connections" -d"${duration}s" -s "$1" "http://127.0.0.1:$port" >"$tmp/wrk.out"
    s1=$(ticks "$pid") r1=$(ticks "$rpid") c1=$(redis_calls)
    rate=$(awk '/^Requests\/sec:/ {print $2}' "$tmp/wrk.out")
    total=$(awk '/requests in/ {print $1}' "$tmp/wrk.out")
    cpu_server=$(awk -v t="$((s1 - s0))" -v n="$total" -v hz="$hz" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
    cpu_total=$(awk -v t="$((s1 - s0 + r1 - r0))" -v n="$total" -v hz="$hz" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
    share=$(awk -v c="$((c1 - c0))" -v n="$total" 'BEGIN {printf "%.3f", c / n}')
}

start_serve
for i in $(seq 0 99); do
    curl -s -o /dev/null "http://127.0.0.1:$port/v1/check?rule=deny&subject=s$i"
done
printf "%-8s %-4s %10s %8s %8s %s\n" load run req_per_s cpu_us +redis redis_calls/req
declare -A rates cpus totals
for run in $(seq 1 "$runs"); do
    for name in plain over allowed deny; do
        load "$tmp/$name.lua"
        printf "%-8s %-4s %10.0f %8s %8s %s\n" "$name" "$run" "$rate" "$cpu_server" "$cpu_total" "$share"
        rates[$name]+="$rate "
        cpus[$name]+="$cpu_server "
        totals[$name]+="$cpu_total "
    done
done
stop_server
m() { echo $1 | tr ' ' '\n' | grep . | median; }
printf "\nmedians:"
for name in plain over allowed deny; do
    printf " %s %.0f req/s (%s µs, +redis %s µs);" "$name" "$(m "${rates[$name]}")" \
        "$(m "${cpus[$name]}")" "$(m "${totals[$name]}")"
done
echo
awk -v a="$(m "${cpus[over]}")" -v b="$(m "${cpus[plain]}")" -v c="$(m "${totals[over]}")" \
    -v d="$(m "${totals[plain]}")" -v e="$(m "${rates[over]}")" -v f="$(m "${rates[plain]}")" \
    'BEGIN {printf "over/plain: serve CPU per request %.3f, serve + Redis %.3f, rate %.3f\n", a / b, c / d, e / f}'
awk -v a="$(m "${rates[allowed]}")" -v b="$(m "${rates[deny]}")" \
    'BEGIN {printf "allowed/deny (rate of an allow override / of the deny cache): %.2f\n", a / b}'
