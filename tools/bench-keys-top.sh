#!/usr/bin/env bash
# The live watch of other limiters (`sluice-cli keys top`, the Monitor's "Other limiters": the
# same core/keys/keywatcher) on a private redis-server holding N keys of several layouts:
# the Redis calls per second it costs (the server's total_commands_processed over the run,
# the watcher alone talking to it), its round trips, how long one sample takes, and the
# peak RSS of the process. Printed figures, not a test.
#
#   bash tools/bench-keys-top.sh               (after a build: BUILD_DIR, default ./build)
#   N=200000 BUDGET=20000 bash tools/bench-keys-top.sh
#
# The keyspace: N keys, planted by a Lua loop inside Redis (100,000 a call), in turn:
# rate-limiter-flexible counters (rlflx:u<i>), @fastify/rate-limit counters
# (fastify-rate-limit-c<i>), Spring aspect counters (rate_limit:x<i>), Spring Cloud Gateway
# tokens (request_rate_limiter.{g<i>}.tokens) and @nestjs/throttler blocks
# ({<md5>:default}:blocked), every one with a TTL; a rule file adopts the three counters at a
# limit of 100. The watch: `keys top --interval INTERVAL --json` (two samples), at the scan
# budget BUDGET keys/s (default 0: none, as fast as the server answers; the walk of each glob
# counts against a budget). The watcher keeps at most 1,000,000 keys a sample (the console's
# panel 200,000).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD_DIR:-$root/build}
cli=$build/app/sluice-cli
n=${N:-1000000}
budget=${BUDGET:-0}
interval=${INTERVAL:-2}
[ -x "$cli" ] || { echo "no $cli: build first (cmake --build $build)" >&2; exit 1; }

work=$(mktemp -d)
trap 'bash "$root/tests/redis-fixture.sh" stop "$work/redis" >/dev/null 2>&1; rm -rf "$work"' EXIT
bash tests/redis-fixture.sh start "$work/redis" >/dev/null
url=$(cat "$work/redis/url")
port=${url##*:}
rc() { redis-cli -p "$port" "$@"; }

plant='
for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do
  local kind = i % 5
  if kind == 0 then
    redis.call("SET", "rlflx:u" .. i, tostring(i % 150), "EX", 3000)
  elseif kind == 1 then
    redis.call("SET", "fastify-rate-limit-c" .. i, tostring(i % 120), "PX", 3000000)
  elseif kind == 2 then
    redis.call("SET", "rate_limit:x" .. i, tostring(i % 110), "EX", 3000)
  elseif kind == 3 then
    redis.call("SET", "request_rate_limiter.{g" .. i .. "}.tokens", tostring(i % 3), "EX", 3000)
  else
    redis.call("SET", "{" .. string.format("%032x", i) .. ":default}:blocked", "1", "PX", 3000000)
  end
end
return 0'
for ((from = 0; from < n; from += 100000)); do
    to=$((from + 99999 < n - 1 ? from + 99999 : n - 1))
    rc EVAL "$plant" 0 "$from" "$to" >/dev/null
done
cat >"$work/rules.json" <<'JSON'
{ "version": 1, "rules": [
  { "id": "rlflx", "scope": "user", "key_prefix": "rlflx:", "algorithm": "fixed_window",
    "limit": 100, "window": "1h", "adopt": { "match": "rlflx:*", "layout": "rlflx" } },
  { "id": "fastify", "scope": "user", "key_prefix": "fastify-rate-limit-",
    "algorithm": "fixed_window", "limit": 100, "window": "1h",
    "adopt": { "match": "fastify-rate-limit-*", "layout": "fastify_counter" } },
  { "id": "aspect", "scope": "user", "algorithm": "fixed_window", "limit": 100, "window": "1h",
    "adopt": { "match": "rate_limit:x*", "layout": "string_counter" } } ] }
JSON
echo "keyspace: $(rc DBSIZE) keys of 5 layouts; machine load: $(cut -d' ' -f1-3 /proc/loadavg)"
before=$(rc INFO stats | tr -d '\r' | awk -F: '/^total_commands_processed/ {print $2}')
start=$(date +%s.%N)
/usr/bin/time -f '%M' -o "$work/rss" "$cli" keys top --url "$url" --rules "$work/rules.json" \
    --interval "$interval" --scan-budget "$budget" --json >"$work/top.json"
end=$(date +%s.%N)
after=$(rc INFO stats | tr -d '\r' | awk -F: '/^total_commands_processed/ {print $2}')
# The INFO of `before` is one of the commands counted; so is this one's own: minus 2.
python3 - "$work/top.json" "$before" "$after" "$start" "$end" "$(cat "$work/rss")" <<'PY'
import json, sys
top = json.load(open(sys.argv[1]))
calls = int(sys.argv[3]) - int(sys.argv[2]) - 1
secs = float(sys.argv[5]) - float(sys.argv[4])
print(f"keys top, two samples: {secs:.1f} s in all, {top['resolution']} "
      f"(asked --interval; a sample that takes longer sets the resolution)")
print(f"  watched {top['watched']:,} keys, {top['limited']:,} at or over the limit, "
      f"{top['near']:,} near; complete {top['complete']}, truncated {top['truncated']}")
print(f"  Redis commands: {calls:,} ({calls / secs:,.0f}/s over the run); "
      f"round trips of one sample: {top['round_trips']:,}")
print(f"  peak RSS of sluice-cli: {int(sys.argv[6]) / 1024:.0f} MB")
PY
