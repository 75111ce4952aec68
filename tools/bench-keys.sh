#!/usr/bin/env bash
# `sluice-cli keys` against the C kit (tools/bench-keys-kit.c, hiredis: SCAN COUNT 1000, then
# pipelined TYPE and PTTL per page; in `state` mode also the value reads Sluice makes, with the
# same commands) on a private redis-server holding N limiter keys, in one run: keys/s of each
# and the ratio Sluice / kit, medians of ROUNDS interleaved rounds (kit, Sluice, kit, ...: the
# machine's load drifts, each pair shares it). Printed figures, not a test.
#
#   bash tools/bench-keys.sh                 (after a build: BUILD_DIR, default ./build)
#   N=200000 ROUNDS=5 bash tools/bench-keys.sh
#
# The keyspace: N keys under rate_limit:, planted by a Lua loop inside Redis (100,000 keys a
# call): a fixed_window hash, a gcra string, a sliding_log sorted set of 2 entries and a
# token_bucket hash in turn, 1% of them without a TTL. The four listings, each against the
# kit's pass that reads what it reads (all with --scan-budget 0 --no-backoff: the kit has no
# budget either):
#   text      keys --match '*'               (no rules: TYPE + PTTL, the table)   vs kit ttl
#   json      keys --match '*' --json                                              vs kit ttl
#   no-ttl    keys --match '*' --no-ttl      (the 1% printed)                      vs kit ttl
#   states    keys --rules FILE --json       (decoded states: the layouts' reads)  vs kit state
# Also printed: Sluice's peak RSS and the CPU time of each side (user+sys of the client, and of
# redis-server from INFO cpu).
# Then the console's Keys page, offscreen, with a profile of no scan budget (tst_keyspage
# unpacedScanFigures, built with the tests): every key with '*' (vs kit ttl), then decoded with
# the rules (vs kit state), each round between two kit passes, with the longest gap of the GUI
# thread (a 5 ms timer's ticks) during each scan. PAGE=0 skips it.
# Last the audit, on a keyspace of its own: N keys of 10 layouts in turn (Sluice's fixed window,
# GCRA, sliding log and token bucket; rate-limit-redis, rate-limiter-flexible and
# @nestjs/throttler counters, Spring Cloud Gateway's tokens, a sliding-window log of ms
# timestamps, a Bucket4j state of 120 bytes), 1% without TTL:
#   audit     keys audit --match '*' --json  (every key's layout from its name, type and value
#             shape; a key's value read beside its PTTL where its type can be told before it
#             is read, else after its TYPE, one page behind, in the scan's round trips) vs kit ttl
# with the Redis commands per key of each side (INFO commandstats) and the client's round
# trips. Then the live watch on that keyspace (keys top, the Monitor's Other limiters' core):
# its Redis calls per second and peak RSS, and the console's Monitor watching it (its Other
# limiters tab, offscreen: tst_foreignwatch watchFigures) with its peak RSS. AUDIT=0,
# LISTINGS=0, PAGE=0 and WATCH=0 skip those parts.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD_DIR:-$root/build}
cli=$build/app/sluice-cli
n=${N:-1000000}
rounds=${ROUNDS:-3}
[ -x "$cli" ] || { echo "no $cli: build first (cmake --build $build)" >&2; exit 1; }

work=$(mktemp -d)
trap 'bash "$root/tests/redis-fixture.sh" stop "$work/redis" >/dev/null 2>&1; rm -rf "$work"' EXIT
kit=$work/bench-keys-kit
# shellcheck disable=SC2046 # pkg-config's flags are words
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic -Werror \
    "$root/tools/bench-keys-kit.c" $(pkg-config --cflags --libs hiredis) -o "$kit"
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
# The kit's reads per key prefix, as Sluice's reader chooses them by rule (keyreader.cpp):
# hash fields (statedecoder.cpp hashFields), GETRANGE up to the 256-byte cap, the log's window.
layouts=(256 'rate_limit:fw:=h:s,c' 'rate_limit:g:=s' 'rate_limit:sl:=z:3600000000'
    'rate_limit:tb:=h:l,t')

