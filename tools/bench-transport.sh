#!/usr/bin/env bash
# The engine over each transport beside redis-benchmark running the same script over the same
# transport, in one run: plain TCP, a Unix socket and TLS (a CA and a server certificate made
# here with openssl). Printed figures and ratios, not a test. One private redis-server serves
# all three (--port, --unixsocket, --tls-port), so the server is the same for every row.
#
#   bash tools/bench-transport.sh                (after a build: BUILD_DIR, default ./build)
#   ROUNDS=7 SECONDS_PER_RUN=1 ALGORITHM=fixed_window bash tools/bench-transport.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD_DIR:-$root/build}
cli=$build/app/sluice-cli
rounds=${ROUNDS:-5}
secs=${SECONDS_PER_RUN:-1}
algorithm=${ALGORITHM:-fixed_window}
[ -x "$cli" ] || { echo "no $cli: build first (cmake --build $build)" >&2; exit 1; }

work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca-key.pem -out ca.pem -days 2 \
    -subj "/CN=sluice bench CA" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout server-key.pem -out server.csr \
    -subj "/CN=localhost" 2>/dev/null
printf 'subjectAltName=DNS:localhost\n' >server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial \
    -out server.pem -days 2 -extfile server.ext 2>/dev/null

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port=$(free_port)
tls=$(free_port)
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
    --unixsocket "$work/redis.sock" --unixsocketperm 700 \
    --tls-port "$tls" --tls-cert-file server.pem --tls-key-file server-key.pem \
    --tls-ca-cert-file ca.pem --tls-auth-clients no >"$work/redis.log" 2>&1 &
pid=$!
for _ in $(seq 1 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done

echo "sluice-cli bench over three transports; $algorithm, $rounds rounds of ${secs}s each;"
echo "each row: the engine, then redis-benchmark with the same script over the same transport."
for spec in "tcp|redis://127.0.0.1:$port" "unix|unix://$work/redis.sock" \
    "tls|rediss://localhost:$tls --tls-ca $work/ca.pem"; do
    name=${spec%%|*}
    args=${spec#*|}
    echo
    echo "== $name"
    # shellcheck disable=SC2086
    "$cli" bench --url $args --seconds "$secs" --rounds "$rounds" --algorithm "$algorithm" | tail -n +2
done
