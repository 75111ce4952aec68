#!/usr/bin/env bash
# Scan throughput of `sluice-cli keys` (core/keys: KeyScanner + KeyReader) on a private
# redis-server holding N limiter keys: keys/s, SCAN pages, round trips, peak memory of the CLI.
# Printed figures, not a test.
#
#   bash tools/bench-keys.sh                 (after a build: BUILD_DIR, default ./build)
#   N=200000 bash tools/bench-keys.sh
#
# The keyspace: N keys under rate_limit:, planted by a Lua loop inside Redis (100,000 keys a
# call): a fixed_window hash, a gcra string, a sliding_log sorted set of 2 entries and a
# token_bucket hash in turn, 1% of them without a TTL. Three runs on the same keyspace:
#   script  the default read (the read script, EVALSHA'd for 100 keys at a time), printing
#           only the keys without TTL (--no-ttl): the cost of the scan itself
#   plain   the same, as an ACL user without @scripting: the plain-command fallback (TYPE,
#           PTTL and the layout's reads per key)
#   table   the default read printing the whole table: what a user waits for
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD_DIR:-$root/build}
cli=$build/app/sluice-cli
n=${N:-1000000}
[ -x "$cli" ] || { echo "no $cli: build first (cmake --build $build)" >&2; exit 1; }

work=$(mktemp -d)
trap 'bash "$root/tests/redis-fixture.sh" stop "$work/redis" >/dev/null 2>&1; rm -rf "$work"' EXIT
bash tests/redis-fixture.sh start "$work/redis" >/dev/null
url=$(cat "$work/redis/url")
port=${url##*:}
rc() { redis-cli -p "$port" "$@"; }

cat >"$work/rules.json" <<'JSON'
{ "version": 1, "rules": [
  { "id": "fw", "scope": "ip", "algorithm": "fixed_window", "limit": 3, "window": "1h" },
  { "id": "g", "scope": "ip", "algorithm": "gcra", "rate": "1/m", "burst": 60 },
  { "id": "sl", "scope": "ip", "algorithm": "sliding_log", "limit": 10, "window": "1h" },
  { "id": "tb", "scope": "user", "algorithm": "token_bucket", "rate": "1/m", "burst": 60 } ] }
JSON

plant='
local t = redis.call("TIME")
local now = string.format("%.0f", tonumber(t[1]) * 1000000 + tonumber(t[2]))
for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do
  local kind = i % 4
  local k
  if kind == 0 then
    k = "rate_limit:fw:{10." .. i .. "}"
    redis.call("HSET", k, "s", now, "c", "1")
  elseif kind == 1 then
    k = "rate_limit:g:{10." .. i .. "}"
    redis.call("SET", k, now)
  elseif kind == 2 then
    k = "rate_limit:sl:{10." .. i .. "}"
    redis.call("ZADD", k, now, now .. ":0", now, now .. ":1")
  else
    k = "rate_limit:tb:{user" .. i .. "}"
    redis.call("HSET", k, "l", "100", "t", now)
  end
  if i % 100 ~= 0 then redis.call("PEXPIRE", k, 3000000) end
end
return 1'
echo "planting $n keys ..."
for ((from = 0; from < n; from += 100000)); do
    to=$((from + 100000 < n ? from + 100000 - 1 : n - 1))
    rc EVAL "$plant" 0 "$from" "$to" >/dev/null
done
echo "redis-server $(rc INFO server | grep -o 'redis_version:[0-9.]*' | cut -d: -f2) on $url," \
    "$(rc DBSIZE) keys, $(rc INFO memory | grep -o 'used_memory_human:[^[:space:]]*' | cut -d: -f2)"
rc ACL SETUSER bench-reader on '>pw' '~*' '+@all' '-@scripting' >/dev/null

run() { # name url [extra flags]
    local name=$1 u=$2
    shift 2
    rc CONFIG RESETSTAT >/dev/null
    local start end
    start=$(date +%s%N)
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f '%M' -o "$work/rss" "$cli" keys --url "$u" --rules "$work/rules.json" \
            "$@" >"$work/out.$name"
    else
        echo 0 >"$work/rss"
        "$cli" keys --url "$u" --rules "$work/rules.json" "$@" >"$work/out.$name"
    fi
    end=$(date +%s%N)
    local ms=$(((end - start) / 1000000))
    local summary
    summary=$(grep -E '^[0-9,]+ (keys|never expire)' "$work/out.$name" | tail -1)
    local scans
    scans=$(rc INFO commandstats | grep -o 'cmdstat_scan:calls=[0-9]*' | cut -d= -f2)
    printf '%-7s %9s keys/s  %6s ms  SCAN calls %-6s  peak RSS %5s MB  | %s\n' "$name" \
        "$((n * 1000 / (ms > 0 ? ms : 1)))" "$ms" "$scans" "$(($(cat "$work/rss") / 1024))" \
        "$summary"
}
run script "$url" --no-ttl
run plain "redis://bench-reader:pw@127.0.0.1:$port" --no-ttl
run table "$url"
echo
grep -E 'never expire' "$work/out.table" | head -1