# The keyspace, ARGV[3] layouts in turn, each key as its library writes it (layouttable.cpp):
# 4 for the listings (Sluice's fixed window, GCRA, sliding log and token bucket), 10 for the
# audit (and rate-limit-redis, rate-limiter-flexible and @nestjs/throttler counters, Spring
# Cloud Gateway's tokens, a sliding-window log of ms timestamps, a Bucket4j state).
plant='
local t = redis.call("TIME")
local us = tonumber(t[1]) * 1000000 + tonumber(t[2])
local now = string.format("%.0f", us)
local ms = string.format("%.0f", math.floor(us / 1000))
local bucket = "\0\0\0\1" .. string.rep("b", 116)
for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do
  local kind = i % tonumber(ARGV[3])
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
  elseif kind == 3 then
    k = "rate_limit:tb:{user" .. i .. "}"
    redis.call("HSET", k, "l", "100", "t", now)
  elseif kind == 4 then
    k = "rl:10." .. i
    redis.call("SET", k, "3")
  elseif kind == 5 then
    k = "rlflx:10." .. i
    redis.call("SET", k, "2")
  elseif kind == 6 then
    k = "{" .. redis.sha1hex(tostring(i)) .. ":default}:hits"
    redis.call("SET", k, "5")
  elseif kind == 7 then
    k = "request_rate_limiter.{10." .. i .. "}.tokens"
    redis.call("SET", k, "9")
  elseif kind == 8 then
    k = "sw:10." .. i
    redis.call("ZADD", k, ms, ms, ms, ms .. "-1")
  else
    k = "bucket:10." .. i
    redis.call("SET", k, bucket)
  end
  if i % 100 ~= 0 then redis.call("PEXPIRE", k, 3000000) end
end
return 1'
# plant LAYOUTS: N keys, 100,000 a call.
plant() {
    rc FLUSHALL >/dev/null
    echo "planting $n keys ..."
    for ((from = 0; from < n; from += 100000)); do
        to=$((from + 100000 < n ? from + 100000 - 1 : n - 1))
        rc EVAL "$plant" 0 "$from" "$to" "$1" >/dev/null
    done
    echo "redis-server $(rc INFO server | grep -o 'redis_version:[0-9.]*' | cut -d: -f2) on $url," \
        "$(rc DBSIZE) keys, $(rc INFO memory | grep -o 'used_memory_human:[^[:space:]]*' | cut -d: -f2)," \
        "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
}

