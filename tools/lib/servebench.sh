# What the check service's benchmarks share (bench-serve.sh, bench-overrides.sh,
# bench-staging.sh source it): a private redis-server on a free loopback port
# (tests/redis-fixture.sh), removed on exit together with the server the script started
# ($pid), waiting for a server's "listening on" line and the port it chose, CPU ticks, Redis's
# command count and a median.
#
# The script sets `here` (the checkout) and `cli` first; servebench_start then sets tmp, url,
# rport, rpid and hz. A server's output goes to $tmp/server.out and $tmp/server.err.

servebench_start() {
    command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 1; }
    [ -x "$cli" ] || { echo "no $cli: build sluice-cli first" >&2; exit 1; }
    tmp=$(mktemp -d)
    pid=
    trap servebench_cleanup EXIT
    bash "$here/tests/redis-fixture.sh" start "$tmp/redis" >/dev/null
    url=$(cat "$tmp/redis/url")
    rport=${url##*:}
    rpid=$(cat "$tmp/redis/redis.pid")
    hz=$(getconf CLK_TCK)
}

servebench_cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    bash "$here/tests/redis-fixture.sh" stop "$tmp/redis" >/dev/null 2>&1 || true
    rm -rf "$tmp"
}

# Until the server says "listening" (10 s at the most; then its stderr, and failure), and the
# port of its "listening on http(s)://127.0.0.1:PORT" line into $port.
wait_listening() {
    for _ in $(seq 1 100); do
        if grep -q listening "$tmp/server.out" 2>/dev/null; then
            port=$(sed -n 's/^listening on https\{0,1\}:\/\/127.0.0.1:\([0-9]*\)$/\1/p' "$tmp/server.out")
            return 0
        fi
        sleep 0.1
    done
    cat "$tmp/server.err" >&2
    return 1
}

stop_server() { kill "$pid"; wait "$pid" 2>/dev/null || true; pid=; }

# Every command's calls in Redis (INFO commandstats), summed.
redis_calls() {
    redis-cli -p "$rport" INFO commandstats | awk -F'[:=,]' '/^cmdstat_/ && $2 != "info" {s += $3} END {print s + 0}'
}

ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; } # utime + stime

# The median of the numbers on stdin, one a line.
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
