#!/usr/bin/env bash
# The server's latency, as another client sees it (redis-cli --latency: a PING every 10 ms,
# one-second samples), idle and while `sluice-cli keys` scans N keys (1,000,000 by default):
# with the default scan budget (20,000 keys/s, back-off on latency) and with no budget
# (--scan-budget 0). A private redis-server on a free loopback port, removed at the end.
#
#   bash tools/bench-scan-latency.sh [--keys N] [--idle-seconds S] [--cli PATH]
set -euo pipefail

keys=1000000
idle=10
cli="$(dirname "$0")/../build/app/sluice-cli"
while [[ $# -gt 0 ]]; do
    case "$1" in
    --keys) keys="$2"; shift 2 ;;
    --idle-seconds) idle="$2"; shift 2 ;;
    --cli) cli="$2"; shift 2 ;;
    *) echo "usage: $0 [--keys N] [--idle-seconds S] [--cli PATH]" >&2; exit 2 ;;
    esac
done
[[ -x "$cli" ]] || { echo "no sluice-cli at $cli (build it, or pass --cli)" >&2; exit 2; }

dir="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
    --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
trap 'redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done

# N fixed-window states (a hash with s and c, a TTL), as the real script leaves them.
echo "planting $keys keys..." >&2
python3 - "$keys" <<'EOF' | redis-cli -p "$port" --pipe >/dev/null
import sys, time
n = int(sys.argv[1]); out = sys.stdout
ws = str(int(time.time() // 3600 * 3600 * 1_000_000))
def cmd(*a):
    out.write('*%d\r\n' % len(a) + ''.join('$%d\r\n%s\r\n' % (len(x), x) for x in a))
for i in range(n):
    k = 'rate_limit:a:{10.%d.%d.%d}' % (i >> 16 & 255, i >> 8 & 255, i & 255) if i < 1 << 24 else 'rate_limit:a:{%d}' % i
    cmd('HSET', k, 's', ws, 'c', '1')
    cmd('PEXPIRE', k, '3600000')
EOF
rules="$dir/rules.json"
echo '{"version": 1, "rules": [{"id": "a", "scope": "ip", "algorithm": "fixed_window", "limit": 5, "window": "1h"}]}' >"$rules"
echo "dbsize $(redis-cli -p "$port" dbsize)" >&2

# One line per second: min max avg (ms) samples. Summary: mean of the averages, worst max.
summarize() {
    awk -v label="$1" '{ n++; avg += $3; if ($2 > worst) worst = $2 }
        END { if (n) printf "%-34s %3d s  avg %.3f ms  worst %d ms\n", label, n, avg / n, worst }'
}
sample_while() { # sample_while PID: one-second samples while PID lives
    while kill -0 "$1" 2>/dev/null; do redis-cli -p "$port" --latency --raw; done
}

for _ in $(seq "$idle"); do redis-cli -p "$port" --latency --raw; done | summarize "idle"

run_scan() { # run_scan LABEL [flags]
    local label="$1"; shift
    local start end
    start=$(date +%s.%N)
    ("$cli" keys --url "redis://127.0.0.1:$port" --rules "$rules" --json "$@" >/dev/null
     date +%s.%N >"$dir/end") &
    local pid=$!
    sample_while "$pid" | summarize "$label"
    wait "$pid"
    end=$(cat "$dir/end")
    awk -v s="$start" -v e="$end" -v n="$keys" \
        'BEGIN { printf "%-34s scan took %.1f s (%.0f keys/s)\n", "", e - s, n / (e - s) }'
}
run_scan "scanning, default budget (20k/s)"
run_scan "scanning, --scan-budget 0" --scan-budget 0
