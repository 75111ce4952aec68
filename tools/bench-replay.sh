#!/usr/bin/env bash
# The replay's throughput (FORMATS.md "replay"): sluice-cli replay over a generated
# nginx-combined log through six per-IP rules (one per algorithm) on the in-process twins,
# against `awk '{print $1, $4}'` over the same file, rounds interleaved, medians printed.
#
#   tools/bench-replay.sh [BUILD_DIR]       env: LINES (default 10000000), ROUNDS (3),
#                                           LOG (where the log is made; reused if present)
#
# The log: LINES requests from 20,000 client addresses over LINES / 1000 seconds, realistic
# combined lines (~190 bytes), 1 % with status 429. The machine is shared: figures move by
# +-20 % from run to run; quote the medians and the ratio, never a single round.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cli=$build/app/sluice-cli
lines=${LINES:-10000000}
rounds=${ROUNDS:-3}
log=${LOG:-${TMPDIR:-/tmp}/sluice-bench-replay-$lines.log}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -x "$cli" ] || { echo "no $cli: build the sluice-cli target first" >&2; exit 2; }

if [ ! -s "$log" ] || [ "$(tail -c 200 "$log" | tail -n 1 | cut -c1-4)" = "" ]; then
    echo "==> making $log ($lines lines)" >&2
    mawk -v n="$lines" 'BEGIN {
        srand(7)
        split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", mon, " ")
        split("/api/orders /api/users /login /search /static/app.js /api/cart /hello /health", path, " ")
        split("GET GET GET POST GET PUT GET GET", meth, " ")
        for (i = 0; i < n; i++) {
            t = 36000 + int(i / 1000)
            if (i % 1000 == 0) {
                ts = sprintf("10/Oct/2026:%02d:%02d:%02d +0000", int(t / 3600) % 24, int(t / 60) % 60, t % 60)
            }
            r = rand()
            # a few heavy clients, a long tail of light ones
            if (r < 0.05) ip = "203.0.113." int(rand() * 20)
            else ip = "10." int(rand() * 20) "." int(rand() * 100) "." int(rand() * 10)
            k = 1 + int(rand() * 8)
            st = (rand() < 0.01) ? 429 : 200
            printf "%s - - [%s] \"%s %s?id=%d HTTP/1.1\" %d %d \"https://example.com/page\" \"Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0\"\n", ip, ts, meth[k], path[k], i % 977, st, 200 + (i % 5000)
        }
    }' > "$log.tmp"
    mv "$log.tmp" "$log"
fi
bytes=$(stat -c %s "$log")

cat > "$work/rules.json" <<'RULES'
{ "version": 1, "rules": [
  { "id": "fw",  "route": "GET /api",   "scope": "ip", "algorithm": "fixed_window",    "limit": 100, "window": "10s" },
  { "id": "log", "route": "/login",     "scope": "ip", "algorithm": "sliding_log",     "limit": 5,   "window": "10s" },
  { "id": "sc",  "route": "/search",    "scope": "ip", "algorithm": "sliding_counter", "limit": 20,  "window": "10s" },
  { "id": "tb",  "scope": "ip",                         "algorithm": "token_bucket",   "rate": "5/s", "burst": 20 },
  { "id": "lb",  "route": "PUT /api",   "scope": "ip", "algorithm": "leaky_bucket",    "rate": "2/s", "burst": 10 },
  { "id": "gc",  "route": "/hello",     "scope": "ip", "algorithm": "gcra",            "rate": "1/s", "burst": 5 }
] }
RULES

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# Wall, user and system seconds of one command (bash's time keyword) appended to TIMES, its
# output to OUT: timed TIMES OUT COMMAND...
timed() {
    local to=$1 out=$2
    shift 2
    local TIMEFORMAT='%R %U %S'
    { time "$@" > "$out"; } 2>> "$to"
}

# Warm the page cache once so that neither side pays for the disk.
cat "$log" > /dev/null
: > "$work/awk.t"
: > "$work/replay.t"
for r in $(seq 1 "$rounds"); do
    timed "$work/awk.t" /dev/null mawk '{print $1, $4}' "$log"
    timed "$work/replay.t" "$work/out.json" "$cli" replay "$log" --rules "$work/rules.json" --format nginx-combined --json
    printf 'round %d: awk %.2f s (CPU %.2f s), replay %.2f s (CPU %.2f s)\n' "$r" \
        "$(tail -n1 "$work/awk.t" | cut -d' ' -f1)" "$(tail -n1 "$work/awk.t" | awk '{ print $2 + $3 }')" \
        "$(tail -n1 "$work/replay.t" | cut -d' ' -f1)" "$(tail -n1 "$work/replay.t" | awk '{ print $2 + $3 }')" >&2
done
awk_s=$(cut -d' ' -f1 "$work/awk.t" | median)
replay_s=$(cut -d' ' -f1 "$work/replay.t" | median)
awk_cpu=$(awk '{ print $2 + $3 }' "$work/awk.t" | median)
replay_cpu=$(awk '{ print $2 + $3 }' "$work/replay.t" | median)
python3 - "$work/out.json" "$lines" "$bytes" "$awk_s" "$replay_s" "$rounds" "$awk_cpu" "$replay_cpu" <<'PY'
import json, sys
out, lines, size, awk_s, rep_s, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
awk_cpu, rep_cpu = float(sys.argv[7]), float(sys.argv[8])
r = json.load(open(out))
assert r["lines"] == lines, (r["lines"], lines)
assert len([x for x in r["rules"] if not x["skipped"]]) == 6
denied = sum(x["denied"] for x in r["rules"])
print(f"log: {lines:,} nginx-combined lines, {size/1e6:,.0f} MB; 6 rules (one per algorithm), "
      f"{sum(x['decided'] for x in r['rules']):,} decisions, {denied:,} denials")
print(f"awk '{{print $1, $4}}': {awk_s:.2f} s = {lines/awk_s:,.0f} lines/s (median of {rounds})")
print(f"sluice-cli replay:      {rep_s:.2f} s = {lines/rep_s:,.0f} lines/s (median of {rounds}, whole process)")
print(f"ratio replay/awk (lines/s): {awk_s/rep_s:.2f}x")
print(f"CPU (user + sys, medians): awk {awk_cpu:.2f} s, replay {rep_cpu:.2f} s (all its threads) "
      f"({lines/rep_cpu:,.0f} lines per CPU second, {awk_cpu/rep_cpu:.2f}x awk's)")
PY
