#!/usr/bin/env bash
# The replay's throughput and memory (FORMATS.md "replay"): sluice-cli replay over generated
# nginx-combined logs through six per-IP rules (one per algorithm) on the in-process twins,
# against `awk '{print $1, $4}'` over the same files, rounds interleaved, medians printed;
# then the bytes per (rule, subject), from the peak RSS of a run over many subjects.
#
#   tools/bench-replay.sh [BUILD_DIR]       env: LINES (default 10000000), ROUNDS (3),
#                                           LOG (where the long-line log is made; reused if
#                                           present; the short-line one beside it),
#                                           SUBJECTS (1000000, the memory run; 0: skip it)
#
# The logs: LINES requests from 20,000 client addresses over LINES / 1000 seconds, 1 % with
# status 429; "long" lines as browsers make them (~174 bytes: a Referer and a Firefox
# User-Agent), "short" ones as API clients do (~119 bytes: no Referer, okhttp). The machine is
# shared: figures move by +-20 % from run to run; quote the medians and the ratio, never a
# single round, and the load beside them.
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

# make_log FILE SHORT(0|1)
make_log() {
    [ -s "$1" ] && [ "$(tail -c 200 "$1" | tail -n 1 | cut -c1-4)" != "" ] && return 0
    echo "==> making $1 ($lines lines)" >&2
    mawk -v n="$lines" -v short="$2" 'BEGIN {
        srand(7)
        split("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec", mon, " ")
        split("/api/orders /api/users /login /search /static/app.js /api/cart /hello /health", path, " ")
        split("GET GET GET POST GET PUT GET GET", meth, " ")
        tail = short ? "\"-\" \"okhttp/4.12.0 (Android 14)\"" : "\"https://example.com/page\" \"Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/128.0\""
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
            printf "%s - - [%s] \"%s %s?id=%d HTTP/1.1\" %d %d %s\n", ip, ts, meth[k], path[k], i % 977, st, 200 + (i % 5000), tail
        }
    }' > "$1.tmp"
    mv "$1.tmp" "$1"
}
short_log=${log%.log}-short.log
make_log "$log" 0
make_log "$short_log" 1
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
cat "$log" "$short_log" > /dev/null
for kind in long short; do
    : > "$work/awk-$kind.t"
    : > "$work/replay-$kind.t"
done
for r in $(seq 1 "$rounds"); do
    for kind in long short; do
        f=$log
        [ "$kind" = short ] && f=$short_log
        timed "$work/awk-$kind.t" /dev/null mawk '{print $1, $4}' "$f"
        timed "$work/replay-$kind.t" "$work/out-$kind.json" "$cli" replay "$f" --rules "$work/rules.json" --format nginx-combined --json
        printf 'round %d, %s lines: awk %.2f s (CPU %.2f s), replay %.2f s (CPU %.2f s), load %s\n' "$r" "$kind" \
            "$(tail -n1 "$work/awk-$kind.t" | cut -d' ' -f1)" "$(tail -n1 "$work/awk-$kind.t" | awk '{ print $2 + $3 }')" \
            "$(tail -n1 "$work/replay-$kind.t" | cut -d' ' -f1)" "$(tail -n1 "$work/replay-$kind.t" | awk '{ print $2 + $3 }')" \
            "$(cut -d' ' -f1 /proc/loadavg)" >&2
    done
done
echo "load average now: $(cut -d' ' -f1-3 /proc/loadavg) (2 cores)"
for kind in long short; do
    f=$log
    [ "$kind" = short ] && f=$short_log
    python3 - "$work/out-$kind.json" "$lines" "$(stat -c %s "$f")" "$rounds" "$kind" \
        "$(cut -d' ' -f1 "$work/awk-$kind.t" | median)" "$(cut -d' ' -f1 "$work/replay-$kind.t" | median)" \
        "$(awk '{ print $2 + $3 }' "$work/awk-$kind.t" | median)" "$(awk '{ print $2 + $3 }' "$work/replay-$kind.t" | median)" <<'PY'
import json, sys
out, lines, size, rounds, kind = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
awk_s, rep_s, awk_cpu, rep_cpu = (float(x) for x in sys.argv[6:10])
r = json.load(open(out))
assert r["lines"] == lines, (r["lines"], lines)
assert len([x for x in r["rules"] if not x["skipped"]]) == 6
denied = sum(x["denied"] for x in r["rules"])
print(f"{kind} lines: {lines:,} nginx-combined lines of {size/lines:.0f} bytes, {size/1e6:,.0f} MB; 6 rules "
      f"(one per algorithm), {sum(x['decided'] for x in r['rules']):,} decisions, {denied:,} denials")
print(f"  awk '{{print $1, $4}}': {awk_s:.2f} s = {lines/awk_s:,.0f} lines/s (median of {rounds})")
print(f"  sluice-cli replay:      {rep_s:.2f} s = {lines/rep_s:,.0f} lines/s (median of {rounds}, whole process)")
print(f"  ratio replay/awk (lines/s): {awk_s/rep_s:.2f}x")
print(f"  CPU (user + sys, medians): awk {awk_cpu:.2f} s, replay {rep_cpu:.2f} s (all its threads) "
      f"({lines/rep_cpu:,.0f} lines per CPU second, {awk_cpu/rep_cpu:.2f}x awk's)")
PY
done

# Memory: SUBJECTS distinct addresses, two requests each, through six rules that take every
# request (so 6 x SUBJECTS (rule, subject) pairs); the peak RSS (GNU time's %M) of that run
# less that of a run over 1,000 subjects, over the pairs.
subjects=${SUBJECTS:-1000000}
if [ "$subjects" -gt 0 ]; then
    sed -e 's/"route": "[^"]*", *//' "$work/rules.json" > "$work/all-rules.json"
    many() {
        mawk -v n="$1" 'BEGIN { for (i = 0; i < 2 * n; i++) { s = i % n; t = 36000 + int(i / 1000)
            printf "10.%d.%d.%d - - [10/Oct/2026:%02d:%02d:%02d +0000] \"GET /api/x HTTP/1.1\" 200 5 \"-\" \"curl/8.5.0\"\n", int(s / 65536) % 256, int(s / 256) % 256, s % 256, int(t / 3600) % 24, int(t / 60) % 60, t % 60 } }'
    }
    many "$subjects" > "$work/many.log"
    many 1000 > "$work/few.log"
    rss() { /usr/bin/time -f %M "$cli" replay "$1" --rules "$work/all-rules.json" --format nginx-combined --json 2>&1 > /dev/null | tail -n1; }
    base=$(rss "$work/few.log")
    peak=$(rss "$work/many.log")
    python3 - "$subjects" "$base" "$peak" <<'PY'
import sys
n, base, peak = int(sys.argv[1]), int(sys.argv[2]) * 1024, int(sys.argv[3]) * 1024
print(f"memory: {n:,} subjects x 6 rules: peak RSS {peak/2**20:,.0f} MiB, {base/2**20:,.0f} MiB over 1,000 "
      f"subjects: {(peak - base) / (6 * n):.0f} bytes per (rule, subject), the subject's own share included "
      f"(FORMATS.md: 128 per (rule, subject), 112 per subject, 1,200 per subject of the sliding-log "
      f"rule: {128 + 112 / 6 + 1200 / 6:.0f} here)")
PY
fi