redis_cpu() { rc INFO cpu | grep -E '^used_cpu_(user|sys):' | cut -d: -f2 | tr -d '\r' | paste -sd+ | bc; }
# timed NAME CMD...: runs CMD (stdout to $work/out.NAME), appends "ms client_cpu_s redis_cpu_s
# rss_kb" to $work/t.NAME.
timed() {
    local name=$1
    shift
    local r0 r1 start end
    r0=$(redis_cpu)
    start=$(date +%s%N)
    /usr/bin/time -f '%U %S %M' -o "$work/time" "$@" >"$work/out.$name"
    end=$(date +%s%N)
    r1=$(redis_cpu)
    read -r user sys rss <"$work/time"
    echo "$(((end - start) / 1000000)) $(echo "$user + $sys" | bc) $(echo "$r1 - $r0" | bc) $rss" \
        >>"$work/t.$name"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
col() { cut -d' ' -f"$2" "$work/t.$1" | median; }
# table PAIR...: one row per "sluice:kit" pair of timed names.
table() {
    printf '%-8s %10s %10s %7s %16s %16s %7s\n' listing "kit keys/s" "keys/s" ratio \
        "kit cpu s (c/r)" "cpu s (c/r)" "RSS MB"
    for pair in "$@"; do
        s=${pair%%:*}
        k=${pair##*:}
        kms=$(col "$k" 1)
        sms=$(col "$s" 1)
        printf '%-8s %10.0f %10.0f %7.2f %16s %16s %7.0f\n' "$s" \
            "$(echo "$n * 1000 / $kms" | bc -l)" "$(echo "$n * 1000 / $sms" | bc -l)" \
            "$(echo "$kms / $sms" | bc -l)" "$(printf '%.2f / %.2f' "$(col "$k" 2)" "$(col "$k" 3)")" \
            "$(printf '%.2f / %.2f' "$(col "$s" 2)" "$(col "$s" 3)")" "$(echo "$(col "$s" 4) / 1024" | bc -l)"
    done
    echo "(c/r: CPU seconds of the client / of redis-server, medians)"
}
flags=(--scan-budget 0 --no-backoff)

if [ "${LISTINGS:-1}" = 1 ]; then
    plant 4
    for ((round = 1; round <= rounds; ++round)); do
        echo "round $round of $rounds (load $(cut -d' ' -f1 /proc/loadavg)) ..."
        timed kit "$kit" "$port" '*' ttl
        timed text "$cli" keys --url "$url" --match '*' "${flags[@]}"
        timed kit "$kit" "$port" '*' ttl
        timed json "$cli" keys --url "$url" --match '*' "${flags[@]}" --json
        timed kit "$kit" "$port" '*' ttl
        timed no-ttl "$cli" keys --url "$url" --match '*' "${flags[@]}" --no-ttl
        timed kitstate "$kit" "$port" 'rate_limit:*' state "${layouts[@]}"
        timed states "$cli" keys --url "$url" --rules "$work/rules.json" "${flags[@]}" --json
        timed kitstate "$kit" "$port" 'rate_limit:*' state "${layouts[@]}"
    done
    grep -q "^$n keys" "$work/out.kit" || { echo "the kit did not list $n keys" >&2; exit 1; }
    [ "$(grep -c '"key":' "$work/out.states")" -eq "$n" ] || { echo "states: not $n rows" >&2; exit 1; }
    [ "$(grep -c '"key":' "$work/out.json")" -eq "$n" ] || { echo "json: not $n rows" >&2; exit 1; }
    echo
    echo "$n keys, medians of $rounds interleaved rounds (the kit's of all its runs: 3 and 2 a round):"
    table text:kit json:kit no-ttl:kit states:kitstate
fi

pagetest=$build/tests/tst_keyspage
if [ "${PAGE:-1}" = 1 ]; then
    [ "${LISTINGS:-1}" = 1 ] || plant 4
    [ -x "$pagetest" ] || { echo "no $pagetest: the Keys page's figures need the tests built" >&2; exit 1; }
    echo
    echo "the Keys page (offscreen, profile scan budget: no limit), $rounds rounds between kit passes ..."
    : >"$work/page.kit" && : >"$work/page.kitstate" && : >"$work/page.plain" && : >"$work/page.states"
    for ((round = 1; round <= rounds; ++round)); do
        timed pkit "$kit" "$port" '*' ttl
        timed pkitstate "$kit" "$port" 'rate_limit:*' state "${layouts[@]}"
        QT_QPA_PLATFORM=offscreen SLUICE_TEST_REDIS_URL=$url SLUICE_BENCH_KEYS_URL=$url \
            SLUICE_BENCH_KEYS_RULES=$work/rules.json SLUICE_BENCH_KEYS_N=$n \
            "$pagetest" unpacedScanFigures >"$work/page.out" 2>&1 ||
            { cat "$work/page.out" >&2; exit 1; }
        grep '^page figures:' "$work/page.out" | sed "s/^/round $round: /"
        timed pkit "$kit" "$port" '*' ttl
        timed pkitstate "$kit" "$port" 'rate_limit:*' state "${layouts[@]}"
        # "page figures: plain 1000000 keys in 5123 ms, 195199 keys/s, longest GUI gap 12 ms, 0 back-offs"
        # (not the "gaps over 50 ms" lines, which start the same)
        awk '/^page figures: plain [0-9]/ {print $7, $14}' "$work/page.out" >>"$work/page.plain"
        awk '/^page figures: states [0-9]/ {print $7, $14}' "$work/page.out" >>"$work/page.states"
    done
    printf '\n%-8s %10s %10s %7s %16s\n' page "kit keys/s" "keys/s" ratio "GUI gap ms (max)"
    for pair in plain:pkit states:pkitstate; do
        s=${pair%%:*}
        k=${pair##*:}
        kms=$(col "$k" 1)
        pms=$(cut -d' ' -f1 "$work/page.$s" | median)
        gap=$(cut -d' ' -f2 "$work/page.$s" | sort -n | tail -1)
        printf '%-8s %10.0f %10.0f %7.2f %16s\n' "$s" "$(echo "$n * 1000 / $kms" | bc -l)" \
            "$(echo "$n * 1000 / $pms" | bc -l)" "$(echo "$kms / $pms" | bc -l)" "$gap"
    done
    echo "(medians; the kit's of its runs in these rounds; plain vs the kit's TYPE + PTTL pass, states vs its pass with the value reads)"
fi

[ "${AUDIT:-1}" = 1 ] || exit 0
echo
plant 10
# commands NAME: Redis's commands since the last CONFIG RESETSTAT, per key: "TYPE 1.00, ...".
commands() {
    rc INFO commandstats | tr -d '\r' | awk -F'[_:=,]' -v n="$n" '/^cmdstat_/ {
        if ($2 ~ /^(config|info|command|dbsize|client|ping|script)/) next
        calls += $4; usec += $6; line = line sprintf("%s %.2f, ", toupper($2), $4 / n) }
        END { printf "%s(%.2f commands, %.2f us of Redis command time a key)\n", line, calls / n, usec / n }'
}
for ((round = 1; round <= rounds; ++round)); do
    echo "audit round $round of $rounds (load $(cut -d' ' -f1 /proc/loadavg)) ..."
    rc CONFIG RESETSTAT >/dev/null
    timed akit "$kit" "$port" '*' ttl
    [ "$round" = 1 ] && echo "kit:   $(commands)" >"$work/commands"
    rc CONFIG RESETSTAT >/dev/null
    timed audit "$cli" keys audit --url "$url" --match '*' "${flags[@]}" --json
    [ "$round" = 1 ] && echo "audit: $(commands)" >>"$work/commands"
    timed akit "$kit" "$port" '*' ttl
done
grep -q "^$n keys" "$work/out.akit" || { echo "the kit did not list $n keys" >&2; exit 1; }
[ "$(grep -c '"key":.*"layout":"' "$work/out.audit")" -eq "$n" ] || { echo "audit: not $n limiter keys" >&2; exit 1; }
[ "$(grep -o '"layout":"[a-z0-9_]*"' "$work/out.audit" | sort -u | wc -l)" -eq 10 ] ||
    { echo "audit: not 10 layouts" >&2; exit 1; }
"$cli" keys audit --url "$url" --match '*' "${flags[@]}" | tail -n 3 | grep 'round trips' >"$work/trips"
echo
echo "$n keys of 10 layouts, medians of $rounds interleaved rounds (the kit's of its 2 runs a round):"
table audit:akit
cat "$work/commands"
echo "the audit's scan (text run): $(cat "$work/trips"); the kit: 2 round trips a SCAN page of COUNT 1000"
echo "(load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)"

# The live watch (keys top: the core of the Monitor's Other limiters tab) on the audit's
# keyspace: three adopted globs (rate-limit-redis and rate-limiter-flexible counters, the
# sliding-window logs) and the layouts whose key says the limit, one report (two samples: one
# SCAN walk each, the six globs matched on the keys it lists) with the default scan budget
# (20,000 keys/s; no back-off, which would follow the machine's load).
if [ "${WATCH:-1}" = 1 ]; then
    cat >"$work/adopt.json" <<'JSON'
{ "version": 1, "rules": [
  { "id": "rl", "scope": "ip", "algorithm": "fixed_window", "limit": 5, "window": "1h",
    "key_prefix": "rl:", "adopt": { "match": "rl:*", "layout": "rate_limit_redis" } },
  { "id": "rlflx", "scope": "ip", "algorithm": "fixed_window", "limit": 5, "window": "1h",
    "key_prefix": "rlflx:", "adopt": { "match": "rlflx:*", "layout": "rlflx" } },
  { "id": "sw", "scope": "ip", "algorithm": "fixed_window", "limit": 5, "window": "1h",
    "key_prefix": "sw:", "adopt": { "match": "sw:*", "layout": "sorted_set_log" } } ] }
JSON
    echo
    echo "the live watch: keys top --rules (3 adopted globs) --interval 2 --json --no-backoff, one report, default scan budget ..."
    rc CONFIG RESETSTAT >/dev/null
    : >"$work/t.watch"
    timed watch "$cli" keys top --url "$url" --rules "$work/adopt.json" --interval 2 --json --no-backoff
    read -r wms wcpu wrcpu wrss <"$work/t.watch"
    wcalls=$(rc INFO commandstats | tr -d '\r' | awk -F'[_:=,]' '/^cmdstat_/ {
        if ($2 ~ /^(config|info)/) next; calls += $4 } END { print calls }')
    watched=$(grep -o '"watched":[0-9]*' "$work/out.watch" | head -1 | cut -d: -f2)
    echo "watch:  $watched keys watched of $n, two samples in $((wms / 1000)) s:" \
        "$(echo "$wcalls * 1000 / $wms" | bc) Redis calls/s ($wcalls calls, SCAN $(rc INFO commandstats |
            tr -d '\r' | grep -o 'cmdstat_scan:calls=[0-9]*' | cut -d= -f2) of them)," \
        "Redis CPU $(printf '%.2f' "$wrcpu") s, client CPU $(printf '%.2f' "$wcpu") s," \
        "peak RSS $((wrss / 1024)) MB (sluice-cli's)"
    # The console's Monitor, Other limiters tab (offscreen), on the same keyspace and rules
    # (tst_foreignwatch watchFigures, built with the tests): two samples, its peak RSS.
    watchtest=$build/tests/tst_foreignwatch
    if [ -x "$watchtest" ]; then
        echo "the console's Other limiters tab (offscreen, default scan budget) ..."
        QT_QPA_PLATFORM=offscreen SLUICE_TEST_REDIS_URL=$url SLUICE_BENCH_KEYS_URL=$url \
            SLUICE_BENCH_KEYS_RULES=$work/adopt.json "$watchtest" watchFigures >"$work/cwatch.out" 2>&1 ||
            { cat "$work/cwatch.out" >&2; exit 1; }
        grep '^console watch:' "$work/cwatch.out"
    else
        echo "no $watchtest: the console's watch figures need the tests built"
    fi
fi
