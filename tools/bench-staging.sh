#!/usr/bin/env bash
# What a staged change costs the check service: `serve --from-redis` on a private redis-server
# (tests/redis-fixture.sh), GET /v1/check over wrk on one fixed_window rule far above what a run
# spends (every decision admits in Redis), interleaved: with nothing staged, then with a
# changed candidate of that rule staged (each request decided twice, the candidate in shadow,
# one pipeline), then the stage discarded again. Prints each run, the medians and staged/plain.
#
#   tools/bench-staging.sh [BUILD_DIR]   env: RUNS=3 SECONDS_=4 CONNECTIONS=64 THREADS=2
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
cli=$build/app/sluice-cli
runs=${RUNS:-3}
duration=${SECONDS_:-4}
connections=${CONNECTIONS:-64}
threads=${THREADS:-2}
. "$here/tools/lib/servebench.sh"
servebench_start

rules() { # LIMIT BASED_ON
    printf '{"version": 1, %s"rules": [{"id": "api", "scope": "ip", "algorithm": "fixed_window", "limit": %s, "window": "1h"}]}\n' \
        "${2:+\"based_on\": $2, }" "$1"
}
rules 1000000000 >"$tmp/enforced.json"
"$cli" rules push "$tmp/enforced.json" --url "$url" >/dev/null
cat >"$tmp/load.lua" <<'LUA'
local requests = {}
local n = 0
init = function(args)
  for i = 0, 9999 do
    requests[i + 1] = wrk.format("GET", "/v1/check?rule=api&subject=s" .. i)
  end
end
request = function()
  n = n + 1
  return requests[(n % 10000) + 1]
end
LUA
"$cli" serve --url "$url" --from-redis --listen 127.0.0.1:0 --no-stats >"$tmp/server.out" \
    2>"$tmp/server.err" &
pid=$!
wait_listening

rate() {
    wrk -t"$threads" -c"$connections" -d"${duration}s" -s "$tmp/load.lua" "http://127.0.0.1:$port" |
        awk '/Requests\/sec/ {print $2}'
}
plain=() staged=()
for i in $(seq 1 "$runs"); do
    plain+=("$(rate)")
    version=$(redis-cli -u "$url" GET '{sluice}:rules:version')
    rules 999999999 "$version" >"$tmp/candidate.json"
    "$cli" rules push "$tmp/candidate.json" --url "$url" --stage >/dev/null
    sleep 0.5 # serve follows the store within a round trip; leave it a margin
    staged+=("$(rate)")
    "$cli" rules discard --url "$url" >/dev/null
    sleep 0.5
    echo "run $i: plain ${plain[-1]} req/s, staged ${staged[-1]} req/s"
done
p=$(printf '%s\n' "${plain[@]}" | median)
s=$(printf '%s\n' "${staged[@]}" | median)
echo "median: plain $p req/s, staged $s req/s, staged/plain $(awk -v s="$s" -v p="$p" 'BEGIN {printf "%.2f", s / p}')"
