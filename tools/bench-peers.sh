#!/usr/bin/env bash
# Our scripts beside the peer scripts we can run here, under the same redis-benchmark, on the
# same private redis-server, in the same run: pipelined EVALSHA throughput and the ratio
# ours / peer, and Redis' own CPU per call (used_cpu_user + used_cpu_sys from INFO cpu, around
# each run) and the ratio peer CPU / ours (so > 1 is ours cheaper), each the median of ROUNDS
# interleaved pairs (default 7). On a shared VM the throughput ratio also carries the
# client's share of the CPU; the CPU ratio is the one for "on Redis CPU".
#
#   bash tools/bench-peers.sh            (after bash tools/dev.sh test or run has built once)
#   ROUNDS=9 ALGS=fixed_window bash tools/bench-peers.sh     (some of the six, more pairs)
#
# Peers come from the npm registry into $BUILD_DIR/peers (installed only when missing); their
# Lua is read from the installed packages at run time, never copied into this repository:
#   fixed_window     rate-limiter-flexible RateLimiterRedis (SET NX EX, INCRBY, PTTL)
#   sliding_counter  @upstash/ratelimit slidingWindow (two counters, caller's clock)
#   token_bucket     @upstash/ratelimit tokenBucket (hash, caller's clock)
#   gcra             redis-gcra (Losant) gcra.lua (string TAT, caller's clock)
#   leaky_bucket     redis-gcra too: GCRA is the leaky bucket as a meter, the nearest peer
#   sliding_log      no Lua peer on npm that we could run; compared with nothing
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD_DIR:-$root/build}
rounds=${ROUNDS:-7}
requests=${REQUESTS:-200000}
peers=$build/peers

command -v redis-benchmark >/dev/null || { echo "redis-benchmark missing: bash tools/dev.sh test first" >&2; exit 1; }
if ! command -v npm >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi
if [ ! -f "$peers/node_modules/redis-gcra/lib/gcra.lua" ]; then
    mkdir -p "$peers"
    npm install --silent --no-audit --no-fund --prefix "$peers" \
        rate-limiter-flexible@11 @upstash/ratelimit@2 redis-gcra@0.3 >/dev/null
