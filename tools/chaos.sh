#!/usr/bin/env bash
# Chaos run of `sluice-cli serve`: the service under a steady load on loopback
# while its Redis is, in turn, killed -9 and restarted, SIGSTOPped for 3 s, slowed (DEBUG SLEEP
# 2), full (maxmemory 1mb) and demoted (REPLICAOF) then promoted back. For each fault it prints
# the answers by source (the Sluice-Source header: redis, allow, deny, local), client errors,
# 500s, the worst latency, and the time from Redis being back to the first answer from Redis.
# Goal: no 500, no answer later than --timeout-ms + 50 ms, recovery within 2 s.
#
#   bash tools/chaos.sh [BUILD_DIR] [SECONDS_PER_FAULT]   (defaults: build, 6)
#
# Needs redis-server and python3 (the load client: 8 keep-alive connections; it reads every
# header, which wrk cannot report per fault). Everything listens on 127.0.0.1, free ports.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
PHASE=${2:-6}
CLI=$(find "$BUILD" -name sluice-cli -type f -perm -u+x | head -1)
[ -n "$CLI" ] || { echo "chaos.sh: no sluice-cli under $BUILD (build it first)" >&2; exit 2; }
exec python3 - "$CLI" "$PHASE" <<'PY'
import http.client, json, os, signal, socket, subprocess, sys, tempfile, threading, time

cli, phase = sys.argv[1], float(sys.argv[2])
TIMEOUT_MS = 200
work = tempfile.mkdtemp(prefix="sluice-chaos-")

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def start_redis(port):
    p = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                          "--appendonly", "no", "--dir", work, "--enable-debug-command", "local"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            if rcmd(port, "PING") == "PONG": return p
        except OSError: pass
        time.sleep(0.02)
    raise SystemExit("redis-server did not start")

def rcmd(port, *args, timeout=5):
    out = subprocess.run(["redis-cli", "-p", str(port)] + list(args), capture_output=True,
                         text=True, timeout=timeout)
    return out.stdout.strip()

rport, other = free_port(), free_port()
redis = start_redis(rport)
spare = start_redis(other)
rules = os.path.join(work, "rules.json")
with open(rules, "w") as f:
    json.dump({"version": 1, "rules": [
        {"id": "open", "scope": "ip", "algorithm": "fixed_window", "limit": 10**9, "window": "1m",
         "on_redis_error": "allow"},
        {"id": "closed", "scope": "ip", "algorithm": "token_bucket", "rate": "1000000/1s",
         "burst": 1000000, "on_redis_error": "deny"},
        {"id": "twin", "scope": "ip", "algorithm": "sliding_counter", "limit": 10**6,
         "window": "1m", "on_redis_error": "local"}]}, f)
sport = free_port()
serve = subprocess.Popen([cli, "serve", "--url", f"redis://127.0.0.1:{rport}", "--rules", rules,
                          "--listen", f"127.0.0.1:{sport}", "--timeout-ms", str(TIMEOUT_MS)],
                         stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "serve.log"), "w"))
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", sport), timeout=0.2).close(); break
    except OSError:
        if serve.poll() is not None:
            raise SystemExit("serve exited: " + open(os.path.join(work, "serve.log")).read())
        time.sleep(0.05)

records, lock, stop = [], threading.Lock(), threading.Event()

def client(i):
    rule = ["open", "closed", "twin"][i % 3]
    conn = None
    n = 0
    while not stop.is_set():
        n += 1
        t0 = time.monotonic()
        try:
            if conn is None:
                conn = http.client.HTTPConnection("127.0.0.1", sport, timeout=5)
            conn.request("GET", f"/v1/check?rule={rule}&subject=c{i}-{n % 50}")
            r = conn.getresponse(); r.read()
            rec = (t0, time.monotonic() - t0, r.status, r.getheader("Sluice-Source") or "-")
            if r.getheader("Connection", "").lower() == "close":
                conn.close(); conn = None
        except Exception as e:
            rec = (t0, time.monotonic() - t0, 0, "error")
            conn = None
        with lock:
            records.append(rec)

def fault_kill():
    redis.send_signal(signal.SIGKILL); redis.wait(); time.sleep(1)
    globals()["redis"] = start_redis(rport)
def fault_stop():
    redis.send_signal(signal.SIGSTOP); time.sleep(3); redis.send_signal(signal.SIGCONT)
def fault_sleep():
    rcmd(rport, "DEBUG", "SLEEP", "2", timeout=10)
def fault_full():
    rcmd(rport, "DEBUG", "POPULATE", "20000", "pad", "100")
    rcmd(rport, "CONFIG", "SET", "maxmemory", "1mb"); time.sleep(2)
    rcmd(rport, "CONFIG", "SET", "maxmemory", "0"); rcmd(rport, "FLUSHALL")
def fault_demote():
    rcmd(rport, "REPLICAOF", "127.0.0.1", str(other)); time.sleep(2)
    rcmd(rport, "REPLICAOF", "NO", "ONE")

faults = [("killed -9, restarted after 1 s", fault_kill), ("SIGSTOP 3 s", fault_stop),
          ("DEBUG SLEEP 2", fault_sleep), ("maxmemory 1mb for 2 s", fault_full),
          ("REPLICAOF for 2 s, then NO ONE", fault_demote)]
threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(8)]
for t in threads: t.start()
time.sleep(1)
print(f"sluice-cli serve --timeout-ms {TIMEOUT_MS}, 8 keep-alive clients, rules open (allow), "
      f"closed (deny), twin (local); {phase:g} s per fault")
worst_all, ok = 0.0, True
for name, fault in faults:
    with lock: records.clear()
    begin = time.monotonic(); time.sleep(1)
    fault(); back = time.monotonic()
    time.sleep(max(0.5, phase - (back - begin)))
    with lock: rs = list(records)
    by = {}
    for r in rs: by[r[3]] = by.get(r[3], 0) + 1
    e500 = sum(1 for r in rs if r[2] == 500)
    worst = max((r[1] for r in rs if r[3] != "error"), default=0)
    after = sorted(r[0] + r[1] for r in rs if r[3] == "redis" and r[0] >= back)
    recover = (after[0] - back) if after else float("inf")
    print(f"{name:34s} answers {len(rs):6d}  " +
          " ".join(f"{k}={by.get(k, 0)}" for k in ["redis", "allow", "deny", "local", "error"]) +
          f"  500s={e500}  worst={worst * 1000:.0f} ms  recovered={recover * 1000:.0f} ms")
    ok = ok and e500 == 0 and worst * 1000 <= TIMEOUT_MS + 50 and recover <= 2
stop.set()
for t in threads: t.join(timeout=6)
serve.send_signal(signal.SIGTERM); serve.wait(timeout=10)
for p in (redis, spare):
    p.send_signal(signal.SIGCONT); p.kill(); p.wait()
print("goal (no 500, worst <= timeout + 50 ms, recovery <= 2 s):", "met" if ok else "NOT met")
print("serve's log:", os.path.join(work, "serve.log"))
PY
