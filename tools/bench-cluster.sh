#!/usr/bin/env bash
# The engine on a Redis Cluster of 1 master against one of 3 masters, pipelined, with the same
# client (sluice-cli bench: one connection, batches of 64 decisions over 10000 subjects, so a
# batch spans every master) in one run, the two clusters taking turns round by round. Printed
# figures and their ratio, not a test. A plain connection to the 1-master cluster's node (the
# single-node path) runs beside them. On a 2-core machine the client and the servers share the
# CPU, so the ratio is bounded by it; docs/REFERENCE.md "Redis Cluster" gives the scaling model.
#
#   bash tools/bench-cluster.sh                  (after a build: BUILD_DIR, default ./build)
#   ROUNDS=5 SECONDS_PER_RUN=2 bash tools/bench-cluster.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD_DIR:-$root/build}
cli=$build/app/sluice-cli
rounds=${ROUNDS:-3}
secs=${SECONDS_PER_RUN:-2}
[ -x "$cli" ] || { echo "no $cli: build first (cmake --build $build)" >&2; exit 1; }

work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

# A port whose cluster bus port (+10000) is free too.
free_port() {
    python3 -c '
import random, socket
while True:
    p = random.randint(20000, 55000)
    try:
        for q in (p, p + 10000):
            s = socket.socket(); s.bind(("127.0.0.1", q)); s.close()
        print(p); break
    except OSError:
        pass'
}
start_node() { # port
    mkdir -p "$work/$1"
    redis-server --port "$1" --bind 127.0.0.1 --save '' --appendonly no --dir "$work/$1" \
        --cluster-enabled yes --cluster-config-file nodes.conf >"$work/$1/log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 50); do redis-cli -p "$1" ping >/dev/null 2>&1 && return; sleep 0.1; done
    echo "redis-server on $1 did not start: $(tail -3 "$work/$1/log")" >&2; exit 1
}
wait_ok() { # port...
    for p in "$@"; do
        for _ in $(seq 1 100); do
            redis-cli -p "$p" cluster info | grep -q 'cluster_state:ok' && break; sleep 0.1
        done
    done
}

one=$(free_port); start_node "$one"
redis-cli -p "$one" cluster addslotsrange 0 16383 >/dev/null
three=()
for i in 0 1 2; do three+=("$(free_port)"); start_node "${three[$i]}"; done
redis-cli -p "${three[0]}" cluster addslotsrange 0 5460 >/dev/null
redis-cli -p "${three[1]}" cluster addslotsrange 5461 10922 >/dev/null
redis-cli -p "${three[2]}" cluster addslotsrange 10923 16383 >/dev/null
for i in 1 2; do redis-cli -p "${three[$i]}" cluster meet 127.0.0.1 "${three[0]}" >/dev/null; done
wait_ok "$one" "${three[@]}"

# One address of the node that serves every slot: a plain connection (no MOVED ever comes), the
# single-node path, for the cost of the cluster layer itself.
url0="redis://127.0.0.1:$one"
url1="redis://127.0.0.1:$one,127.0.0.1:$one"
url3="redis://127.0.0.1:${three[0]},127.0.0.1:${three[1]},127.0.0.1:${three[2]}"
pipelined() { # url -> decisions/s of the pipelined row
    "$cli" bench --url "$1" --seconds "$secs" --rounds 1 --algorithm fixed_window --json |
        python3 -c 'import json,sys; print(next(r["decisions_per_s"] for r in json.load(sys.stdin)["results"] if r["mode"] == "pipelined"))'
}
echo "sluice-cli bench, fixed_window, pipelined (batch 64), $secs s per run, $rounds rounds"
printf '%-6s %14s %14s %14s %7s\n' round "plain/s" "1 master/s" "3 masters/s" "3/1"
r0=(); r1=(); r3=()
for r in $(seq 1 "$rounds"); do
    p=$(pipelined "$url0"); a=$(pipelined "$url1"); b=$(pipelined "$url3")
    r0+=("$p"); r1+=("$a"); r3+=("$b")
    printf '%-6s %14s %14s %14s %7s\n' "$r" "$p" "$a" "$b" "$(python3 -c "print(f'{$b/$a:.2f}')")"
done
python3 - "${r0[*]}" "${r1[*]}" "${r3[*]}" <<'PY'
import statistics, sys
p, a, b = ([int(x) for x in arg.split()] for arg in sys.argv[1:4])
print(f"median {statistics.median(p):14.0f} {statistics.median(a):14.0f} "
      f"{statistics.median(b):14.0f} {statistics.median(b) / statistics.median(a):7.2f}")
PY