fi
mkdir -p "$peers/lua"
# Template literals in the JS sources: take the text between the backticks, as JS would.
node - "$peers" <<'JS'
const fs = require('fs');
const dir = process.argv[2];
const grab = (file, name) => {
  const src = fs.readFileSync(file, 'utf8');
  const m = src.match(new RegExp(name + ' = `([\\s\\S]*?)`;'));
  if (!m) throw new Error(name + ' not found in ' + file);
  // Backslash-newline is a line continuation in a template literal. Upstash's scripts open
  // with '#!lua flags=allow-key-locking', a flag Redis 7.0 refuses: drop that line (it only
  // relaxes locking on newer servers).
  return m[1].replace(/\\\n/g, '').replace(/^#!lua[^\n]*\n/, '');
};
const up = require.resolve('@upstash/ratelimit', { paths: [dir] }).replace(/[^/]*$/, 'index.js');
fs.writeFileSync(dir + '/lua/rlf_fixed.lua',
  grab(dir + '/node_modules/rate-limiter-flexible/lib/RateLimiterRedis.js', 'incrTtlLuaScript'));
fs.writeFileSync(dir + '/lua/upstash_sliding.lua', grab(up, 'slidingWindowLimitScript'));
fs.writeFileSync(dir + '/lua/upstash_token.lua', grab(up, 'tokenBucketLimitScript'));
fs.copyFileSync(dir + '/node_modules/redis-gcra/lib/gcra.lua', dir + '/lua/redis_gcra.lua');
JS

fixture=$(mktemp -d)
trap 'bash "$root/tests/redis-fixture.sh" stop "$fixture" >/dev/null; rm -rf "$fixture"' EXIT
bash "$root/tests/redis-fixture.sh" start "$fixture" >/dev/null
port=$(sed 's/.*://' "$fixture/url")
load() {
    local sha
    sha=$(redis-cli -p "$port" SCRIPT LOAD "$(cat "$1")")
    [[ $sha =~ ^[0-9a-f]{40}$ ]] || { echo "SCRIPT LOAD $1 failed: $sha" >&2; exit 1; }
    echo "$sha"
}
cpu() { # Redis' CPU seconds so far (user + sys)
    redis-cli -p "$port" INFO cpu | awk -F: '/^used_cpu_(user|sys):/ {s += $2} END {printf "%.6f", s}'
}
rps() { # redis-benchmark ... -> "requests per second" "Redis CPU us per call"
    local before after r
    before=$(cpu)
    r=$(redis-benchmark -p "$port" -c 1 -P 64 -n "$requests" -r 10000 --csv "$@" | tail -n 1 | cut -d, -f2 | tr -d '"')
    after=$(cpu)
    echo "$r $(awk -v a="$before" -v b="$after" -v n="$requests" 'BEGIN {printf "%.3f", (b - a) * 1e6 / n}')"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
now_ms=$(($(date +%s) * 1000))
big=1000000000

declare -A ours_args peer_sha peer_args peer_name
ours_args[fixed_window]="$big 60000000 1"
ours_args[sliding_log]="$big 1000000 1"
ours_args[sliding_counter]="1000000 60000000 1"   # 2 x limit x window must stay below 2^53
ours_args[token_bucket]="$big 1000000 $big 1"
ours_args[leaky_bucket]="$big 1000000 $big 1"
ours_args[gcra]="$big 1000000 $big 1"
rlf=$(load "$peers/lua/rlf_fixed.lua")
ups=$(load "$peers/lua/upstash_sliding.lua")
upt=$(load "$peers/lua/upstash_token.lua")
gcr=$(load "$peers/lua/redis_gcra.lua")
peer_name[fixed_window]="rate-limiter-flexible"; peer_sha[fixed_window]=$rlf
peer_args[fixed_window]="1 peer:rlf:{__rand_int__} 1 60"
peer_name[sliding_counter]="upstash slidingWindow"; peer_sha[sliding_counter]=$ups
peer_args[sliding_counter]="2 peer:ups:{__rand_int__}:c peer:ups:{__rand_int__}:p $big $now_ms 60000 1"
peer_name[token_bucket]="upstash tokenBucket"; peer_sha[token_bucket]=$upt
peer_args[token_bucket]="1 peer:upt:{__rand_int__} $big 1000 $big $now_ms 1"
peer_name[gcra]="redis-gcra"; peer_sha[gcra]=$gcr
# now (ms), burst, rate per period, period (ms), cost: 1000 per second, a million burst. With a
# sub-millisecond emission interval its TAT (a float in ms, stored with 14 digits) no longer
# moves and it fails with 'invalid expire time': redis-gcra needs intervals of 1 ms or more.
peer_args[gcra]="1 peer:gcra:{__rand_int__} $now_ms 1000000 1000 1000 1"
peer_name[leaky_bucket]="redis-gcra"; peer_sha[leaky_bucket]=$gcr
peer_args[leaky_bucket]=${peer_args[gcra]}

echo "Pipelined EVALSHA (redis-benchmark -c 1 -P 64 -r 10000, $requests requests per run, median of $rounds interleaved pairs)"
echo "on redis-server $(redis-server --version | grep -o 'v=[0-9.]*' | cut -c3-), 127.0.0.1:$port; cpu = Redis CPU us per call"
printf '%-16s %10s %7s  %-22s %10s %7s %7s %7s\n' algorithm "ours/s" cpu peer "peer/s" cpu "rps x" "cpu x"
for alg in ${ALGS:-fixed_window sliding_log sliding_counter token_bucket leaky_bucket gcra}; do
    sha=$(load "$root/lua/$alg.lua")
    ours=() theirs=() ratios=() ocpu=() pcpu=() cratios=()
    for _ in $(seq 1 "$rounds"); do
        # shellcheck disable=SC2086
        read -r o oc < <(rps EVALSHA "$sha" 1 "sluice-bench:$alg:{__rand_int__}" ${ours_args[$alg]} "")
        ours+=("$o") ocpu+=("$oc")
        if [ -n "${peer_sha[$alg]:-}" ]; then
            # shellcheck disable=SC2086
            read -r p pc < <(rps EVALSHA "${peer_sha[$alg]}" ${peer_args[$alg]})
            theirs+=("$p") pcpu+=("$pc")
            ratios+=("$(awk -v a="$o" -v b="$p" 'BEGIN {printf "%.3f", a / b}')")
            cratios+=("$(awk -v a="$oc" -v b="$pc" 'BEGIN {printf "%.3f", b / a}')")
        fi
    done
    om=$(printf '%s\n' "${ours[@]}" | median)
    ocm=$(printf '%s\n' "${ocpu[@]}" | median)
    if [ ${#theirs[@]} -gt 0 ]; then
        pm=$(printf '%s\n' "${theirs[@]}" | median)
        pcm=$(printf '%s\n' "${pcpu[@]}" | median)
        rm_=$(printf '%s\n' "${ratios[@]}" | median)
        cm=$(printf '%s\n' "${cratios[@]}" | median)
        printf '%-16s %10.0f %7.2f  %-22s %10.0f %7.2f %7.2f %7.2f\n' "$alg" "$om" "$ocm" "${peer_name[$alg]}" "$pm" "$pcm" "$rm_" "$cm"
    else
        printf '%-16s %10.0f %7.2f  %-22s %10s %7s %7s %7s\n' "$alg" "$om" "$ocm" "(no peer)" - - - -
    fi
done
